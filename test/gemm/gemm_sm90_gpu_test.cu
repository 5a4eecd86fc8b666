// The Hopper GEMM on the GPU, every element against a host reference in double precision, on
// random data, with D poisoned (NaN) before each run: every compiled variant, ragged M/N/K,
// alpha/beta, batches, padded leading dimensions, bf16/f16 inputs, bf16/f16/f32 outputs.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cute_dsl/kernels/gemm_sm90_launch.hpp>

#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu_test.cuh"

namespace {

using namespace cute_dsl::kernels;
using cute_dsl_test::DeviceBuffer;

struct Case {
  int m, n, k, l;
  float alpha, beta;
  int pad = 0;  // extra elements per row of A, B, C, D (leading dimension > extent)
};

template <class T>
float to_float(T x) {
  return static_cast<float>(x);
}

template <class TA, class TD>
void run_case(const Case& c, GemmSm90Config config) {
  const std::uint32_t seed = cute_dsl_test::test_seed();
  SCOPED_TRACE("M=" + std::to_string(c.m) + " N=" + std::to_string(c.n) + " K=" + std::to_string(c.k) +
               " L=" + std::to_string(c.l) + " config=" + std::to_string(config.tile_n) + "/" +
               std::to_string(config.stages) + "/" + std::to_string(config.cluster_m) +
               (config.ping_pong ? " ping-pong" : "") + " seed=" + std::to_string(seed));
  const long long lda = c.k + c.pad, ldb = c.k + c.pad, ldd = c.n + c.pad;
  const long long sa = c.m * lda, sb = c.n * ldb, sd = c.m * ldd;
  const auto a_f = cute_dsl_test::random_vector<float>(sa * c.l, seed);
  const auto b_f = cute_dsl_test::random_vector<float>(sb * c.l, seed + 1);
  const auto c_f = cute_dsl_test::random_vector<float>(sd * c.l, seed + 2);
  std::vector<TA> a(a_f.size()), b(b_f.size());
  std::vector<TD> cin(c_f.size());
  for (size_t i = 0; i < a.size(); ++i) a[i] = TA(a_f[i]);
  for (size_t i = 0; i < b.size(); ++i) b[i] = TA(b_f[i]);
  for (size_t i = 0; i < cin.size(); ++i) cin[i] = TD(c_f[i]);

  DeviceBuffer<TA> da(a.size()), db(b.size());
  DeviceBuffer<TD> dc(cin.size()), dd(cin.size());
  ASSERT_TRUE(da.ok() && db.ok() && dc.ok() && dd.ok());
  CUTE_DSL_TEST_CUDA(da.upload(a));
  CUTE_DSL_TEST_CUDA(db.upload(b));
  CUTE_DSL_TEST_CUDA(dc.upload(cin));
  CUTE_DSL_TEST_CUDA(dd.poison());

  GemmSm90Arguments<TA, TD> args{};
  args.shape = {c.m, c.n, c.k, c.l};
  args.a = da.get(), args.lda = lda, args.batch_stride_a = sa;
  args.b = db.get(), args.ldb = ldb, args.batch_stride_b = sb;
  args.d = dd.get(), args.ldd = ldd, args.batch_stride_d = sd;
  args.c = dc.get(), args.ldc = ldd, args.batch_stride_c = sd;
  args.alpha = c.alpha, args.beta = c.beta;
  ASSERT_EQ(gemm_sm90_unsupported(args), "");
  CUTE_DSL_TEST_CUDA(gemm_sm90(args, nullptr, config));
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<TD> d;
  CUTE_DSL_TEST_CUDA(dd.download(d));

  // Inputs are exactly representable after the conversion above: the reference uses them.
  const double out_eps = sizeof(TD) == 4 ? 1e-6 : (std::is_same_v<TD, __half> ? 1.0 / 1024 : 1.0 / 128);
  int bad = 0;
  for (int batch = 0; batch < c.l; ++batch)
    for (int i = 0; i < c.m; ++i)
      for (int j = 0; j < c.n; ++j) {
        double acc = 0, mag = 0;
        for (int k = 0; k < c.k; ++k) {
          const double x = to_float(a[batch * sa + i * lda + k]) * double(to_float(b[batch * sb + j * ldb + k]));
          acc += x;
          mag += std::fabs(x);
        }
        const double cv = to_float(cin[batch * sd + i * ldd + j]);
        const double ref = c.alpha * acc + c.beta * cv;
        const double got = to_float(d[batch * sd + i * ldd + j]);
        // Tensor-core f32 accumulation (not IEEE round-to-nearest at every add: allow 1e-4 of the
        // sum of magnitudes) + rounding of the output type. A layout bug is off by O(1).
        const double tol = 1e-4 * (std::fabs(c.alpha) * mag + std::fabs(c.beta * cv)) + out_eps * std::fabs(ref) + 1e-6;
        if (!(std::fabs(got - ref) <= tol) && ++bad <= 5)
          ADD_FAILURE() << "D(" << batch << "," << i << "," << j << ") = " << got << ", expected " << ref;
      }
  EXPECT_EQ(bad, 0) << "elements off";
  // Padding columns of D keep their poison: the kernel writes inside M x N only.
  if (c.pad > 0) EXPECT_TRUE(std::isnan(to_float(d[c.n]))) << "wrote past N into the padding";
}

class GemmSm90Variant : public ::testing::TestWithParam<int> {};

TEST_P(GemmSm90Variant, RaggedBf16) {
  CUTE_DSL_REQUIRE_GPU(90);
  const GemmSm90Config config = kGemmSm90Configs[GetParam()];
  run_case<__nv_bfloat16, __nv_bfloat16>({300, 520, 136, 1, 1.f, 0.f}, config);    // partial tiles in M, N, K
  run_case<__nv_bfloat16, __nv_bfloat16>({256, 512, 1024, 1, 1.f, 0.f}, config);   // whole tiles, long K (ring wraps)
  run_case<__nv_bfloat16, float>({130, 70, 8, 2, 0.5f, -1.5f, 8}, config);         // K < one k-block, batches, padding
}

INSTANTIATE_TEST_SUITE_P(AllConfigs, GemmSm90Variant,
                         ::testing::Range(0, int(sizeof(kGemmSm90Configs) / sizeof(kGemmSm90Configs[0]))));

TEST(GemmSm90, HeuristicBf16ToF32AlphaBetaBatched) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_case<__nv_bfloat16, float>({1000, 1030, 520, 3, 0.75f, 0.25f}, {});
}

TEST(GemmSm90, F16InF16Out) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_case<__half, __half>({257, 383, 200, 2, 1.f, 1.f}, {});
}

TEST(GemmSm90, TinyAndManyTiles) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_case<__nv_bfloat16, __nv_bfloat16>({1, 8, 8, 1, 1.f, 0.f}, {});
  // More tiles than SMs: the persistent loop visits several tiles per CTA.
  run_case<__nv_bfloat16, float>({2048, 2304, 64, 1, 1.f, 0.f}, {256, 4, 2});
  run_case<__nv_bfloat16, float>({2048, 2304, 64, 1, 1.f, 0.f}, {64, 8, 1});
}

TEST(GemmSm90, ManyTilesPerCtaAndMoreKBlocksThanStages) {
  CUTE_DSL_REQUIRE_GPU(90);
  // 200 cluster tiles of 256 x 128 (3-4 per cluster on 132 SMs), 7 k-blocks per tile (> 6 stages):
  // ping-pong's alternating K loops and the ring's phases across tiles are both exercised.
  run_case<__nv_bfloat16, float>({512, 12800, 392, 1, 1.f, 0.f}, {128, 6, 2, true});
  run_case<__nv_bfloat16, float>({512, 12800, 392, 1, 1.f, 0.f}, {256, 4, 2});
}

TEST(GemmSm90, RejectsWhatTmaCannotLoad) {
  GemmSm90Arguments<__nv_bfloat16, float> args{};
  args.shape = {16, 16, 12, 1};
  args.lda = args.ldb = 12, args.ldd = 16;  // 24-byte rows: not a multiple of 16 bytes
  EXPECT_NE(gemm_sm90_unsupported(args), "");
}

}  // namespace
