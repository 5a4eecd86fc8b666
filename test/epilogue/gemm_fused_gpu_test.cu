// The fused Hopper GEMM (gemm_sm90_fused_variant) on the GPU against the host reference of the
// SAME tree (epilogue/host_reference.hpp) fed with a double-precision A * B^T: bias + GELU with
// the pre-activation stored (aux store), a row abs-max and a column sum (bias gradient) in one
// tree, on ragged shapes and all four operand majors; dReLU from an auxiliary input (backward)
// with its column sum. Every output is poisoned or set to its identity first. Few kernels (5):
// each (tree, majors) pair is one ~10 s ptxas compile. Run under compute-sanitizer too.
#include <cuda_bf16.h>

#include <cute_dsl/epilogue/epilogue.hpp>
#include <cute_dsl/epilogue/host_reference.hpp>
#include <cute_dsl/kernels/gemm_sm90_launch.hpp>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "gpu_test.cuh"

namespace {

namespace ep = cute_dsl::epilogue;
using cute_dsl::GmmaMajor;
using cute_dsl_test::DeviceBuffer;
using TA = __nv_bfloat16;
using TD = float;

struct Problem {
  int m, n, k, l;
};

// Inputs of one GEMM, on host and device; acc(b, r, c) in double.
template <GmmaMajor MajorA, GmmaMajor MajorB>
struct Operands {
  Problem p;
  long long lda, ldb, sa, sb;
  std::vector<TA> a, b;
  std::unique_ptr<DeviceBuffer<TA>> da, db;
  explicit Operands(Problem q, std::uint32_t seed) : p(q) {
    constexpr bool a_k = MajorA == GmmaMajor::K, b_k = MajorB == GmmaMajor::K;
    lda = ((a_k ? p.k : p.m) + 7) / 8 * 8, ldb = ((b_k ? p.k : p.n) + 7) / 8 * 8;  // TMA: 16-byte rows
    sa = (a_k ? p.m : p.k) * lda, sb = (b_k ? p.n : p.k) * ldb;
    const auto af = cute_dsl_test::random_vector<float>(sa * p.l, seed), bf = cute_dsl_test::random_vector<float>(sb * p.l, seed + 1);
    for (float x : af) a.push_back(TA(x));
    for (float x : bf) b.push_back(TA(x));
    da = std::make_unique<DeviceBuffer<TA>>(a.size()), db = std::make_unique<DeviceBuffer<TA>>(b.size());
  }
  double acc(int batch, int i, int j) const {
    constexpr bool a_k = MajorA == GmmaMajor::K, b_k = MajorB == GmmaMajor::K;
    double s = 0;
    for (int kk = 0; kk < p.k; ++kk)
      s += double(float(a[batch * sa + (a_k ? i * lda + kk : kk * lda + i)])) * double(float(b[batch * sb + (b_k ? j * ldb + kk : kk * ldb + j)]));
    return s;
  }
  cute_dsl::kernels::GemmSm90Arguments<TA, TD> args(TD* d, long long ldd) {
    EXPECT_EQ(da->upload(a), cudaSuccess);
    EXPECT_EQ(db->upload(b), cudaSuccess);
    cute_dsl::kernels::GemmSm90Arguments<TA, TD> x{};
    x.shape = {p.m, p.n, p.k, p.l};
    x.a = da->get(), x.lda = lda, x.batch_stride_a = sa;
    x.b = db->get(), x.ldb = ldb, x.batch_stride_b = sb;
    x.d = d, x.ldd = ldd, x.batch_stride_d = p.m * ldd;
    x.major_a = MajorA, x.major_b = MajorB;
    return x;
  }
};

template <class T>
void expect_close(const std::vector<T>& got, const std::vector<double>& want, double tol, const char* what) {
  ASSERT_EQ(got.size(), want.size());
  int bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!(std::abs(double(got[i]) - want[i]) <= tol * (1 + std::abs(want[i]))) && ++bad <= 5)
      ADD_FAILURE() << what << "[" << i << "] = " << double(got[i]) << ", expected " << want[i];
  EXPECT_EQ(bad, 0) << what;
}

// Forward: D = gelu(pre), pre = alpha * acc + bias (stored, column-major), amax[row] = max |D|,
// dsum[col] = sum of D over rows. In the variant TileM x TileN x Stages (cluster 1); `splits` > 1:
// through that variant's launcher asked for split-K (at most that many ranges per tile).
template <GmmaMajor MajorA, GmmaMajor MajorB, int TileN = 128, int Stages = 6, int TileM = 128>
void run_forward(Problem p, int splits = 1) {
  const std::uint32_t seed = cute_dsl_test::test_seed();
  SCOPED_TRACE("M=" + std::to_string(p.m) + " N=" + std::to_string(p.n) + " K=" + std::to_string(p.k) + " L=" + std::to_string(p.l) +
               " seed=" + std::to_string(seed));
  Operands<MajorA, MajorB> ops(p, seed);
  const long long ldd = p.n + 3, ldp = p.m + 1;  // D padded; pre column-major, padded
  const float alpha = 0.5f;
  const auto bias = cute_dsl_test::random_vector<float>(p.n * p.l, seed + 2);
  auto tree = [&](const float* b, float* pre, float* amax, float* dsum) {
    return ep::col_sum(dsum, ep::row_abs_max(amax, ep::gelu(ep::aux_store(pre, ep::col_major(ldp, ldp * p.n), alpha * ep::acc() + ep::col_broadcast(b, p.n))), p.m), p.n);
  };
  DeviceBuffer<float> d_bias(bias.size()), d_d(p.m * ldd * p.l), d_pre(ldp * p.n * p.l), d_amax(p.m * p.l), d_dsum(p.n * p.l);
  CUTE_DSL_TEST_CUDA(d_bias.upload(bias));
  CUTE_DSL_TEST_CUDA(d_d.poison());
  CUTE_DSL_TEST_CUDA(d_pre.poison());
  CUTE_DSL_TEST_CUDA(d_amax.upload(std::vector<float>(p.m * p.l, 0.f)));
  CUTE_DSL_TEST_CUDA(d_dsum.upload(std::vector<float>(p.n * p.l, 0.f)));
  const auto args = ops.args(d_d.get(), ldd);
  if (splits > 1) {  // the variant's launcher itself, asked for split-K (gemm_sm90_fused_variant never splits)
    cute_dsl::kernels::GemmSm90Config config;
    config.tile_n = TileN, config.stages = Stages, config.cluster_m = 1, config.tile_m = TileM, config.splits = splits;
    int sms = 0;
    CUTE_DSL_TEST_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    EXPECT_EQ(cute_dsl::kernels::gemm_sm90_plan_splits({p.m, p.n, p.k, p.l}, config, sms, splits).splits, splits)
        << "the launcher's plan does not split this shape: the test would not run the split path";
    CUTE_DSL_TEST_CUDA((cute_dsl::kernels::detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, TileN, Stages, 1, false, TileM, true>(
        args, nullptr, cute_dsl::kernels::GemmSplitAsk(splits), tree(d_bias.get(), d_pre.get(), d_amax.get(), d_dsum.get()))));
  } else {
    CUTE_DSL_TEST_CUDA((cute_dsl::kernels::gemm_sm90_fused_variant<MajorA, MajorB, TileN, Stages, 1, TileM>(
        args, tree(d_bias.get(), d_pre.get(), d_amax.get(), d_dsum.get()), nullptr)));
  }
  CUTE_DSL_TEST_LAUNCHED();

  std::vector<float> pre_ref(ldp * p.n * p.l, NAN), amax_ref(p.m * p.l, 0.f), dsum_ref(p.n * p.l, 0.f);
  std::vector<double> d_ref(p.m * ldd * p.l, NAN);
  ep::evaluate_host(tree(bias.data(), pre_ref.data(), amax_ref.data(), dsum_ref.data()), p.m, p.n, p.l,
                    [&](int b, int r, int c) { return ops.acc(b, r, c); },
                    [&](int b, int r, int c, double v) { d_ref[(b * p.m + r) * ldd + c] = v; });
  std::vector<float> d, pre, amax, dsum;
  CUTE_DSL_TEST_CUDA(d_d.download(d));
  CUTE_DSL_TEST_CUDA(d_pre.download(pre));
  CUTE_DSL_TEST_CUDA(d_amax.download(amax));
  CUTE_DSL_TEST_CUDA(d_dsum.download(dsum));
  // Padding stays NaN on both sides (NaN == NaN is not "close": compare the written parts only).
  std::vector<float> d_in;
  std::vector<double> d_ref_in;
  for (std::size_t i = 0; i < d.size(); ++i)
    if (i % ldd < std::size_t(p.n)) d_in.push_back(d[i]), d_ref_in.push_back(d_ref[i]);
    else EXPECT_TRUE(std::isnan(d[i])) << "D padding written at " << i;
  expect_close(d_in, d_ref_in, 1e-4, "D");
  std::vector<float> pre_in;
  std::vector<double> pre_ref_in;
  for (std::size_t i = 0; i < pre.size(); ++i)
    if (i % ldp < std::size_t(p.m)) pre_in.push_back(pre[i]), pre_ref_in.push_back(pre_ref[i]);
  expect_close(pre_in, pre_ref_in, 1e-4, "pre-activation");
  expect_close(amax, std::vector<double>(amax_ref.begin(), amax_ref.end()), 1e-4, "row abs-max");
  expect_close(dsum, std::vector<double>(dsum_ref.begin(), dsum_ref.end()), 1e-3, "column sum");
}

class EpilogueFusedGemm : public ::testing::Test {};

TEST(EpilogueFusedGemm, BiasGeluAuxRowAbsMaxColSumTN) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_forward<GmmaMajor::K, GmmaMajor::K>({300, 520, 136, 1});  // partial tiles in M, N, K
  run_forward<GmmaMajor::K, GmmaMajor::K>({37, 53, 24, 2});     // ragged, batched, one tile
}
// The 128 x 192 tile (the heuristic's for N = 1536 and 8192^3): three 64-column blocks per
// consumer row, a ragged last tile column.
TEST(EpilogueFusedGemm, BiasGeluAuxRowAbsMaxColSumTN192Wide) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_forward<GmmaMajor::K, GmmaMajor::K, 192, 4>({300, 520, 136, 1});
  run_forward<GmmaMajor::K, GmmaMajor::K, 192, 4>({260, 400, 200, 2});
}
// The 64 x 48 tile (the heuristic's for 256 x 1536 x 4096): each consumer 24 columns of the same
// 64 rows, so a row's abs-max and a column's sum meet values from both consumers; ragged edges.
TEST(EpilogueFusedGemm, BiasGeluAuxRowAbsMaxColSumTN64x48) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_forward<GmmaMajor::K, GmmaMajor::K, 48, 14, 64>({300, 520, 136, 1});
  run_forward<GmmaMajor::K, GmmaMajor::K, 48, 14, 64>({70, 100, 200, 2});
}
// M and N whole tiles: the launcher takes the form compiled without edge paths
// (gemm_sm90_launch.hpp); every layout and tile above, batched, D's rows still off 16 bytes.
TEST(EpilogueFusedGemm, WholeTilesTakeTheFormWithoutEdgePaths) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_forward<GmmaMajor::K, GmmaMajor::K>({256, 384, 136, 2});
  run_forward<GmmaMajor::K, GmmaMajor::K, 192, 4>({256, 576, 200, 1});
  run_forward<GmmaMajor::K, GmmaMajor::K, 48, 14, 64>({128, 96, 200, 2});
  run_forward<GmmaMajor::MN, GmmaMajor::K>({128, 256, 72, 1});
  run_forward<GmmaMajor::K, GmmaMajor::MN>({256, 128, 64, 1});
  run_forward<GmmaMajor::MN, GmmaMajor::MN>({128, 128, 40, 1});
  // Split K over whole tiles (6 tiles, K = 4096: the launcher's plan splits them 2 ways) and over
  // edge tiles: the last split of each tile runs the tree on the summed partials.
  run_forward<GmmaMajor::K, GmmaMajor::K>({256, 384, 4096, 1}, 2);
  run_forward<GmmaMajor::K, GmmaMajor::K>({200, 300, 4096, 1}, 2);
}
TEST(EpilogueFusedGemm, BiasGeluAuxRowAbsMaxColSumNN) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_forward<GmmaMajor::MN, GmmaMajor::K>({130, 70, 72, 2});
}
TEST(EpilogueFusedGemm, BiasGeluAuxRowAbsMaxColSumTT) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_forward<GmmaMajor::K, GmmaMajor::MN>({130, 200, 64, 1});
}
TEST(EpilogueFusedGemm, BiasGeluAuxRowAbsMaxColSumNT) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_forward<GmmaMajor::MN, GmmaMajor::MN>({257, 136, 40, 1});
}

// Backward: dX = drelu(acc, pre) with pre loaded row-major; dbias = column sum of dX.
TEST(EpilogueFusedGemm, DReluFromAuxWithBiasGradient) {
  CUTE_DSL_REQUIRE_GPU(90);
  const Problem p{201, 333, 96, 1};
  const std::uint32_t seed = cute_dsl_test::test_seed();
  Operands<GmmaMajor::K, GmmaMajor::K> ops(p, seed);
  const auto pre = cute_dsl_test::random_vector<float>(p.m * p.n, seed + 3);
  auto tree = [&](const float* x, float* dbias) { return ep::col_sum(dbias, ep::drelu(ep::acc(), ep::aux_load(x, ep::row_major(p.n)))); };
  DeviceBuffer<float> d_pre(pre.size()), d_d(p.m * p.n), d_dbias(p.n);
  CUTE_DSL_TEST_CUDA(d_pre.upload(pre));
  CUTE_DSL_TEST_CUDA(d_d.poison());
  CUTE_DSL_TEST_CUDA(d_dbias.upload(std::vector<float>(p.n, 0.f)));
  CUTE_DSL_TEST_CUDA((cute_dsl::kernels::gemm_sm90_fused_variant<GmmaMajor::K, GmmaMajor::K, 128, 6, 1>(
      ops.args(d_d.get(), p.n), tree(d_pre.get(), d_dbias.get()), nullptr)));
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<float> dbias_ref(p.n, 0.f);
  std::vector<double> d_ref(p.m * p.n);
  ep::evaluate_host(tree(pre.data(), dbias_ref.data()), p.m, p.n, p.l, [&](int b, int r, int c) { return ops.acc(b, r, c); },
                    [&](int, int r, int c, double v) { d_ref[r * p.n + c] = v; });
  std::vector<float> d, dbias;
  CUTE_DSL_TEST_CUDA(d_d.download(d));
  CUTE_DSL_TEST_CUDA(d_dbias.download(dbias));
  expect_close(d, d_ref, 1e-4, "dX");
  expect_close(dbias, std::vector<double>(dbias_ref.begin(), dbias_ref.end()), 1e-3, "bias gradient");
}

TEST(EpilogueFusedGemm, RefusesBeta) {
  std::vector<TA> a(64), b(64);
  std::vector<float> d(64);
  cute_dsl::kernels::GemmSm90Arguments<TA, TD> args{};
  args.shape = {4, 4, 8, 1};
  args.a = a.data(), args.lda = 8, args.b = b.data(), args.ldb = 8, args.d = d.data(), args.ldd = 4;
  args.beta = 1.f;
  EXPECT_NE(cute_dsl::kernels::gemm_sm90_fused_unsupported(args), "");
}

}  // namespace
