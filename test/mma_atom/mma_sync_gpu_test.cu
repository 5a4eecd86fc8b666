// The scalar FMA and the sm_80 mma.sync atoms on the GPU, through TiledMMA partitions and gemm:
// one atom's tile, and a 2x2 tiling over several K steps, on random data against an f64
// reference, the output poisoned (NaN) before each run.
#include "mma_gpu_support.cuh"

#include "cute_dsl/atom/tiled_mma.hpp"
#include "cute_dsl/tensor/identity_tensor.hpp"
#include "tiled_gemm_thread.hpp"

using namespace cute_dsl;

namespace {

// Where slice (k) of a tensor starts, k a run-time value: must be k. Checked in DEVICE code
// (nvcc's device pass) by the kernel below: nvcc 13.0 once evaluated the tensor's slicing branch
// differently there, every t(_, _, k) pointed at k = 0, and the tiled tests read one K step only.
__host__ __device__ constexpr int run_time_slice_origin(int k) {
  auto t = make_identity_tensor(make_shape(Int<4>{}, Int<8>{}));
  return get<1>(t(_, k)(0));
}

// D = A * B^T + C for A (M x K), B (N x K) row-major, C and D (M x N) row-major, one CTA of
// size(mma) threads: partition, copy to registers, gemm, copy back (tiled_gemm_thread.hpp).
template <class Op, class AtomLayout, int M, int N, int K, class TA>
__global__ void tiled_gemm_kernel(TA const* a, TA const* b, float const* c, float* d) {
  static_assert(run_time_slice_origin(3) == 3, "tensor slicing with a run-time coordinate lost its offset in device code");
  auto mma = make_tiled_mma(MMA_Atom<Op>{}, AtomLayout{});
  auto gA = make_tensor(make_gmem_ptr(a), make_layout(make_shape(Int<M>{}, Int<K>{}), make_stride(Int<K>{}, Int<1>{})));
  auto gB = make_tensor(make_gmem_ptr(b), make_layout(make_shape(Int<N>{}, Int<K>{}), make_stride(Int<K>{}, Int<1>{})));
  auto gC = make_tensor(make_gmem_ptr(c), make_layout(make_shape(Int<M>{}, Int<N>{}), make_stride(Int<N>{}, Int<1>{})));
  auto gD = make_tensor(make_gmem_ptr(d), make_layout(make_shape(Int<M>{}, Int<N>{}), make_stride(Int<N>{}, Int<1>{})));
  mma_test::tiled_gemm_thread(mma, int(threadIdx.x), gA, gB, gC, gD);
}

template <class Op, class AtomLayout, int M, int N, int K, class TA>
void run_tiled_gemm(double rel) {
  CUTE_DSL_REQUIRE_GPU(80);
  const std::uint32_t seed = cute_dsl_test::test_seed();
  auto a = mma_test::random_values<TA>(M * K, seed);
  auto b = mma_test::random_values<TA>(N * K, seed + 1);
  auto c = cute_dsl_test::random_vector<float>(M * N, seed + 2);
  cute_dsl_test::DeviceBuffer<TA> da(a.size()), db(b.size());
  cute_dsl_test::DeviceBuffer<float> dc(c.size()), dd(M * N);
  CUTE_DSL_TEST_CUDA(da.upload(a));
  CUTE_DSL_TEST_CUDA(db.upload(b));
  CUTE_DSL_TEST_CUDA(dc.upload(c));
  CUTE_DSL_TEST_CUDA(dd.poison());
  constexpr int threads = decltype(size(make_tiled_mma(MMA_Atom<Op>{}, AtomLayout{})))::value;
  tiled_gemm_kernel<Op, AtomLayout, M, N, K><<<1, threads>>>(da.get(), db.get(), dc.get(), dd.get());
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<float> d;
  CUTE_DSL_TEST_CUDA(dd.download(d));
  mma_test::expect_gemm_close(d, a, b, c, M, N, K, rel, seed);
}

using One = Layout<Shape<Int<1>, Int<1>, Int<1>>>;
using TwoByTwo = Layout<Shape<Int<2>, Int<2>, Int<1>>>;

}  // namespace

// 16 x 16 threads, each one FMA per k: C(16x16) over K = 8.
TEST(Fma, UniversalFmaTiled16x16) {
  run_tiled_gemm<UniversalFMA<float>, Layout<Shape<Int<16>, Int<16>, Int<1>>>, 16, 16, 8, float>(mma_test::kRelF16);
}

TEST(MmaSync, F16OneTile) { run_tiled_gemm<SM80_16x8x16_F32F16F16F32_TN, One, 16, 8, 16, __half>(mma_test::kRelF16); }
TEST(MmaSync, Bf16OneTile) { run_tiled_gemm<SM80_16x8x16_F32BF16BF16F32_TN, One, 16, 8, 16, __nv_bfloat16>(mma_test::kRelF16); }
TEST(MmaSync, Tf32OneTile) { run_tiled_gemm<SM80_16x8x8_F32TF32TF32F32_TN, One, 16, 8, 8, float>(mma_test::kRelTf32); }

// 2x2 atoms (4 warps), a 64 x 32 tile (2 x 2 per thread) over K = 64 (4 steps of 16).
TEST(MmaSync, F16Tiled2x2FourKSteps) {
  run_tiled_gemm<SM80_16x8x16_F32F16F16F32_TN, TwoByTwo, 64, 32, 64, __half>(mma_test::kRelF16);
}
TEST(MmaSync, Bf16Tiled2x2FourKSteps) {
  run_tiled_gemm<SM80_16x8x16_F32BF16BF16F32_TN, TwoByTwo, 32, 16, 64, __nv_bfloat16>(mma_test::kRelF16);
}
TEST(MmaSync, Tf32Tiled2x2FourKSteps) {
  run_tiled_gemm<SM80_16x8x8_F32TF32TF32F32_TN, TwoByTwo, 32, 16, 32, float>(mma_test::kRelTf32);
}
