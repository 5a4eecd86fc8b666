// GEMM level 2: tiles in shared memory, a small register tile per thread.
//
// The idea: a block computes a BM x BN tile of C. It walks K in steps of BK; at each step the
// whole block copies the BM x BK slice of A and the BN x BK slice of B into shared memory once
// (coalesced: consecutive threads read consecutive k), then every thread reuses those values
// for a TM x TN patch of C held in registers. Global traffic drops by a factor ~BM (BN), and
// each shared-memory load feeds TM (TN) multiply-adds.
// Out-of-range rows and columns (any M, N, K) are loaded as zeros and never stored.
#include <cute_dsl/layout/layout.hpp>

#include "common/gemm_check.cuh"

using namespace cute_dsl;
using gemm_example::bf16;

constexpr int BM = 64, BN = 64, BK = 32;  // block tile
constexpr int TM = 4, TN = 4;             // register tile of one thread
constexpr int kThreads = (BM / TM) * (BN / TN);

__global__ void __launch_bounds__(kThreads) gemm_smem(int M, int N, int K, const bf16* A, const bf16* B, bf16* C) {
  // Shared tiles are stored k-major-outer, (k, m) -> k * BM + m, so that the inner loop reads
  // TM (TN) consecutive values; the +4 pad staggers rows across banks during the transposing store.
  constexpr int kPad = 4;
  __shared__ float sA[BK][BM + kPad];
  __shared__ float sB[BK][BN + kPad];
  auto a = make_layout(make_shape(M, K), make_stride(static_cast<long long>(K), Int<1>{}));
  auto b = make_layout(make_shape(N, K), make_stride(static_cast<long long>(K), Int<1>{}));
  auto c = make_layout(make_shape(M, N), make_stride(static_cast<long long>(N), Int<1>{}));

  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int tm = threadIdx.x / (BN / TN), tn = threadIdx.x % (BN / TN);  // this thread's patch
  float acc[TM][TN] = {};

  for (int k0 = 0; k0 < K; k0 += BK) {
    // Cooperative copy: element i of the BM x BK slice is (row i / BK, k i % BK).
    for (int i = threadIdx.x; i < BM * BK; i += kThreads) {
      int r = i / BK, kk = i % BK;
      int gm = m0 + r, gn = n0 + r, gk = k0 + kk;
      sA[kk][r] = (gm < M && gk < K) ? __bfloat162float(A[a(gm, gk)]) : 0.f;
      sB[kk][r] = (gn < N && gk < K) ? __bfloat162float(B[b(gn, gk)]) : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk) {
      float ra[TM], rb[TN];
      for (int i = 0; i < TM; ++i) ra[i] = sA[kk][tm * TM + i];
      for (int j = 0; j < TN; ++j) rb[j] = sB[kk][tn * TN + j];
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) acc[i][j] += ra[i] * rb[j];
    }
    __syncthreads();  // the next copy overwrites the tiles everyone just read
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      int gm = m0 + tm * TM + i, gn = n0 + tn * TN + j;
      if (gm < M && gn < N) C[c(gm, gn)] = __float2bfloat16(acc[i][j]);
    }
}

int main(int argc, char** argv) {
  static_assert(BM == BN, "the cooperative copy loads A and B slices with one loop");
  auto p = gemm_example::problem_from_args(argc, argv, {1024, 1032, 520});  // any M, N, K
  return gemm_example::check_against_cublas("02_smem_tiles", 70, p, [](const gemm_example::Operands& op) {
    dim3 grid((op.p.n + BN - 1) / BN, (op.p.m + BM - 1) / BM);
    gemm_smem<<<grid, kThreads>>>(op.p.m, op.p.n, op.p.k, op.a, op.b, op.c);
  });
}
