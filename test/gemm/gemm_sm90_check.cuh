// Shared by the Hopper GEMM's GPU tests: run one case through the launcher and compare every
// element of D with a host reference in double precision (random data, D poisoned first).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cute_dsl/kernels/gemm_sm90_launch.hpp>

#include "gemm_sm90_instances.hpp"  // the launchers, compiled once (support/gemm_sm90_instances)

#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "gemm_reference.hpp"
#include "gpu_test.cuh"

namespace gemm_sm90_test {

using namespace cute_dsl::kernels;
using cute_dsl::GmmaMajor;
using cute_dsl_test::DeviceBuffer;

struct Case {
  int m, n, k, l;
  float alpha, beta;
  int pad = 0;  // extra elements per row of A, B, C, D (leading dimension > extent)
  // A and B as TMA cannot describe them: leading dimensions NOT rounded up to 8 elements and
  // base addresses one element past a 16-byte boundary (the copy mainloop serves them).
  bool unaligned = false;
  // What the launcher does with such operands: the copy mainloop unless a test asks otherwise.
  GemmSm90Unaligned path = GemmSm90Unaligned::copy_mainloop;
};

template <class T>
float to_float(T x) {
  return static_cast<float>(x);
}

inline const char* major_name(GmmaMajor a, GmmaMajor b) {
  // BLAS's column-major names of D = A * op(B): A K-major is "T", B K-major is "N".
  const bool ak = a == GmmaMajor::K, bk = b == GmmaMajor::K;
  return ak ? (bk ? "TN" : "TT") : (bk ? "NN" : "NT");
}

// MajorA / MajorB: K-major operands are stored row by row (ld >= K); MN-major ones column by
// column (A: ld >= M, B: ld >= N). `pad` extra elements per stored row/column either way.
template <class TA, class TD, GmmaMajor MajorA = GmmaMajor::K, GmmaMajor MajorB = GmmaMajor::K>
void run_case(const Case& c, GemmSm90Config config) {
  const std::uint32_t seed = cute_dsl_test::test_seed();
  SCOPED_TRACE("M=" + std::to_string(c.m) + " N=" + std::to_string(c.n) + " K=" + std::to_string(c.k) +
               " L=" + std::to_string(c.l) + " config=" + std::to_string(config.tile_n) + "/" +
               std::to_string(config.stages) + "/" + std::to_string(config.cluster_m) +
               "/tile_m " + std::to_string(config.tile_m) + (config.ping_pong ? " ping-pong" : "") + (config.stream_k ? " stream-K" : "") + " " +
               major_name(MajorA, MajorB) + " seed=" + std::to_string(seed));
  constexpr bool a_k = MajorA == GmmaMajor::K, b_k = MajorB == GmmaMajor::K;
  // TMA needs 16-byte strides: the contiguous extent rounded up to 8 elements (a ragged K of a
  // K-major operand thus sits inside a wider row), plus the padding.
  auto ld_of = [&](int extent) { return (c.unaligned ? extent : (extent + 7) / 8 * 8) + c.pad; };
  const int shift = c.unaligned ? 1 : 0;  // elements between the buffer and A / B
  const long long lda = ld_of(a_k ? c.k : c.m), ldb = ld_of(b_k ? c.k : c.n), ldd = c.n + c.pad;
  const long long sa = (a_k ? c.m : c.k) * lda, sb = (b_k ? c.n : c.k) * ldb, sd = c.m * ldd;
  const auto a_f = cute_dsl_test::random_vector<float>(sa * c.l, seed);
  const auto b_f = cute_dsl_test::random_vector<float>(sb * c.l, seed + 1);
  const auto c_f = cute_dsl_test::random_vector<float>(sd * c.l, seed + 2);
  std::vector<TA> a(a_f.size()), b(b_f.size());
  std::vector<TD> cin(c_f.size());
  for (size_t i = 0; i < a.size(); ++i) a[i] = TA(a_f[i]);
  for (size_t i = 0; i < b.size(); ++i) b[i] = TA(b_f[i]);
  for (size_t i = 0; i < cin.size(); ++i) cin[i] = TD(c_f[i]);

  DeviceBuffer<TA> da(a.size() + shift), db(b.size() + shift);
  DeviceBuffer<TD> dc(cin.size()), dd(cin.size());
  ASSERT_TRUE(da.ok() && db.ok() && dc.ok() && dd.ok());
  CUTE_DSL_TEST_CUDA(cudaMemcpy(da.get() + shift, a.data(), a.size() * sizeof(TA), cudaMemcpyHostToDevice));
  CUTE_DSL_TEST_CUDA(cudaMemcpy(db.get() + shift, b.data(), b.size() * sizeof(TA), cudaMemcpyHostToDevice));
  CUTE_DSL_TEST_CUDA(dc.upload(cin));
  CUTE_DSL_TEST_CUDA(dd.poison());

  GemmSm90Arguments<TA, TD> args{};
  args.shape = {c.m, c.n, c.k, c.l};
  args.a = da.get() + shift, args.lda = lda, args.batch_stride_a = sa;
  args.b = db.get() + shift, args.ldb = ldb, args.batch_stride_b = sb;
  args.d = dd.get(), args.ldd = ldd, args.batch_stride_d = sd;
  args.c = dc.get(), args.ldc = ldd, args.batch_stride_c = sd;
  args.alpha = c.alpha, args.beta = c.beta;
  args.major_a = MajorA, args.major_b = MajorB;
  args.unaligned = c.path;
  ASSERT_EQ(gemm_sm90_unsupported(args), "");
  ASSERT_EQ(gemm_sm90_tma_describable(args), !c.unaligned);
  CUTE_DSL_TEST_CUDA((gemm_sm90_majors<MajorA, MajorB>(args, nullptr, config)));
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<TD> d;
  CUTE_DSL_TEST_CUDA(dd.download(d));

  // Inputs are exactly representable after the conversion above: the reference uses them.
  const cute_dsl_test::GemmCheck check{c.m, c.n, c.k, c.l, c.alpha, c.beta,
                                       cute_dsl_test::gemm_output_eps(sizeof(TD), std::is_same_v<TD, __half>)};
  cute_dsl_test::check_gemm_against_reference(
      check,
      [&](int batch, int i, int k) { return double(to_float(a[batch * sa + (a_k ? i * lda + k : k * lda + i)])); },
      [&](int batch, int j, int k) { return double(to_float(b[batch * sb + (b_k ? j * ldb + k : k * ldb + j)])); },
      [&](int batch, int i, int j) { return double(to_float(cin[batch * sd + i * ldd + j])); },
      [&](int batch, int i, int j) { return double(to_float(d[batch * sd + i * ldd + j])); });
  // Padding columns [N, ldd) of every row and batch keep their poison: the kernel writes inside M x N only.
  int padding_written = 0;
  for (int batch = 0; batch < c.l; ++batch)
    for (int i = 0; i < c.m; ++i)
      for (long long j = c.n; j < ldd; ++j)
        if (!std::isnan(to_float(d[batch * sd + i * ldd + j])) && ++padding_written <= 5)
          ADD_FAILURE() << "D(" << batch << "," << i << "," << j << ") written past N into the padding";
  EXPECT_EQ(padding_written, 0) << "padding elements written";
}

}  // namespace gemm_sm90_test
