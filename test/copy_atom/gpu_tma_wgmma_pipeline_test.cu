// The issue's "small pipelined loop that overlaps TMA loads and wgmma": C = A * B^T in bf16 with
// f32 accumulation, one CTA per BM-row block. A producer warp fills a ring of Stages shared
// buffers with TMA loads through the TMA atoms (K blocks of 64 of A and B, 128-byte swizzle) and
// a TmaPipeline; the consumer warpgroup waits for each stage, runs wgmma on it (SS, descriptors of
// the same swizzled buffers) and releases it, so loads of later K blocks fly while earlier ones
// are multiplied. More K blocks than stages: the ring wraps and the phases flip. Random bf16,
// poisoned C, every element against an f64 host reference.
#include <cuda.h>
#include <cuda_bf16.h>

#include <cmath>
#include <vector>

#include "../mma_atom/gmma_test_blocks.hpp"
#include "cute_dsl/arch/sm90/gmma_desc.hpp"
#include "cute_dsl/arch/sm90/wgmma.hpp"
#include "cute_dsl/atom/make_tma_atom.hpp"
#include "cute_dsl/pipeline/tma_pipeline.hpp"
#include "cute_dsl/tensor/identity_tensor.hpp"
#include "cute_dsl/tensor/tiling.hpp"
#include "gpu_test.cuh"

using namespace cute_dsl;
using bf16 = __nv_bfloat16;

namespace {

constexpr int kN = 128, kBK = 64, kStages = 3, kKBlocks = 7, kK = kKBlocks * kBK;  // 7 K blocks through 3 stages
constexpr int kConsumers = 128, kThreads = kConsumers + 32;    // one warpgroup + the producer warp

// One stage of an operand as TMA writes it: (K, rows), K contiguous, 128-byte swizzle (bf16:
// Swizzle<3,3,3> on element offsets) -- the same bytes wgmma reads as a K-major sw128 block.
template <int Rows>
using TmaTile = decltype(composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(Int<kBK>{}, Int<Rows>{}))));
template <int Rows>
CUTE_DSL_HOST_DEVICE constexpr auto wgmma_block() {
  return mma_test::smem_block<bf16, GmmaMajor::K, GmmaLayoutType::sw128, Rows, kBK>();
}

template <int BM>
struct alignas(1024) Shared {
  alignas(1024) bf16 a[kStages][BM * kBK];
  alignas(1024) bf16 b[kStages][kN * kBK];
  pipeline::PipelineStorage<kStages> pipe;
};

template <int BM>
using AtomA = TmaLoadAtom<bf16, TmaTile<BM>, 1>;
using AtomB = TmaLoadAtom<bf16, TmaTile<kN>, 1>;

template <int BM>
__global__ void __launch_bounds__(kThreads) pipelined_gemm_kernel(const __grid_constant__ AtomA<BM> tma_a,
                                                                   const __grid_constant__ AtomB tma_b, float* c) {
  extern __shared__ unsigned char raw[];
  auto& smem = *reinterpret_cast<Shared<BM>*>((reinterpret_cast<unsigned long long>(raw) + 1023) & ~1023ull);
  using Pipe = pipeline::TmaPipeline<kStages>;
  const pipeline::TmaPipelineParams params{AtomA<BM>::transaction_bytes + AtomB::transaction_bytes, kConsumers, 0};
  if (threadIdx.x == 0) Pipe::init(smem.pipe, params);
  __syncthreads();
  Pipe pipe(smem.pipe, params);
  const int m_block = int(blockIdx.x);

  if (threadIdx.x >= kConsumers) {  // producer warp: one lane issues every load
    if (threadIdx.x == kConsumers) {
      // Static extents: no run-time layout checks (a printf call) in a kernel that runs wgmma.
      auto cA = make_identity_tensor(make_shape(Int<kK>{}, Int<2 * BM>{}));  // A as TMA sees it: (K, M)
      auto cB = make_identity_tensor(make_shape(Int<kK>{}, Int<kN>{}));
      auto thr_a = tma_a.get_slice(0);
      auto thr_b = tma_b.get_slice(0);
      auto state = pipeline::make_producer_start_state<kStages>();
      for (int kb = 0; kb < kKBlocks; ++kb, ++state) {
        pipe.producer_acquire(state);  // stage empty; FULL armed with both tiles' bytes
        auto& full = *pipe.producer_barrier(state);
        auto sA = make_tensor(make_smem_ptr(smem.a[state.index()]), TmaTile<BM>{});
        auto sB = make_tensor(make_smem_ptr(smem.b[state.index()]), TmaTile<kN>{});
        copy(tma_a.with(full), thr_a.partition_S(local_tile(cA, make_shape(Int<kBK>{}, Int<BM>{}), make_coord(kb, m_block))),
             thr_a.partition_D(sA));
        copy(tma_b.with(full), thr_b.partition_S(local_tile(cB, make_shape(Int<kBK>{}, Int<kN>{}), make_coord(kb, 0))),
             thr_b.partition_D(sB));
      }
      pipe.producer_tail(state);
    }
    return;
  }

  // Consumer warpgroup: BM/64 wgmma 64x128x16 per k16 step, accumulators in registers.
  float acc[BM / 64][kN / 2];
  auto state = pipeline::make_consumer_start_state<kStages>();
  for (int kb = 0; kb < kKBlocks; ++kb, ++state) {
    pipe.consumer_wait(state);
    const unsigned long long db = make_gmma_desc<GmmaMajor::K>(&smem.b[state.index()][0], wgmma_block<kN>());
    CUTE_DSL_UNROLL
    for (int i = 0; i < BM / 64; ++i) warpgroup_fence_operand(acc[i]);
    warpgroup_arrive();
    CUTE_DSL_UNROLL
    for (int i = 0; i < BM / 64; ++i) {
      const unsigned long long da = make_gmma_desc<GmmaMajor::K>(&smem.a[state.index()][i * 64 * kBK], wgmma_block<64>());
      CUTE_DSL_UNROLL
      for (int k = 0; k < kBK / 16; ++k)
        SM90_64xNx16_F32BF16BF16_SS<kN>::fma(gmma_desc_advance(da, 32 * k), gmma_desc_advance(db, 32 * k), acc[i],
                                             (kb > 0 || k > 0) ? 1u : 0u);
    }
    warpgroup_commit_batch();
    warpgroup_wait<0>();
    CUTE_DSL_UNROLL
    for (int i = 0; i < BM / 64; ++i) warpgroup_fence_operand(acc[i]);
    pipe.consumer_release(state);  // this thread is done with the stage
  }
  const int w = int(threadIdx.x) / 32, g = int(threadIdx.x) % 32 / 4, q = int(threadIdx.x) % 4;
  CUTE_DSL_UNROLL
  for (int i = 0; i < BM / 64; ++i)
    CUTE_DSL_UNROLL
    for (int j = 0; j < kN / 2; ++j) {
      const int row = m_block * BM + 64 * i + 16 * w + g + ((j % 4) >= 2 ? 8 : 0), col = 8 * (j / 4) + 2 * q + (j % 2);
      c[std::size_t(row) * kN + col] = acc[i][j];
    }
}

template <int BM>
void run_pipelined_gemm() {
  CUTE_DSL_REQUIRE_GPU(90);
  const int m = 2 * BM, k = kK;
  const std::uint32_t seed = cute_dsl_test::test_seed();
  auto a = cute_dsl_test::random_vector<bf16>(std::size_t(m) * k, seed);
  auto b = cute_dsl_test::random_vector<bf16>(std::size_t(kN) * k, seed + 1);
  cute_dsl_test::DeviceBuffer<bf16> da(a.size()), db(b.size());
  cute_dsl_test::DeviceBuffer<float> dc(std::size_t(m) * kN);
  ASSERT_TRUE(da.ok() && db.ok() && dc.ok());
  CUTE_DSL_TEST_CUDA(da.upload(a));
  CUTE_DSL_TEST_CUDA(db.upload(b));
  CUTE_DSL_TEST_CUDA(dc.poison());
  AtomA<BM> tma_a{};
  AtomB tma_b{};
  try {
    auto enc = tma::encode_tiled_from_cudart();
    tma_a = make_tma_load_atom(enc, da.get(), make_layout(make_shape(k, m), make_stride(_1{}, k)), TmaTile<BM>{});
    tma_b = make_tma_load_atom(enc, db.get(), make_layout(make_shape(k, kN), make_stride(_1{}, k)), TmaTile<kN>{});
  } catch (const std::exception& e) {
    FAIL() << e.what();
  }
  const int smem_bytes = int(sizeof(Shared<BM>)) + 1024;  // + room to align the block to 1 KiB
  CUTE_DSL_TEST_CUDA(cudaFuncSetAttribute(pipelined_gemm_kernel<BM>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
  pipelined_gemm_kernel<BM><<<m / BM, kThreads, smem_bytes>>>(tma_a, tma_b, dc.get());
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<float> out;
  CUTE_DSL_TEST_CUDA(dc.download(out));
  for (int r = 0; r < m; ++r)
    for (int n = 0; n < kN; ++n) {
      double ref = 0, mag = 0;
      for (int kk = 0; kk < k; ++kk) {
        const double p = double(__bfloat162float(a[std::size_t(r) * k + kk])) * double(__bfloat162float(b[std::size_t(n) * k + kk]));
        ref += p;
        mag += std::fabs(p);
      }
      const float got = out[std::size_t(r) * kN + n];
      ASSERT_LE(std::fabs(double(got) - ref), 1e-4 * mag + 1e-5)  // f32 sums of k products (a wrong K block is off by O(1)); NaN fails
          << "C(" << r << "," << n << ") = " << got << " vs " << ref << ", BM " << BM << ", seed " << seed;
    }
}

}  // namespace

// The TMA view (K, rows) and wgmma's K-major sw128 block (rows, K) are the same bytes.
TEST(TmaWgmmaPipeline, TmaTileAndWgmmaBlockAgree) {
  for (int r = 0; r < 128; ++r)
    for (int kk = 0; kk < kBK; ++kk) ASSERT_EQ(TmaTile<128>{}(make_coord(kk, r)), wgmma_block<128>()(make_coord(r, kk))) << r << " " << kk;
}
TEST(TmaWgmmaPipeline, Bm64N128SevenKBlocksThreeStages) { run_pipelined_gemm<64>(); }
TEST(TmaWgmmaPipeline, Bm128N128SevenKBlocksThreeStages) { run_pipelined_gemm<128>(); }
