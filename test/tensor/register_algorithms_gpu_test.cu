// The register-tensor algorithms on the GPU: every thread loads (4,3) A, (5,3) B and (4,5) C
// fragments from global memory, runs the FMA gemm, reduces C along N and over everything, and
// stores the results; all compared with a host reference. Values are small integers held in
// floats, so every sum is exact whatever order or FMA contraction the compiler picks.
#include <cstdlib>
#include <vector>

#include "gpu_test.cuh"
#include "tensor_layer.hpp"

using namespace cute_dsl;

namespace {

constexpr int kM = 4, kN = 5, kK = 3, kThreads = 128;

__global__ void register_gemm_reduce_kernel(float const* a, float const* b, float* c, float* row_sums, float* maxima) {
  const int t = int(blockIdx.x * blockDim.x + threadIdx.x);
  auto gA = make_tensor(make_gmem_ptr(a + t * kM * kK), make_shape(Int<kM>{}, Int<kK>{}));
  auto gB = make_tensor(make_gmem_ptr(b + t * kN * kK), make_shape(Int<kN>{}, Int<kK>{}));
  auto gC = make_tensor(make_gmem_ptr(c + t * kM * kN), make_shape(Int<kM>{}, Int<kN>{}));
  auto gRows = make_tensor(make_gmem_ptr(row_sums + t * kM), make_shape(Int<kM>{}));

  auto rA = make_fragment_like(gA);
  auto rB = make_fragment_like(gB);
  auto rC = make_fragment_like(gC);
  auto rRows = make_fragment_like(gRows);
  copy(gA, rA);
  copy(gB, rB);
  copy(gC, rC);
  gemm(rA, rB, rC);
  reduce_sum<1>(rC, rRows);
  copy(rC, gC);
  copy(rRows, gRows);
  maxima[t] = reduce_max(rC);
}

std::vector<float> small_integers(std::size_t n, unsigned seed) {
  std::vector<float> v(n);
  std::srand(seed);
  for (auto& x : v) x = float(std::rand() % 17 - 8);
  return v;
}

TEST(RegisterAlgorithms, GemmAndReductionsPerThread) {
  CUTE_DSL_REQUIRE_GPU(80);
  const int blocks = 4, threads = blocks * kThreads;
  const unsigned seed = cute_dsl_test::test_seed();
  SCOPED_TRACE(::testing::Message() << "seed " << seed);
  auto h_a = small_integers(std::size_t(threads) * kM * kK, seed);
  auto h_b = small_integers(std::size_t(threads) * kN * kK, seed + 1);
  auto h_c = small_integers(std::size_t(threads) * kM * kN, seed + 2);

  cute_dsl_test::DeviceBuffer<float> d_a(h_a.size()), d_b(h_b.size()), d_c(h_c.size()), d_rows(std::size_t(threads) * kM),
      d_max(threads);
  ASSERT_TRUE(d_a.ok() && d_b.ok() && d_c.ok() && d_rows.ok() && d_max.ok());
  CUTE_DSL_TEST_CUDA(d_a.upload(h_a));
  CUTE_DSL_TEST_CUDA(d_b.upload(h_b));
  CUTE_DSL_TEST_CUDA(d_c.upload(h_c));
  CUTE_DSL_TEST_CUDA(d_rows.poison());
  CUTE_DSL_TEST_CUDA(d_max.poison());
  register_gemm_reduce_kernel<<<blocks, kThreads>>>(d_a.get(), d_b.get(), d_c.get(), d_rows.get(), d_max.get());
  CUTE_DSL_TEST_LAUNCHED();

  std::vector<float> out_c, out_rows, out_max;
  CUTE_DSL_TEST_CUDA(d_c.download(out_c));
  CUTE_DSL_TEST_CUDA(d_rows.download(out_rows));
  CUTE_DSL_TEST_CUDA(d_max.download(out_max));
  int bad = 0;
  for (int t = 0; t < threads; ++t) {
    const float* A = &h_a[std::size_t(t) * kM * kK];  // column-major (M,K)
    const float* B = &h_b[std::size_t(t) * kN * kK];  // column-major (N,K)
    const float* C = &h_c[std::size_t(t) * kM * kN];  // column-major (M,N)
    float want_max = -1e30f;
    for (int m = 0; m < kM; ++m) {
      float row = 0;
      for (int n = 0; n < kN; ++n) {
        float v = C[m + kM * n];
        for (int k = 0; k < kK; ++k) v += A[m + kM * k] * B[n + kN * k];
        row += v;
        want_max = v > want_max ? v : want_max;
        if (out_c[std::size_t(t) * kM * kN + m + kM * n] != v && ++bad <= 10)
          ADD_FAILURE() << "thread " << t << " C(" << m << "," << n << ")";
      }
      if (out_rows[std::size_t(t) * kM + m] != row && ++bad <= 10) ADD_FAILURE() << "thread " << t << " row " << m;
    }
    if (out_max[t] != want_max && ++bad <= 10) ADD_FAILURE() << "thread " << t << " max";
  }
  EXPECT_EQ(bad, 0);
}

}  // namespace
