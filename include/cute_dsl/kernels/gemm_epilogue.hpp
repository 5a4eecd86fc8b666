// The GEMM epilogue: D = alpha * acc + beta * C, converted to D's type, stored straight from the
// wgmma accumulator registers to global memory, with every row and column checked against M and
// N (any M, N: the last tiles are partial).
//
// Accumulator layout of wgmma m64nNk16 (PTX ISA, "Matrix fragments for wgmma .m64nNk16", f32 D):
// thread t of the warpgroup (warp w = t / 32, lane l = t % 32) holds N/2 floats; float
// 4*j + 2*i + c is element (row, col) of the 64 x N tile with
//     row = 16*w + l/4 + 8*i,   col = 8*j + 2*(l%4) + c,     i, c in {0, 1}, j in [0, N/8).
// So each thread owns pairs of adjacent columns, stored here as one 2-element access.
//
// Element types: float, and __nv_bfloat16 / __half when the including file includes
// <cuda_bf16.h> / <cuda_fp16.h> (the JIT does for bf16/f16 arguments): conversions are their
// constructors from float (round to nearest even) and their conversion to float.
#pragma once

#include "cute_dsl/config.hpp"

namespace cute_dsl::kernels {

// Where D goes and what C it reads (row-major, leading dimensions and batch strides in elements).
// beta == 0 never reads C (C may be null, or hold NaNs).
template <class TD>
struct GemmEpilogueParams {
  TD* d;
  const TD* c;
  long long ldd, batch_stride_d;
  long long ldc, batch_stride_c;
  int m, n;
  float alpha, beta;
};

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

template <class TD>
struct alignas(2 * sizeof(TD)) GemmOutputPair {
  TD x, y;
};

// Stores one warpgroup's 64 x N accumulator tile whose top-left element is D(row0, col0) of batch
// `batch`. `t` is the thread's index in its warpgroup (0..127).
template <class TD, int N>
CUTE_DSL_DEVICE void gemm_store_accumulators(const float (&acc)[N / 2], const GemmEpilogueParams<TD>& p, int row0,
                                             int col0, int batch, int t) {
  TD* d = p.d + batch * p.batch_stride_d;
  const TD* c = p.c + batch * p.batch_stride_c;
  const bool read_c = p.beta != 0.f;
  // Pairs may be stored as one access when every pair starts on a 2-element boundary.
  const bool pairs = (p.ldd % 2 == 0) && (p.batch_stride_d % 2 == 0) &&
                     (reinterpret_cast<unsigned long long>(p.d) % sizeof(GemmOutputPair<TD>) == 0);
  const int warp = t / 32, lane = t % 32;
#pragma unroll
  for (int i = 0; i < 2; ++i) {
    const int row = row0 + 16 * warp + lane / 4 + 8 * i;
    if (row >= p.m) continue;
#pragma unroll
    for (int j = 0; j < N / 8; ++j) {
      const int col = col0 + 8 * j + 2 * (lane % 4);
      if (col >= p.n) continue;
      float v0 = p.alpha * acc[4 * j + 2 * i];
      float v1 = p.alpha * acc[4 * j + 2 * i + 1];
      const bool second = col + 1 < p.n;
      if (read_c) {
        v0 += p.beta * static_cast<float>(c[row * p.ldc + col]);
        if (second) v1 += p.beta * static_cast<float>(c[row * p.ldc + col + 1]);
      }
      TD* out = d + row * p.ldd + col;
      if (second && pairs) {
        *reinterpret_cast<GemmOutputPair<TD>*>(out) = GemmOutputPair<TD>{TD(v0), TD(v1)};
      } else {
        out[0] = TD(v0);
        if (second) out[1] = TD(v1);
      }
    }
  }
}

#endif  // __CUDACC__ || __CUDACC_RTC__

}  // namespace cute_dsl::kernels
