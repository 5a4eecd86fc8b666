// GEMM level 4: Hopper's tensor-memory accelerator (TMA) and warpgroup MMA (wgmma).
//
// The idea: two hardware engines replace the threads' data movement of level 3.
//   - TMA copies a whole 2-D box (64 x 128 elements) from global to shared memory from ONE
//     thread's instruction, writes it in the 128-byte swizzled order that wgmma reads without bank
//     conflicts, fills out-of-range elements with zeros (any M, N, K), and signals an mbarrier
//     with the number of bytes that landed.
//   - wgmma: the 4 warps of a warpgroup issue one asynchronous 64 x 128 x 16 multiply whose
//     operands are read straight from shared memory through 64-bit descriptors.
// A ring of kStages buffers keeps the next loads in flight while the tensor cores work on the
// current one: thread 0 refills a stage as soon as the wgmma that read it have completed.
// One warpgroup computes a 128 x 128 tile as two 64-row halves. Level 5 separates loading from
// computing into different warpgroups and keeps the CTAs resident (persistent).
#include <cuda.h>
#include <cuda_bf16.h>

#include <cute_dsl/arch/copy.hpp>
#include <cute_dsl/arch/sm90/gmma_desc.hpp>
#include <cute_dsl/arch/sm90/mbarrier.hpp>
#include <cute_dsl/arch/sm90/tma_copy.hpp>
#include <cute_dsl/arch/sm90/tma_descriptor.hpp>
#include <cute_dsl/arch/sm90/wgmma.hpp>
#include <cute_dsl/atom/tiled_mma.hpp>
#include <cute_dsl/kernels/gemm_epilogue.hpp>
#include <cute_dsl/tensor/identity_tensor.hpp>

#include "common/gemm_check.cuh"

using namespace cute_dsl;
using gemm_example::bf16;

constexpr int BM = 128, BN = 128, BK = 64;  // BK * 2 bytes = one 128-byte swizzled row
constexpr int kStages = 4;
constexpr unsigned kStageBytes = (BM + BN) * BK * sizeof(bf16);

struct SharedStorage {
  alignas(1024) unsigned char a[kStages][BM * BK * sizeof(bf16)];  // 1024-byte aligned: the swizzle period
  alignas(1024) unsigned char b[kStages][BN * BK * sizeof(bf16)];
  std::uint64_t full[kStages];  // "stage s holds k-block kt": TMA's bytes have landed
};

// K-major tile in 128-byte swizzled rows: 8-row groups 1024 bytes apart (see gmma_desc.hpp).
__device__ std::uint64_t tile_desc(const void* smem) {
  return GmmaDescriptor{smem_address(smem), 16, 1024, 0, GmmaLayoutType::sw128}.encode();
}

__global__ void __launch_bounds__(128) gemm_wgmma_tma(const __grid_constant__ CUtensorMap tma_a,
                                                      const __grid_constant__ CUtensorMap tma_b,
                                                      kernels::GemmEpilogueParams<bf16> out, int K) {
  using Mma = SM90_64xNx16_F32_SS<BN, GmmaInput::bf16>;
  extern __shared__ unsigned char smem_raw[];
  auto& smem = *reinterpret_cast<SharedStorage*>((reinterpret_cast<std::uintptr_t>(smem_raw) + 1023) & ~std::uintptr_t(1023));
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int k_tiles = (K + BK - 1) / BK;

  if (threadIdx.x == 0)
    for (int s = 0; s < kStages; ++s) arch::mbarrier_init(&smem.full[s], 1);
  __syncthreads();

  // Thread 0: arm the stage's barrier with the bytes to expect, then start both box copies.
  auto load = [&](int kt) {
    const int s = kt % kStages;
    arch::mbarrier_arrive_expect_tx(&smem.full[s], kStageBytes);
    const unsigned bar = arch::shared_address(&smem.full[s]);
    SM90_TMA_LOAD::copy(&tma_a, bar, smem.a[s], kt * BK, m0);
    SM90_TMA_LOAD::copy(&tma_b, bar, smem.b[s], kt * BK, n0);
  };
  if (threadIdx.x == 0)
    for (int kt = 0; kt < kStages && kt < k_tiles; ++kt) load(kt);

  float acc[2][BN / 2] = {};  // two 64-row halves of the tile
  warpgroup_fence_operand(acc[0]);
  warpgroup_fence_operand(acc[1]);
  for (int kt = 0; kt < k_tiles; ++kt) {
    const int s = kt % kStages;
    arch::mbarrier_wait(&smem.full[s], (kt / kStages) % 2);  // parity of this stage's use
    warpgroup_arrive();
    for (int kk = 0; kk < BK / 16; ++kk) {  // k16 steps: +32 bytes inside the swizzled rows
      const std::uint64_t b = gmma_desc_advance(tile_desc(smem.b[s]), 32 * kk);
      Mma::fma(gmma_desc_advance(tile_desc(smem.a[s]), 32 * kk), b, acc[0]);
      Mma::fma(gmma_desc_advance(tile_desc(smem.a[s] + 64 * 128), 32 * kk), b, acc[1]);
    }
    warpgroup_commit_batch();
    warpgroup_wait<0>();  // stage s is no longer read: it may be refilled
    warpgroup_fence_operand(acc[0]);
    warpgroup_fence_operand(acc[1]);
    if (threadIdx.x == 0 && kt + kStages < k_tiles) load(kt + kStages);
  }
  // Which element of the 64 x BN half each register holds: the atom's thread/value layout,
  // applied to an identity tensor (the coordinates themselves).
  auto crd = make_tiled_mma(MMA_Atom<Mma>{}).get_slice(threadIdx.x).partition_C(make_identity_tensor(make_shape(Int<64>{}, Int<BN>{})));
  for (int h = 0; h < 2; ++h)
    kernels::gemm_store_accumulators<bf16, BN>(make_tensor(&acc[h][0], make_layout(Int<BN / 2>{})), crd, out, m0 + 64 * h, n0, 0);
}

// A K-major operand (rows x K) as a 2-D tensor map with a 64 x box_rows box, 128-byte swizzle.
CUtensorMap operand_map(const bf16* p, int rows, int k, int box_rows) {
  static tma::EncodeTiledFn encode = tma::encode_tiled_from_cudart();
  tma::TiledDescriptorSpec spec;
  spec.data_type = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  spec.element_bytes = 2;
  spec.global_address = const_cast<bf16*>(p);
  spec.shape = {std::uint64_t(k), std::uint64_t(rows)};
  spec.strides_bytes = {std::uint64_t(k) * 2};
  spec.box = {BK, std::uint32_t(box_rows)};
  spec.swizzle = tma::SwizzleMode::bytes128;
  return tma::make_tma_descriptor(encode, spec);
}

int main(int argc, char** argv) {
  auto p = gemm_example::problem_from_args(argc, argv, {1000, 1030, 520});  // K: a multiple of 8 (TMA strides)
  if (p.m <= 0 || p.n <= 0 || p.k <= 0 || p.k % 8 != 0) {  // TMA global strides are multiples of 16 bytes
    std::fprintf(stderr, "ERROR: 04_sm90_wgmma_tma needs M, N, K > 0 and K a multiple of 8 (got %d %d %d)\n", p.m, p.n, p.k);
    return 1;
  }
  return gemm_example::check_against_cublas("04_sm90_wgmma_tma", 90, p, [](const gemm_example::Operands& op) {
    const int smem = sizeof(SharedStorage) + 1024;  // + slack to align the base to 1024
    GEMM_EXAMPLE_CUDA(cudaFuncSetAttribute(gemm_wgmma_tma, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    kernels::GemmEpilogueParams<bf16> out{op.c, nullptr, op.p.n, 0, 0, 0, op.p.m, op.p.n, 1.f, 0.f};
    dim3 grid((op.p.n + BN - 1) / BN, (op.p.m + BM - 1) / BM);
    gemm_wgmma_tma<<<grid, 128, smem>>>(operand_map(op.a, op.p.m, op.p.k, BM), operand_map(op.b, op.p.n, op.p.k, BN),
                                        out, op.p.k);
  });
}
