// Shared by the MMA GPU tests: host element conversions, the f64 reference GEMM and the
// comparison with a per-element error bound.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "gpu_test.cuh"

namespace mma_test {

inline float to_float(float x) { return x; }
inline float to_float(__half x) { return __half2float(x); }
inline float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }
template <class T> T from_float(float x);
template <> inline float from_float<float>(float x) { return x; }
template <> inline __half from_float<__half>(float x) { return __float2half_rn(x); }
template <> inline __nv_bfloat16 from_float<__nv_bfloat16>(float x) { return __float2bfloat16_rn(x); }

// n random values of T in [-1, 1) (already rounded to T, so the reference sees what the GPU sees).
template <class T>
std::vector<T> random_values(std::size_t n, std::uint32_t seed) {
  std::vector<float> f = cute_dsl_test::random_vector<float>(n, seed);
  std::vector<T> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = from_float<T>(f[i]);
  return out;
}

// D(m, n) = sum_k A(m, k) B(n, k) + C(m, n) in double; A is M x K and B N x K row-major, C and D
// M x N row-major (C may be empty: zero). Each |D - ref| must be within
// rel * sum_k |A B| + 1e-6, the error a dot product of K terms in the atom's precision can make.
template <class T>
void expect_gemm_close(std::vector<float> const& d, std::vector<T> const& a, std::vector<T> const& b,
                       std::vector<float> const& c, int M, int N, int K, double rel, std::uint32_t seed) {
  int bad = 0;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double ref = c.empty() ? 0.0 : c[m * N + n], mag = c.empty() ? 0.0 : std::fabs(c[m * N + n]);
      for (int k = 0; k < K; ++k) {
        double p = double(to_float(a[m * K + k])) * double(to_float(b[n * K + k]));
        ref += p;
        mag += std::fabs(p);
      }
      double got = d[m * N + n], tol = rel * mag + 1e-6;
      if (!(std::fabs(got - ref) <= tol) && bad++ < 8)
        ADD_FAILURE() << "D(" << m << ", " << n << ") = " << got << ", reference " << ref << " (tolerance " << tol
                      << ", seed " << seed << ")";
    }
  EXPECT_EQ(bad, 0) << "elements out of tolerance (seed " << seed << ")";
}

// Relative error bounds per input type: f16/bf16 products are exact in f32, so only the f32
// accumulation rounds (K terms); tf32 inputs lose 13 mantissa bits first.
constexpr double kRelF16 = 1e-5;
constexpr double kRelTf32 = 2e-3;

}  // namespace mma_test
