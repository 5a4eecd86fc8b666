// Shared by the Hopper GEMM's GPU tests (test/gemm through the nvcc launcher, test/gemm_jit through
// the JIT): every element of D = alpha * A * B^T + beta * C against a double-precision reference
// on the host. The operands are read through accessors, so each test keeps its own storage
// (K- or MN-major, padding, batch strides, its own argument structs). Test-side code.
#pragma once

#include <gtest/gtest.h>

#include <cmath>

namespace cute_dsl_test {

// The shape and scalars of one checked GEMM. `out_eps`: the output type's relative rounding
// (gemm_output_eps).
struct GemmCheck {
  int m, n, k, l;
  double alpha, beta;
  double out_eps;
};

// The relative rounding of an output type of `bytes` bytes: f32 1e-6, f16 2^-10, bf16 2^-7.
inline double gemm_output_eps(int bytes, bool is_half) { return bytes == 4 ? 1e-6 : (is_half ? 1.0 / 1024 : 1.0 / 128); }

// a(batch, i, k), b(batch, j, k), c(batch, i, j), d(batch, i, j): the elements as doubles.
// Adds a failure for each of the first five elements off and returns how many were off.
template <class A, class B, class C, class D>
int check_gemm_against_reference(const GemmCheck& g, A&& a, B&& b, C&& c, D&& d) {
  int bad = 0;
  for (int batch = 0; batch < g.l; ++batch)
    for (int i = 0; i < g.m; ++i)
      for (int j = 0; j < g.n; ++j) {
        double acc = 0, mag = 0;
        for (int k = 0; k < g.k; ++k) {
          const double x = a(batch, i, k) * b(batch, j, k);
          acc += x;
          mag += std::fabs(x);
        }
        const double cv = c(batch, i, j);
        const double ref = g.alpha * acc + g.beta * cv;
        const double got = d(batch, i, j);
        // Tensor-core f32 accumulation (not IEEE round-to-nearest at every add: allow 1e-4 of the
        // sum of magnitudes) + rounding of the output type. A layout bug is off by O(1).
        const double tol = 1e-4 * (std::fabs(g.alpha) * mag + std::fabs(g.beta * cv)) + g.out_eps * std::fabs(ref) + 1e-6;
        if (!(std::fabs(got - ref) <= tol) && ++bad <= 5)
          ADD_FAILURE() << "D(" << batch << "," << i << "," << j << ") = " << got << ", expected " << ref;
      }
  EXPECT_EQ(bad, 0) << "elements off";
  return bad;
}

}  // namespace cute_dsl_test
