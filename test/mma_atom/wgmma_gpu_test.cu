// wgmma (sm_90a) on the GPU through TiledMMA: shared-memory operands in each canonical layout
// (128B/64B/32B swizzle and interleave, K-major and MN-major), read through the descriptors that
// partition_fragment_A/B build, for N = 8, 64, 128, 256, and the RS form with A in registers.
// One warpgroup computes D(64 x N) = A(64 x K) * B(N x K)^T over K = 64 (4 wgmma K steps). The
// accumulators start as NaN and the first step runs with scale-d = 0, so a wrong scale-d shows.
#include "mma_gpu_support.cuh"

#include "cute_dsl/atom/tiled_mma.hpp"
#include "gmma_test_blocks.hpp"

using namespace cute_dsl;

namespace {

constexpr int kM = 64;
constexpr int kK = 64;

template <class T, GmmaMajor Major, GmmaLayoutType Type, int MN>
__host__ __device__ constexpr auto smem_block() {
  return mma_test::smem_block<T, Major, Type, MN, kK>();
}

template <class T, class Op, int N, GmmaLayoutType TypeA, GmmaLayoutType TypeB>
__global__ void __launch_bounds__(128) wgmma_kernel(T const* a, T const* b, float* d) {
  using Traits = MMA_Traits<Op>;
  constexpr bool a_in_smem = mma_a_is_descriptor_v<Op>;
  __shared__ alignas(1024) T sa[kM * kK];
  __shared__ alignas(1024) T sb[N * kK];
  auto sA = make_tensor(make_smem_ptr(sa), smem_block<T, Traits::major_a, TypeA, kM>());
  auto sB = make_tensor(make_smem_ptr(sb), smem_block<T, Traits::major_b, TypeB, N>());
  auto gA = make_tensor(make_gmem_ptr(a), make_layout(make_shape(Int<kM>{}, Int<kK>{}), make_stride(Int<kK>{}, Int<1>{})));
  auto gD = make_tensor(make_gmem_ptr(d), make_layout(make_shape(Int<kM>{}, Int<N>{}), make_stride(Int<N>{}, Int<1>{})));
  for (int i = int(threadIdx.x); i < kM * kK; i += 128) sA(i / kK, i % kK) = a[i];
  for (int i = int(threadIdx.x); i < N * kK; i += 128) sB(i / kK, i % kK) = b[i];
  // Generic-proxy stores, async-proxy (wgmma) reads: fence, then make every thread's stores visible.
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();

  auto mma = make_tiled_mma(MMA_Atom<Op>{});
  auto thr = mma.get_slice(int(threadIdx.x));
  auto tCrB = thr.partition_fragment_B(sB);
  auto tCrC = thr.partition_fragment_C(gD);
  for (int i = 0; i < int(size(tCrC)); ++i) tCrC(i) = __int_as_float(0x7fc00000);  // NaN: scale-d = 0 must ignore it
  mma.accumulate = 0;
  auto run = [&](auto const& tCrA) {
    for (int i = 0; i < int(size(tCrC)); ++i) warpgroup_fence_operand(tCrC(i));
    warpgroup_arrive();
    gemm(mma, tCrC, tCrA, tCrB, tCrC);
    warpgroup_commit_batch();
    warpgroup_wait<0>();
    for (int i = 0; i < int(size(tCrC)); ++i) warpgroup_fence_operand(tCrC(i));
  };
  if constexpr (a_in_smem) {
    run(thr.partition_fragment_A(sA));
  } else {
    auto tCgA = thr.partition_A(gA);
    auto tCrA = thr.partition_fragment_A(gA);
    for (int i = 0; i < int(size(tCrA)); ++i) tCrA(i) = tCgA(i);
    run(tCrA);
  }
  auto tCgD = thr.partition_C(gD);
  for (int i = 0; i < int(size(tCrC)); ++i) tCgD(i) = tCrC(i);
}

// Random A (64 x K) and B (N x K), the output poisoned, one warpgroup running `kernel`, every
// element of D compared with the f64 reference.
template <class T, int N>
void run_and_check(void (*kernel)(T const*, T const*, float*)) {
  CUTE_DSL_REQUIRE_GPU(90);
  const std::uint32_t seed = cute_dsl_test::test_seed();
  auto a = mma_test::random_values<T>(kM * kK, seed);
  auto b = mma_test::random_values<T>(N * kK, seed + 1);
  cute_dsl_test::DeviceBuffer<T> da(a.size()), db(b.size());
  cute_dsl_test::DeviceBuffer<float> dd(kM * N);
  CUTE_DSL_TEST_CUDA(da.upload(a));
  CUTE_DSL_TEST_CUDA(db.upload(b));
  CUTE_DSL_TEST_CUDA(dd.poison());
  kernel<<<1, 128>>>(da.get(), db.get(), dd.get());
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<float> d;
  CUTE_DSL_TEST_CUDA(dd.download(d));
  mma_test::expect_gemm_close(d, a, b, {}, kM, N, kK, mma_test::kRelF16, seed);
}

template <class T, class Op, int N, GmmaLayoutType TypeA, GmmaLayoutType TypeB = TypeA>
void run_wgmma() {
  run_and_check<T, N>(wgmma_kernel<T, Op, N, TypeA, TypeB>);
}

// The raw path a hand-written kernel takes (no TiledMMA): one descriptor per operand for the whole
// 128B-swizzled K-major block, advanced by 32 bytes per k16 step; the accumulator written out
// with the PTX figure's formula (warp w: rows 16w + g (+8), columns 8j + 2q (+1)).
template <int N>
__global__ void __launch_bounds__(128) wgmma_raw_kernel(__nv_bfloat16 const* a, __nv_bfloat16 const* b, float* d) {
  __shared__ alignas(1024) __nv_bfloat16 sa[kM * kK];
  __shared__ alignas(1024) __nv_bfloat16 sb[N * kK];
  constexpr auto la = smem_block<__nv_bfloat16, GmmaMajor::K, GmmaLayoutType::sw128, kM>();
  constexpr auto lb = smem_block<__nv_bfloat16, GmmaMajor::K, GmmaLayoutType::sw128, N>();
  for (int i = int(threadIdx.x); i < kM * kK; i += 128) sa[la(make_coord(i / kK, i % kK))] = a[i];
  for (int i = int(threadIdx.x); i < N * kK; i += 128) sb[lb(make_coord(i / kK, i % kK))] = b[i];
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  unsigned long long da = make_gmma_desc<GmmaMajor::K>(&sa[0], la);
  unsigned long long db = make_gmma_desc<GmmaMajor::K>(&sb[0], lb);
  float acc[N / 2];
  warpgroup_fence_operand(acc);
  warpgroup_arrive();
  for (int k = 0; k < kK / 16; ++k)
    SM90_64xNx16_F32BF16BF16_SS<N>::fma(gmma_desc_advance(da, 32 * k), gmma_desc_advance(db, 32 * k), acc, k > 0 ? 1u : 0u);
  warpgroup_commit_batch();
  warpgroup_wait<0>();
  warpgroup_fence_operand(acc);
  int w = int(threadIdx.x) / 32, g = int(threadIdx.x) % 32 / 4, q = int(threadIdx.x) % 4;
  for (int i = 0; i < N / 2; ++i) {
    int row = 16 * w + g + ((i % 4) >= 2 ? 8 : 0), col = 8 * (i / 4) + 2 * q + (i % 2);
    d[row * N + col] = acc[i];
  }
}

template <int N>
void run_wgmma_raw() {
  run_and_check<__nv_bfloat16, N>(wgmma_raw_kernel<N>);
}

using bf16 = __nv_bfloat16;
using f16 = __half;
using namespace mma_test;  // kSw128, kMN, ...

}  // namespace

// Hand-written descriptors and K steps (what examples/gemm does), N = 64 and 192.
TEST(Wgmma, RawDescriptorsBf16Sw128N64) { run_wgmma_raw<64>(); }
TEST(Wgmma, RawDescriptorsBf16Sw128N192) { run_wgmma_raw<192>(); }

// K-major 128B swizzle (the GEMM's layout) for N = 8, 64, 128, 256.
TEST(Wgmma, SsBf16KMajorSw128N8) { run_wgmma<bf16, SM90_64xNx16_F32BF16BF16_SS<8>, 8, kSw128>(); }
TEST(Wgmma, SsBf16KMajorSw128N64) { run_wgmma<bf16, SM90_64xNx16_F32BF16BF16_SS<64>, 64, kSw128>(); }
TEST(Wgmma, SsF16KMajorSw128N128) { run_wgmma<f16, SM90_64xNx16_F32F16F16_SS<128>, 128, kSw128>(); }
TEST(Wgmma, SsBf16KMajorSw128N256) { run_wgmma<bf16, SM90_64xNx16_F32BF16BF16_SS<256>, 256, kSw128>(); }
// The other K-major layouts.
TEST(Wgmma, SsBf16KMajorSw64N64) { run_wgmma<bf16, SM90_64xNx16_F32BF16BF16_SS<64>, 64, kSw64>(); }
TEST(Wgmma, SsF16KMajorSw32N64) { run_wgmma<f16, SM90_64xNx16_F32F16F16_SS<64>, 64, kSw32>(); }
TEST(Wgmma, SsF16KMajorInterleaveN64) { run_wgmma<f16, SM90_64xNx16_F32F16F16_SS<64>, 64, kInterleave>(); }
// MN-major operands (imm-trans-a/b = 1).
TEST(Wgmma, SsBf16MNMajorSw128N64) { run_wgmma<bf16, SM90_64xNx16_F32BF16BF16_SS<64, kMN, kMN>, 64, kSw128>(); }
TEST(Wgmma, SsF16MNMajorASw64KMajorBSw128N128) {
  run_wgmma<f16, SM90_64xNx16_F32F16F16_SS<128, kMN, GmmaMajor::K>, 128, kSw64, kSw128>();
}
TEST(Wgmma, SsBf16MNMajorInterleaveN64) { run_wgmma<bf16, SM90_64xNx16_F32BF16BF16_SS<64, kMN, kMN>, 64, kInterleave>(); }
// RS: A from registers (the m16n8k16 A fragment per warp), B through its descriptor.
TEST(Wgmma, RsF16KMajorSw128N64) { run_wgmma<f16, SM90_64xNx16_F32F16F16_RS<64>, 64, kSw128>(); }
TEST(Wgmma, RsBf16MNMajorBSw64N256) { run_wgmma<bf16, SM90_64xNx16_F32BF16BF16_RS<256, kMN>, 256, kSw128, kSw64>(); }
