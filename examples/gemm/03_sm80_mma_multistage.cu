// GEMM level 3: tensor cores through mma.sync, fed by cp.async and ldmatrix, multistage.
//
// Three ideas on top of level 2:
//   - mma.sync.m16n8k16 (Ampere, also on Hopper): a warp multiplies a 16x16 tile of A by a 16x8
//     tile of B in one instruction, each thread holding fragments in registers (PTX ISA figures).
//   - ldmatrix: a warp loads four 8x8 blocks from shared memory straight into that fragment
//     order. The shared tiles are XOR-swizzled (16-byte chunk c of row r is stored at chunk
//     c ^ (r/2 % 4)) so that the 8 rows one ldmatrix reads fall in different banks.
//   - cp.async, multistage: global -> shared copies that bypass registers and run in the
//     background. kStages tiles are in flight; each iteration waits for the oldest, computes on
//     it and starts the copy of the tile kStages-1 ahead. Rows past M/N and K past the end are
//     zero-filled (cp.async's src-size 0), so any M, N and K a multiple of 8 work.
// Tile: 128 x 128 x 32 per block of 4 warps, each warp 64 x 64 (4 x 8 mma tiles, 128 floats).
#include <cuda_bf16.h>

#include <cute_dsl/arch/copy.hpp>
#include <cute_dsl/arch/sm75/ldmatrix.hpp>
#include <cute_dsl/arch/sm80/cp_async.hpp>
#include <cute_dsl/arch/sm80/mma_sm80.hpp>

#include "common/gemm_check.cuh"

using namespace cute_dsl;
using gemm_example::bf16;

constexpr int BM = 128, BN = 128, BK = 32, kStages = 3;
constexpr int kThreads = 128;
constexpr int kChunks = BK / 8;  // 16-byte chunks per tile row

// Shared offset (in 16-byte chunks) of chunk c of row r: the bank-conflict-avoiding swizzle.
__device__ int swizzled_chunk(int r, int c) { return r * kChunks + (c ^ ((r >> 1) & 3)); }

struct SharedStorage {
  uint128_t a[kStages][BM * kChunks];
  uint128_t b[kStages][BN * kChunks];
};

// Copies the BM x BK slice of `src` (rows x K, K-major) starting at (row0, k0) into `dst`.
template <int Rows>
__device__ void load_tile(uint128_t* dst, const bf16* src, int rows, int K, int row0, int k0) {
  for (int i = threadIdx.x; i < Rows * kChunks; i += kThreads) {
    const int r = i / kChunks, c = i % kChunks;
    const int gr = row0 + r, gk = k0 + 8 * c;
    const bool valid = gr < rows && gk < K;
    const bf16* g = valid ? src + static_cast<long long>(gr) * K + gk : src;
    SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>::copy(*reinterpret_cast<const uint128_t*>(g), dst[swizzled_chunk(r, c)],
                                                      valid);
  }
}

__global__ void __launch_bounds__(kThreads) gemm_mma_multistage(int M, int N, int K, const bf16* A, const bf16* B, bf16* C) {
  __shared__ SharedStorage smem;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int wm = (warp / 2) * 64, wn = (warp % 2) * 64;  // this warp's 64 x 64 sub-tile
  const int k_tiles = (K + BK - 1) / BK;

  auto load_stage = [&](int kt) {
    if (kt < k_tiles) {
      load_tile<BM>(smem.a[kt % kStages], A, M, K, m0, kt * BK);
      load_tile<BN>(smem.b[kt % kStages], B, N, K, n0, kt * BK);
    }
    cp_async_fence();  // one group per stage, even when empty, so the wait count stays uniform
  };
  for (int kt = 0; kt < kStages - 1; ++kt) load_stage(kt);

  float acc[4][8][4] = {};  // [m16 tile][n8 tile][fragment]
  for (int kt = 0; kt < k_tiles; ++kt) {
    cp_async_wait<kStages - 2>();  // this thread's copies of tile kt have landed...
    __syncthreads();               // ...and everyone's; everyone also finished tile kt-1
    load_stage(kt + kStages - 1);  // refills the stage tile kt-1 used
    const uint128_t* sa = smem.a[kt % kStages];
    const uint128_t* sb = smem.b[kt % kStages];
    for (int kk = 0; kk < BK / 16; ++kk) {
      // A fragments: matrix (lane/8) of an x4 load is rows +8*(lane/8 % 2), k-chunk +(lane/16).
      unsigned a[4][4], b[8][2];
      for (int i = 0; i < 4; ++i) {
        const int r = wm + 16 * i + lane % 8 + 8 * ((lane / 8) % 2);
        SM75_U32x4_LDSM_N::copy(sa[swizzled_chunk(r, 2 * kk + lane / 16)], a[i][0], a[i][1], a[i][2], a[i][3]);
      }
      // B fragments, two n8 tiles per x4 load: matrix (lane/8) is rows +8*(lane/16), k-chunk +(lane/8 % 2).
      for (int j = 0; j < 8; j += 2) {
        const int r = wn + 8 * j + lane % 8 + 8 * (lane / 16);
        SM75_U32x4_LDSM_N::copy(sb[swizzled_chunk(r, 2 * kk + (lane / 8) % 2)], b[j][0], b[j][1], b[j + 1][0],
                                b[j + 1][1]);
      }
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 8; ++j) {
          float* d = acc[i][j];
          SM80_16x8x16_F32BF16BF16F32_TN::fma(d[0], d[1], d[2], d[3], a[i][0], a[i][1], a[i][2], a[i][3], b[j][0],
                                             b[j][1], d[0], d[1], d[2], d[3]);
        }
    }
  }
  // C fragment of m16n8: (row lane/4 [+8], columns 2*(lane%4) + {0,1}).
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j)
      for (int h = 0; h < 2; ++h) {
        const int row = m0 + wm + 16 * i + lane / 4 + 8 * h, col = n0 + wn + 8 * j + 2 * (lane % 4);
        if (row >= M) continue;
        bf16* dst = C + static_cast<long long>(row) * N + col;
        if (col < N) dst[0] = __float2bfloat16(acc[i][j][2 * h]);
        if (col + 1 < N) dst[1] = __float2bfloat16(acc[i][j][2 * h + 1]);
      }
}

int main(int argc, char** argv) {
  auto p = gemm_example::problem_from_args(argc, argv, {1000, 1030, 520});  // K: a multiple of 8
  if (p.m <= 0 || p.n <= 0 || p.k <= 0 || p.k % 8 != 0) {  // 16-byte cp.async chunks
    std::fprintf(stderr, "ERROR: 03_sm80_mma_multistage needs M, N, K > 0 and K a multiple of 8 (got %d %d %d)\n", p.m, p.n, p.k);
    return 1;
  }
  return gemm_example::check_against_cublas("03_sm80_mma_multistage", 80, p, [](const gemm_example::Operands& op) {
    dim3 grid((op.p.n + BN - 1) / BN, (op.p.m + BM - 1) / BM);
    gemm_mma_multistage<<<grid, kThreads>>>(op.p.m, op.p.n, op.p.k, op.a, op.b, op.c);
  });
}
