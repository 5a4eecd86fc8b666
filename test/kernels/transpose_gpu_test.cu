// The tiled transpose on the GPU: every element of random matrices, f32 / f16 / bf16 / f64, square
// and ragged shapes (edge tiles in both directions, fewer rows than a tile, one column), two tile
// configurations. A transpose moves bits: the result must be exact. Output poisoned and guarded.
#include "cute_dsl/kernels/elementwise_launch.hpp"
#include "cute_dsl/kernels/transpose.hpp"
#include "kernel_test_support.cuh"

namespace {

namespace ck = cute_dsl::kernels;
using namespace cute_dsl_kernels_test;

struct Shape {
  long long rows, cols;
};
constexpr Shape kShapes[] = {{1, 1}, {32, 32}, {64, 64}, {33, 65}, {1000, 37}, {7, 3000}, {3000, 1}, {512, 1024}, {1031, 517}};

template <class T, int Tile, int Rows>
void check(Shape s) {
  SCOPED_TRACE(testing::Message() << "rows=" << s.rows << " cols=" << s.cols << " tile=" << Tile << "x" << Rows);
  const std::uint32_t seed = cute_dsl_test::test_seed();
  SCOPED_TRACE(testing::Message() << "CUTE_DSL_TEST_SEED=" << seed);
  const long long n = s.rows * s.cols;
  const auto in = random_values<T>(n, seed);
  GuardedBuffer<T> din(n), dout(n);
  ASSERT_TRUE(din.ok() && dout.ok());
  CUTE_DSL_TEST_CUDA(din.upload(in));
  CUTE_DSL_TEST_CUDA(dout.poison());
  const unsigned grid = static_cast<unsigned>(ck::transpose_grid(s.rows, s.cols, Tile));
  ck::transpose_kernel<T, Tile, Rows><<<grid, Tile * Rows>>>(dout.get(), din.get(), s.rows, s.cols);
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<T> out;
  CUTE_DSL_TEST_CUDA(dout.download(out));
  long long bad = 0;
  for (long long r = 0; r < s.rows; ++r)
    for (long long c = 0; c < s.cols; ++c) {
      const T got = out[c * s.rows + r], want = in[r * s.cols + c];
      if (std::memcmp(&got, &want, sizeof(T)) != 0 && ++bad <= 5)
        ADD_FAILURE() << "out(" << c << "," << r << "): got " << to_double(got) << ", want " << to_double(want);
    }
  EXPECT_EQ(bad, 0) << "wrong elements";
  EXPECT_TRUE(dout.guard_intact()) << "a write past the end of the output";
}

template <class T>
class TransposeGpu : public testing::Test {};
using ElementTypes = testing::Types<float, __half, __nv_bfloat16, double>;
TYPED_TEST_SUITE(TransposeGpu, ElementTypes, ElementTypeNames);

TYPED_TEST(TransposeGpu, Tile32x8) {
  CUTE_DSL_REQUIRE_GPU(90);
  for (Shape s : kShapes) check<TypeParam, 32, 8>(s);
}
TYPED_TEST(TransposeGpu, Tile64x8) {
  CUTE_DSL_REQUIRE_GPU(90);
  for (Shape s : kShapes) check<TypeParam, 64, 8>(s);
}

}  // namespace
