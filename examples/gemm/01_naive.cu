// GEMM level 1: one thread per output element, operands straight from global memory.
//
// The idea: a GEMM is M*N independent dot products of length K. Each thread computes one
// C(m, n) = sum_k A(m, k) * B(n, k) with an f32 accumulator. The layouts name the index math:
// A and B are K-major (row-major M x K and N x K), C is row-major M x N.
// Why it is slow: every thread reads 2K values from global memory for 2K flops; neighbours read
// the same rows again, and only the L1/L2 caches save it. Level 2 reuses them from shared memory.
#include <cute_dsl/layout/layout.hpp>

#include "common/gemm_check.cuh"

using namespace cute_dsl;
using gemm_example::bf16;

__global__ void gemm_naive(int M, int N, int K, const bf16* A, const bf16* B, bf16* C) {
  auto a = make_layout(make_shape(M, K), make_stride(static_cast<long long>(K), Int<1>{}));  // (m, k) -> offset
  auto b = make_layout(make_shape(N, K), make_stride(static_cast<long long>(K), Int<1>{}));  // (n, k) -> offset
  auto c = make_layout(make_shape(M, N), make_stride(static_cast<long long>(N), Int<1>{}));  // (m, n) -> offset
  // x runs along N so that a warp writes 32 consecutive elements of a row of C.
  int n = blockIdx.x * blockDim.x + threadIdx.x;
  int m = blockIdx.y * blockDim.y + threadIdx.y;
  if (m >= M || n >= N) return;
  float acc = 0.f;
  for (int k = 0; k < K; ++k) acc += __bfloat162float(A[a(m, k)]) * __bfloat162float(B[b(n, k)]);
  C[c(m, n)] = __float2bfloat16(acc);
}

int main(int argc, char** argv) {
  auto p = gemm_example::problem_from_args(argc, argv, {1024, 1032, 520});  // any M, N, K
  return gemm_example::check_against_cublas("01_naive", 70, p, [](const gemm_example::Operands& op) {
    dim3 block(32, 8);
    dim3 grid((op.p.n + block.x - 1) / block.x, (op.p.m + block.y - 1) / block.y);
    gemm_naive<<<grid, block>>>(op.p.m, op.p.n, op.p.k, op.a, op.b, op.c);
  });
}
