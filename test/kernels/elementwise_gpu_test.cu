// The elementwise and copy kernels on the GPU: every element of random inputs against the same
// functor run on the host, for f32, f16 and bf16, over sizes that are and are not multiples of the
// vector width and the block trip, with the default grid and a tiny one (grid-stride loop), and
// with misaligned pointers (the scalar path). The output is poisoned (NaN) before each run and
// guarded past its end: a skipped element or a write out of bounds fails.
#include "cute_dsl/kernels/copy_bulk.hpp"
#include "cute_dsl/kernels/elementwise.hpp"
#include "cute_dsl/kernels/elementwise_launch.hpp"
#include "kernel_test_support.cuh"

namespace {

namespace ck = cute_dsl::kernels;
using namespace cute_dsl_kernels_test;

// Sizes: empty, a single element, below one vector, ragged, exactly one block trip, ragged large.
constexpr long long kSizes[] = {0, 1, 7, 255, 4096, 1000003, 256 * 4 * 8 * 3 + 5, (1 << 22) + 3};

// The default grid of the elementwise kernels (256 threads, Unroll 4, 16-byte vectors).
template <class Kernel>
struct ElementwiseGrid {
  static unsigned default_grid(long long n) {
    return static_cast<unsigned>(ck::elementwise_grid(n, {Kernel::V, 256, 4}, sm_count(), Kernel::blocks_per_sm()));
  }
};

template <class T, class Op, class Access = ck::PlainAccess>
struct Unary : ElementwiseGrid<Unary<T, Op, Access>> {
  static constexpr int V = static_cast<int>(16 / sizeof(T));
  static void run(T* out, const T* a, const T*, long long n, Op op, unsigned grid) {
    ck::elementwise_unary_kernel<T, Op, V, 256, 4, Access><<<grid, 256>>>(out, a, n, op);
  }
  static T ref(T a, T, Op op) { return op(a); }
  static int blocks_per_sm() { return occupancy(ck::elementwise_unary_kernel<T, Op, V, 256, 4, Access>, 256); }
};

template <class T, class Op, class Access = ck::PlainAccess>
struct Binary : ElementwiseGrid<Binary<T, Op, Access>> {
  static constexpr int V = static_cast<int>(16 / sizeof(T));
  static void run(T* out, const T* a, const T* b, long long n, Op op, unsigned grid) {
    ck::elementwise_binary_kernel<T, Op, V, 256, 4, Access><<<grid, 256>>>(out, a, b, n, op);
  }
  static T ref(T a, T b, Op op) { return op(a, b); }
  static int blocks_per_sm() { return occupancy(ck::elementwise_binary_kernel<T, Op, V, 256, 4, Access>, 256); }
};

template <class T, class Access = ck::PlainAccess>
struct Copy : ElementwiseGrid<Copy<T, Access>> {
  static constexpr int V = static_cast<int>(16 / sizeof(T));
  static void run(T* out, const T* a, const T*, long long n, ck::Identity, unsigned grid) {
    ck::copy_kernel<T, V, 256, 4, Access><<<grid, 256>>>(out, a, n);
  }
  static T ref(T a, T, ck::Identity) { return a; }
  static int blocks_per_sm() { return occupancy(ck::copy_kernel<T, V, 256, 4, Access>, 256); }
};

// The TMA bulk copy, 4 KiB chunks (so the test sizes span one to ~1000 chunks), 4 stages; the
// default grid is persistent (resident blocks), the tiny-grid runs make each block walk many
// chunks around the ring several times.
template <class T>
struct CopyBulk {
  static constexpr int kChunk = 4096, kStages = 4;
  static void run(T* out, const T* a, const T*, long long n, ck::Identity, unsigned grid) {
    ck::copy_bulk_kernel<T, kChunk, kStages><<<grid, 32>>>(out, a, n);
  }
  static T ref(T a, T, ck::Identity) { return a; }
  static unsigned default_grid(long long n) {
    return static_cast<unsigned>(ck::bulk_copy_grid(n * static_cast<long long>(sizeof(T)), kChunk, sm_count(),
                                                    occupancy(ck::copy_bulk_kernel<T, kChunk, kStages>, 32)));
  }
};

// Runs Kernel over n elements starting `offset` elements into each buffer, with the default grid
// or `grid_override` blocks, and checks every element within `tol` (in units of T's epsilon).
template <class T, class Kernel, class Op>
void check(long long n, Op op, double tol, long long offset = 0, unsigned grid_override = 0) {
  SCOPED_TRACE(testing::Message() << "n=" << n << " offset=" << offset << " grid=" << grid_override);
  const std::uint32_t seed = cute_dsl_test::test_seed();
  SCOPED_TRACE(testing::Message() << "CUTE_DSL_TEST_SEED=" << seed);
  const auto a = random_values<T>(n + offset, seed);
  const auto b = random_values<T>(n + offset, seed + 1);
  GuardedBuffer<T> da(n + offset), db(n + offset), dout(n + offset);
  ASSERT_TRUE(da.ok() && db.ok() && dout.ok());
  CUTE_DSL_TEST_CUDA(da.upload(a));
  CUTE_DSL_TEST_CUDA(db.upload(b));
  CUTE_DSL_TEST_CUDA(dout.poison());

  const unsigned grid = grid_override ? grid_override : Kernel::default_grid(n);
  Kernel::run(dout.get() + offset, da.get() + offset, db.get() + offset, n, op, grid);
  CUTE_DSL_TEST_LAUNCHED();

  std::vector<T> out;
  CUTE_DSL_TEST_CUDA(dout.download(out));
  long long bad = 0;
  for (long long i = 0; i < n; ++i) {
    const T want = Kernel::ref(a[offset + i], b[offset + i], op);
    if (!close_enough(out[offset + i], want, tol) && ++bad <= 5)
      ADD_FAILURE() << "element " << i << ": got " << to_double(out[offset + i]) << ", want " << to_double(want);
  }
  EXPECT_EQ(bad, 0) << "wrong elements";
  EXPECT_TRUE(dout.guard_intact()) << "a write past the end of the output";
  for (long long i = 0; i < offset; ++i) EXPECT_TRUE(is_poison(out[i])) << "a write before the output, at " << i;
}

// All sizes, the default grid; then a 3-block grid (several trips per block) and misalignment.
template <class T, class Kernel, class Op>
void check_all(Op op, double tol) {
  for (long long n : kSizes) check<T, Kernel>(n, op, tol);
  check<T, Kernel>((1 << 20) + 9, op, tol, 0, 3);
  check<T, Kernel>(100003, op, tol, 1);  // pointers one element off 16 bytes: the scalar path
  check<T, Kernel>(100003, op, tol, 1, 3);
}

template <class T>
class ElementwiseGpu : public testing::Test {};
using ElementTypes = testing::Types<float, __half, __nv_bfloat16>;
TYPED_TEST_SUITE(ElementwiseGpu, ElementTypes, ElementTypeNames);

// Tolerances in units of T's epsilon: 0 where the device must match the host bit for bit (copy,
// ReLU, a single rounding of an exact sum), a few where the device may contract to FMA or use
// its own tanhf/expf.
TYPED_TEST(ElementwiseGpu, Copy) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_all<TypeParam, Copy<TypeParam>>(ck::Identity{}, 0);
}
TYPED_TEST(ElementwiseGpu, Add) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_all<TypeParam, Binary<TypeParam, ck::Add>>(ck::Add{}, 0);
}
TYPED_TEST(ElementwiseGpu, Axpby) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_all<TypeParam, Binary<TypeParam, ck::Axpby>>(ck::Axpby{1.5f, -0.25f}, 2);
}
TYPED_TEST(ElementwiseGpu, Relu) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_all<TypeParam, Unary<TypeParam, ck::Relu>>(ck::Relu{}, 0);
}
TYPED_TEST(ElementwiseGpu, Gelu) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_all<TypeParam, Unary<TypeParam, ck::Gelu>>(ck::Gelu{}, 4);
}
TYPED_TEST(ElementwiseGpu, Silu) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_all<TypeParam, Unary<TypeParam, ck::Silu>>(ck::Silu{}, 4);
}

// The cache-hinted accesses (elementwise_access.hpp) change how bytes move, never which: exact.
TYPED_TEST(ElementwiseGpu, CopyStreaming) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_all<TypeParam, Copy<TypeParam, ck::StreamingAccess>>(ck::Identity{}, 0);
}
TYPED_TEST(ElementwiseGpu, CopyNoAllocate) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_all<TypeParam, Copy<TypeParam, ck::NoAllocateAccess>>(ck::Identity{}, 0);
}
TYPED_TEST(ElementwiseGpu, CopyBulk) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_all<TypeParam, CopyBulk<TypeParam>>(ck::Identity{}, 0);
  // One chunk per block (the non-persistent grid the benchmark also times).
  const long long n = (1 << 20) + 5;
  check<TypeParam, CopyBulk<TypeParam>>(
      n, ck::Identity{}, 0, 0,
      static_cast<unsigned>(ck::bulk_copy_grid(n * static_cast<long long>(sizeof(TypeParam)), 4096, 0, 0)));
}
TYPED_TEST(ElementwiseGpu, AddStreaming) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_all<TypeParam, Binary<TypeParam, ck::Add, ck::StreamingAccess>>(ck::Add{}, 0);
}
// tanh.approx.f32 against the host's tanhf: within 1e-3 absolute (|x| <= 1, so |gelu| < 1), plus
// two epsilons of T for the output rounding.
TYPED_TEST(ElementwiseGpu, GeluTanhApproxStreaming) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_all<TypeParam, Unary<TypeParam, ck::GeluTanhApprox, ck::StreamingAccess>>(
      ck::GeluTanhApprox{}, 1e-3 / epsilon<TypeParam>() + 2);
}

}  // namespace
