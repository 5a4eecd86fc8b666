// The tiled transpose on the GPU: every element of random matrices, f32 / f16 / bf16 / f64, square
// and ragged shapes (edge tiles in both directions, fewer rows than a tile, one column), two tile
// configurations; the 16-byte-vector transpose (transpose_vectorized.hpp) for f32 with square and
// rectangular tiles, on shapes that take its vector path (multiples of 4, edge tiles included)
// and its per-element path (ragged shapes, pointers off 16 bytes). A transpose moves bits: the
// result must be exact. Output poisoned and guarded.
#include "cute_dsl/kernels/elementwise_launch.hpp"
#include "cute_dsl/kernels/transpose.hpp"
#include "cute_dsl/kernels/transpose_vectorized.hpp"
#include "kernel_test_support.cuh"

namespace {

namespace ck = cute_dsl::kernels;
using namespace cute_dsl_kernels_test;

struct Shape {
  long long rows, cols;
};
constexpr Shape kShapes[] = {{1, 1}, {32, 32}, {64, 64}, {33, 65}, {1000, 37}, {7, 3000}, {3000, 1}, {512, 1024}, {1031, 517}};

// Launches the scalar tile transpose (Tile x Tile tiles, Tile x Rows threads).
template <class T, int Tile, int Rows>
struct Scalar {
  static void run(T* out, const T* in, Shape s) {
    const unsigned grid = static_cast<unsigned>(ck::transpose_grid(s.rows, s.cols, Tile));
    ck::transpose_kernel<T, Tile, Rows><<<grid, Tile * Rows>>>(out, in, s.rows, s.cols);
  }
};
// Launches the 16-byte transpose (TileRows x TileCols tiles of the input, Threads threads).
template <class T, int TileRows, int TileCols, int Threads>
struct Vec4 {
  static void run(T* out, const T* in, Shape s) {
    const unsigned grid = static_cast<unsigned>(ck::transpose_grid(s.rows, s.cols, TileRows, TileCols));
    ck::transpose_vec4_kernel<T, TileRows, TileCols, Threads><<<grid, Threads>>>(out, in, s.rows, s.cols);
  }
};

// Transposes a random s.rows x s.cols matrix starting `offset` elements into each buffer with
// Kernel and checks every element and the guards.
template <class T, class Kernel>
void check(Shape s, long long offset = 0) {
  SCOPED_TRACE(testing::Message() << "rows=" << s.rows << " cols=" << s.cols << " offset=" << offset);
  const std::uint32_t seed = cute_dsl_test::test_seed();
  SCOPED_TRACE(testing::Message() << "CUTE_DSL_TEST_SEED=" << seed);
  const long long n = s.rows * s.cols;
  const auto in = random_values<T>(n + offset, seed);
  GuardedBuffer<T> din(n + offset), dout(n + offset);
  ASSERT_TRUE(din.ok() && dout.ok());
  CUTE_DSL_TEST_CUDA(din.upload(in));
  CUTE_DSL_TEST_CUDA(dout.poison());
  Kernel::run(dout.get() + offset, din.get() + offset, s);
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<T> out;
  CUTE_DSL_TEST_CUDA(dout.download(out));
  for (long long i = 0; i < offset; ++i) EXPECT_TRUE(is_poison(out[i])) << "a write before the output, at " << i;
  long long bad = 0;
  for (long long r = 0; r < s.rows; ++r)
    for (long long c = 0; c < s.cols; ++c) {
      const T got = out[offset + c * s.rows + r], want = in[offset + r * s.cols + c];
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
  for (Shape s : kShapes) check<TypeParam, Scalar<TypeParam, 32, 8>>(s);
}
TYPED_TEST(TransposeGpu, Tile64x8) {
  CUTE_DSL_REQUIRE_GPU(90);
  for (Shape s : kShapes) check<TypeParam, Scalar<TypeParam, 64, 8>>(s);
}

// Multiples of 4 (the vector path) with edge tiles in one or both directions, fewer rows than a
// tile, and a single 4 x 4 block.
constexpr Shape kVec4Shapes[] = {{4, 4}, {64, 64}, {128, 256}, {36, 1000}, {1000, 36}, {132, 68}, {516, 1028}};

TEST(TransposeVec4Gpu, VectorPath) {
  CUTE_DSL_REQUIRE_GPU(90);
  for (Shape s : kVec4Shapes) {
    check<float, Vec4<float, 64, 64, 256>>(s);
    check<float, Vec4<float, 64, 64, 128>>(s);
    check<float, Vec4<float, 32, 32, 64>>(s);
    check<float, Vec4<float, 32, 128, 256>>(s);
    check<float, Vec4<float, 64, 128, 512>>(s);
    check<float, Vec4<float, 128, 64, 256>>(s);
  }
}
// Ragged shapes and misaligned pointers: the per-element path, still exact.
TEST(TransposeVec4Gpu, ElementPath) {
  CUTE_DSL_REQUIRE_GPU(90);
  for (Shape s : kShapes) check<float, Vec4<float, 64, 64, 256>>(s);
  for (Shape s : kShapes) check<float, Vec4<float, 32, 128, 256>>(s);
  for (Shape s : kShapes) check<float, Vec4<float, 128, 64, 256>>(s);  // the default tile
  check<float, Vec4<float, 64, 64, 256>>({512, 1024}, 1);
  check<float, Vec4<float, 128, 64, 256>>({516, 1028}, 1);
  check<float, Vec4<float, 32, 32, 64>>({132, 68}, 3);
}

}  // namespace
