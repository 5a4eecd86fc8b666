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

// The default launch of the elementwise kernels (elementwise_defaults.hpp: 16-byte vectors, 256
// threads, Unroll 1, plain accesses, a one-trip grid); Threads, Unroll and Access may be changed
// (the hinted policies run with 256 x 4, so the Unroll loop is covered too).
template <class T, int Threads, int Unroll>
struct ElementwiseLaunch {
  static constexpr int V = ck::kElementwiseVector<T>;
  static unsigned default_grid(long long n) {
    return static_cast<unsigned>(ck::elementwise_onetrip_grid(n, {V, Threads, Unroll}));
  }
};

template <class T, class Op, class Access = ck::DefaultAccess, int Threads = ck::kElementwiseThreads,
          int Unroll = ck::kElementwiseUnroll>
struct Unary : ElementwiseLaunch<T, Threads, Unroll> {
  static void run(T* out, const T* a, const T*, long long n, Op op, unsigned grid) {
    ck::elementwise_unary_kernel<T, Op, ck::kElementwiseVector<T>, Threads, Unroll, Access><<<grid, Threads>>>(out, a, n, op);
  }
  static T ref(T a, T, Op op) { return op(a); }
};

template <class T, class Op, class Access = ck::DefaultAccess, int Threads = ck::kElementwiseThreads,
          int Unroll = ck::kElementwiseUnroll>
struct Binary : ElementwiseLaunch<T, Threads, Unroll> {
  static void run(T* out, const T* a, const T* b, long long n, Op op, unsigned grid) {
    ck::elementwise_binary_kernel<T, Op, ck::kElementwiseVector<T>, Threads, Unroll, Access><<<grid, Threads>>>(out, a, b, n,
                                                                                                          op);
  }
  static T ref(T a, T b, Op op) { return op(a, b); }
};

// Copy with every template argument defaulted: the defaults themselves are what runs.
template <class T>
struct Copy : ElementwiseLaunch<T, ck::kElementwiseThreads, ck::kElementwiseUnroll> {
  static void run(T* out, const T* a, const T*, long long n, ck::Identity, unsigned grid) {
    ck::copy_kernel<T><<<grid, ck::kElementwiseThreads>>>(out, a, n);
  }
  static T ref(T a, T, ck::Identity) { return a; }
};
template <class T, class Access, int Threads, int Unroll>
struct CopyWith : ElementwiseLaunch<T, Threads, Unroll> {
  static void run(T* out, const T* a, const T*, long long n, ck::Identity, unsigned grid) {
    ck::copy_kernel<T, ck::kElementwiseVector<T>, Threads, Unroll, Access><<<grid, Threads>>>(out, a, n);
  }
  static T ref(T a, T, ck::Identity) { return a; }
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

// All sizes, the default (one-trip) grid; then a 3-block grid (several trips per block: the
// grid-stride loop) and misalignment.
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
// its own tanhf/expf (or, for 16-bit types, the fast __expf/__fdividef path: within an ulp of the
// host's tanhf/expf on these |x| <= 1 inputs; activation_bound_gpu_test.cu bounds it vs f64).
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
// The accurate activations (the default for f32; tanhf/expf for 16-bit types too).
TYPED_TEST(ElementwiseGpu, GeluAccurate) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_all<TypeParam, Unary<TypeParam, ck::GeluAccurate>>(ck::GeluAccurate{}, 4);
}
TYPED_TEST(ElementwiseGpu, SiluAccurate) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_all<TypeParam, Unary<TypeParam, ck::SiluAccurate>>(ck::SiluAccurate{}, 4);
}

// The cache-hinted accesses (elementwise_access.hpp) change how bytes move, never which: exact.
TYPED_TEST(ElementwiseGpu, CopyStreaming) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_all<TypeParam, CopyWith<TypeParam, ck::StreamingAccess, 256, 4>>(ck::Identity{}, 0);
}
TYPED_TEST(ElementwiseGpu, CopyNoAllocate) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_all<TypeParam, CopyWith<TypeParam, ck::NoAllocateAccess, 256, 4>>(ck::Identity{}, 0);
}
// The previous default shape (256 x 4, plain) and the add winner of the resident sweep (512 x 2).
TYPED_TEST(ElementwiseGpu, CopyPlain256x4) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_all<TypeParam, CopyWith<TypeParam, ck::PlainAccess, 256, 4>>(ck::Identity{}, 0);
}
TYPED_TEST(ElementwiseGpu, AddPlain512x2) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_all<TypeParam, Binary<TypeParam, ck::Add, ck::PlainAccess, 512, 2>>(ck::Add{}, 0);
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
  check_all<TypeParam, Binary<TypeParam, ck::Add, ck::StreamingAccess, 256, 4>>(ck::Add{}, 0);
}
// tanh.approx.f32 against the host's tanhf: within 1e-3 absolute (|x| <= 1, so |gelu| < 1), plus
// two epsilons of T for the output rounding.
TYPED_TEST(ElementwiseGpu, GeluTanhApproxStreaming) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_all<TypeParam, Unary<TypeParam, ck::GeluTanhApprox, ck::StreamingAccess, 256, 4>>(
      ck::GeluTanhApprox{}, 1e-3 / epsilon<TypeParam>() + 2);
}

}  // namespace
