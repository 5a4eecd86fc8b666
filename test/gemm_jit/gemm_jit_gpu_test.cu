// The Hopper GEMM compiled by the JIT from run-time choices, on the GPU: every element against a
// host reference in double precision, random data, D poisoned (NaN) before each run; ragged M, N,
// K, batches, padding, alpha/beta, K- and MN-major operands, 64- and 128-row tiles. Then
// autotuning: the winner is stored in the table and a second call reuses it without timing.
// Built by nvcc, so it also checks the JIT's shared-memory size against the kernel's own.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "cute_dsl/jit/gemm_autotune.hpp"
#include "cute_dsl/jit/gemm_epilogue.hpp"
#include "cute_dsl/jit/gemm_sm90.hpp"
#include "cute_dsl/kernels/gemm_sm90.hpp"

#include <cmath>
#include <filesystem>
#include <string>
#include <type_traits>
#include <vector>

#include "gemm_reference.hpp"
#include "gpu_test.cuh"

namespace {

namespace jit = cute_dsl::jit;
namespace impl = cute_dsl::kernels::gemm_sm90_impl;
using cute_dsl_test::DeviceBuffer;

// The configs these tests name, as the autotuner builds them.
using jit::gemm_sm90_config;

template <class T> constexpr jit::ElementType element_type() {
  if constexpr (std::is_same_v<T, __nv_bfloat16>) return jit::ElementType::bf16;
  else if constexpr (std::is_same_v<T, __half>) return jit::ElementType::f16;
  else return jit::ElementType::f32;
}

struct Case {
  int m, n, k, l;
  float alpha = 1.f, beta = 0.f;
  int pad = 0;  // extra elements per row/column of A, B, C, D
  jit::GemmMajor major_a = jit::GemmMajor::k, major_b = jit::GemmMajor::k;
};

// Buffers for one case on the GPU, the host copies, and the reference check.
template <class TA, class TD>
struct Problem {
  Case c;
  long long lda, ldb, ldd, sa, sb, sd;
  std::vector<TA> a, b;
  std::vector<TD> cin;
  DeviceBuffer<TA> da, db;
  DeviceBuffer<TD> dc, dd;

  static long long rows_of(jit::GemmMajor m, int rows, int k) { return m == jit::GemmMajor::k ? rows : k; }
  static long long ld_of(jit::GemmMajor m, int rows, int k, int pad) { return (m == jit::GemmMajor::k ? k : rows) + pad; }

  Problem(const Case& cs, std::uint32_t seed)
      : c(cs), lda(ld_of(cs.major_a, cs.m, cs.k, cs.pad)), ldb(ld_of(cs.major_b, cs.n, cs.k, cs.pad)), ldd(cs.n + cs.pad),
        sa(rows_of(cs.major_a, cs.m, cs.k) * lda), sb(rows_of(cs.major_b, cs.n, cs.k) * ldb), sd(cs.m * ldd),
        a(sa * cs.l), b(sb * cs.l), cin(sd * cs.l), da(a.size()), db(b.size()), dc(cin.size()), dd(cin.size()) {
    const auto af = cute_dsl_test::random_vector<float>(a.size(), seed);
    const auto bf = cute_dsl_test::random_vector<float>(b.size(), seed + 1);
    const auto cf = cute_dsl_test::random_vector<float>(cin.size(), seed + 2);
    for (size_t i = 0; i < a.size(); ++i) a[i] = TA(af[i]);
    for (size_t i = 0; i < b.size(); ++i) b[i] = TA(bf[i]);
    for (size_t i = 0; i < cin.size(); ++i) cin[i] = TD(cf[i]);
  }

  jit::GemmSm90Types types() const { return {element_type<TA>(), element_type<TD>(), c.major_a, c.major_b}; }

  // Uploads, poisons D; false (with a failure) when the GPU refuses.
  jit::GemmSm90Arguments upload() {
    EXPECT_TRUE(da.ok() && db.ok() && dc.ok() && dd.ok());
    EXPECT_EQ(da.upload(a), cudaSuccess);
    EXPECT_EQ(db.upload(b), cudaSuccess);
    EXPECT_EQ(dc.upload(cin), cudaSuccess);
    EXPECT_EQ(dd.poison(), cudaSuccess);
    jit::GemmSm90Arguments g;
    g.m = c.m, g.n = c.n, g.k = c.k, g.l = c.l;
    g.a = da.get(), g.lda = lda, g.batch_stride_a = sa;
    g.b = db.get(), g.ldb = ldb, g.batch_stride_b = sb;
    g.d = dd.get(), g.ldd = ldd, g.batch_stride_d = sd;
    g.c = dc.get(), g.ldc = ldd, g.batch_stride_c = sd;
    g.alpha = c.alpha, g.beta = c.beta;
    return g;
  }

  TA at_a(int batch, int i, int k) const {
    return a[batch * sa + (c.major_a == jit::GemmMajor::k ? i * lda + k : k * lda + i)];
  }
  TA at_b(int batch, int j, int k) const {
    return b[batch * sb + (c.major_b == jit::GemmMajor::k ? j * ldb + k : k * ldb + j)];
  }

  void check() {
    std::vector<TD> d;
    ASSERT_EQ(dd.download(d), cudaSuccess);
    const cute_dsl_test::GemmCheck check{c.m, c.n, c.k, c.l, c.alpha, c.beta,
                                         cute_dsl_test::gemm_output_eps(sizeof(TD), std::is_same_v<TD, __half>)};
    cute_dsl_test::check_gemm_against_reference(
        check, [&](int batch, int i, int k) { return double(float(at_a(batch, i, k))); },
        [&](int batch, int j, int k) { return double(float(at_b(batch, j, k))); },
        [&](int batch, int i, int j) { return double(float(cin[batch * sd + i * ldd + j])); },
        [&](int batch, int i, int j) { return double(float(d[batch * sd + i * ldd + j])); });
    if (c.pad > 0) EXPECT_TRUE(std::isnan(float(d[c.n]))) << "wrote past N into the padding";
  }
};

template <class TA, class TD>
void run_case(const Case& c, const jit::GemmSm90Config& cfg) {
  const std::uint32_t seed = cute_dsl_test::test_seed();
  SCOPED_TRACE("M=" + std::to_string(c.m) + " N=" + std::to_string(c.n) + " K=" + std::to_string(c.k) + " L=" +
               std::to_string(c.l) + " config " + jit::to_string(cfg) + " seed=" + std::to_string(seed));
  Problem<TA, TD> p(c, seed);
  const jit::GemmSm90Arguments args = p.upload();
  ASSERT_EQ(jit::gemm_sm90_unsupported(p.types(), args), "");
  auto gemm = jit::GemmSm90Jit::create(p.types(), cfg);
  ASSERT_TRUE(gemm) << gemm.error().describe();
  auto r = gemm->run(args);
  ASSERT_TRUE(r) << r.error().describe();
  CUTE_DSL_TEST_LAUNCHED();
  p.check();
}

TEST(GemmJitLayout, SharedBytesMatchTheKernel) {  // no GPU needed: nvcc's constants
  EXPECT_EQ(jit::gemm_sm90_shared_bytes(gemm_sm90_config(256, 4, 2)), unsigned(cute_dsl::kernels::gemm_sm90_shared_bytes<__nv_bfloat16, 256, 4, 2>));
  EXPECT_EQ(jit::gemm_sm90_shared_bytes(gemm_sm90_config(128, 6, 1)), unsigned(cute_dsl::kernels::gemm_sm90_shared_bytes<__nv_bfloat16, 128, 6, 1>));
  EXPECT_EQ(jit::gemm_sm90_shared_bytes(gemm_sm90_config(64, 12, 1, false, 64)),
            unsigned(cute_dsl::kernels::gemm_sm90_shared_bytes<__nv_bfloat16, 64, 12, 1, false, cute_dsl::GmmaMajor::K, cute_dsl::GmmaMajor::K, 64>));
  EXPECT_EQ(jit::gemm_sm90_shared_bytes(gemm_sm90_config(256, 5, 2, true, 64)),
            unsigned(cute_dsl::kernels::gemm_sm90_shared_bytes<__nv_bfloat16, 256, 5, 2, true, cute_dsl::GmmaMajor::K, cute_dsl::GmmaMajor::K, 64>));
  EXPECT_EQ(jit::kGemmSm90Threads, unsigned(impl::kThreads));
}

TEST(GemmJit, RaggedBf16Cluster2) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_case<__nv_bfloat16, __nv_bfloat16>({300, 520, 136, 1}, gemm_sm90_config(256, 4, 2));
  run_case<__nv_bfloat16, __nv_bfloat16>({1000, 1030, 520, 1}, gemm_sm90_config(128, 6, 2));
}

TEST(GemmJit, PingPongBf16ToF32AlphaBetaBatchedPadded) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_case<__nv_bfloat16, float>({130, 70, 8, 2, 0.5f, -1.5f, 8}, gemm_sm90_config(128, 6, 2, true));
}

TEST(GemmJit, F16SkinnyTiles) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_case<__half, __half>({57, 383, 200, 2, 1.f, 1.f}, gemm_sm90_config(128, 8, 1, false, 64));
}

// A 64 x 192 tile: each consumer holds 96 columns, so the second one's start at column 96, not at
// a 64-column block (the staged 16-bit epilogue placed it at 64 before 2026-11-27), and 96 is
// one staged 64-column block plus 32 columns by the direct path.
TEST(GemmJit, SkinnyTilesSplitIntoHalvesOf96Columns) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_case<__nv_bfloat16, __nv_bfloat16>({300, 520, 136, 1, 1.f, 0.5f}, gemm_sm90_config(192, 4, 1, false, 64));
  run_case<__nv_bfloat16, float>({130, 700, 72, 2, 0.5f, -1.5f, 8}, gemm_sm90_config(192, 4, 1, false, 64));
}

// The 64 x 48 tile: each consumer 24 columns (wgmma m64n24), stored by the direct path; ragged
// edges, beta, batches, padding; f32 out.
TEST(GemmJit, NarrowTilesOf48Columns) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_case<__nv_bfloat16, __nv_bfloat16>({300, 520, 136, 1, 1.f, 0.5f}, gemm_sm90_config(48, 14, 1, false, 64));
  run_case<__nv_bfloat16, float>({130, 700, 72, 2, 0.5f, -1.5f, 8}, gemm_sm90_config(48, 14, 1, false, 64));
}

// 64-row ping-pong tiles: each consumer warpgroup a whole 64 x 256 tile (one m64n256 wgmma per
// k-step), clusters of 2 sharing B; ragged edges, beta, batches, padding, an MN-major B.
TEST(GemmJit, PingPong64RowTiles) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_case<__nv_bfloat16, __nv_bfloat16>({300, 520, 136, 1, 1.f, 0.5f}, gemm_sm90_config(256, 5, 2, true, 64));
  run_case<__nv_bfloat16, float>({130, 700, 72, 2, 0.5f, -1.5f, 8}, gemm_sm90_config(256, 5, 1, true, 64));
  Case c{264, 520, 200, 1};
  c.major_b = jit::GemmMajor::mn;
  run_case<__half, __half>(c, gemm_sm90_config(128, 8, 2, true, 64));
}

TEST(GemmJit, MnMajorOperands) {
  CUTE_DSL_REQUIRE_GPU(90);
  Case c{264, 200, 136, 1};  // MN-major leading dimensions M and N: multiples of 8 elements (TMA's 16 bytes)
  c.major_a = jit::GemmMajor::mn;
  run_case<__nv_bfloat16, float>(c, gemm_sm90_config(128, 6, 1));
  c.major_b = jit::GemmMajor::mn;
  run_case<__nv_bfloat16, float>(c, gemm_sm90_config(256, 4, 2));
}

TEST(GemmJit, RejectsBadArgumentsWithoutLaunching) {
  CUTE_DSL_REQUIRE_GPU(90);
  auto gemm = jit::GemmSm90Jit::create({}, gemm_sm90_config(128, 6, 1));
  ASSERT_TRUE(gemm) << gemm.error().describe();
  jit::GemmSm90Arguments args;  // null pointers, zero sizes
  auto r = gemm->run(args);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, jit::JitErrorKind::invalid_option);
}

TEST(GemmJitAutotune, StoresTheWinnerAndReusesIt) {
  CUTE_DSL_REQUIRE_GPU(90);
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("cute_dsl_gemm_autotune_" + std::to_string(cute_dsl_test::test_seed()));
  std::filesystem::create_directories(dir);
  jit::GemmTuneOptions options;
  options.table_path = (dir / "gemm_sm90_autotune.txt").string();
  options.candidates = {gemm_sm90_config(128, 6, 1), gemm_sm90_config(256, 4, 2), gemm_sm90_config(128, 8, 1, false, 64)};
  options.runs = 3;

  Problem<__nv_bfloat16, __nv_bfloat16> p({1000, 1030, 520, 1}, cute_dsl_test::test_seed());
  const jit::GemmSm90Arguments args = p.upload();
  auto first = jit::autotune_gemm_sm90(p.types(), args, options);
  ASSERT_TRUE(first) << first.error().describe();
  EXPECT_FALSE(first->from_table);
  EXPECT_EQ(first->timings.size(), 3u);
  EXPECT_EQ(first->table_path, options.table_path);
  const jit::GemmTuningTable table = jit::GemmTuningTable::load(options.table_path);
  ASSERT_NE(table.find(first->key), nullptr) << "the winner was not stored under " << first->key;
  EXPECT_EQ(table.find(first->key)->config, first->gemm.config());

  // Another shape of the same class: the stored winner, nothing timed.
  Problem<__nv_bfloat16, __nv_bfloat16> q({900, 1100, 600, 1}, cute_dsl_test::test_seed() + 7);
  const jit::GemmSm90Arguments qargs = q.upload();
  auto second = jit::autotune_gemm_sm90(q.types(), qargs, options);
  ASSERT_TRUE(second) << second.error().describe();
  EXPECT_TRUE(second->from_table);
  EXPECT_TRUE(second->timings.empty());
  EXPECT_EQ(second->key, first->key);
  EXPECT_EQ(second->gemm.config(), first->gemm.config());
  ASSERT_TRUE(second->gemm.run(qargs));
  CUTE_DSL_TEST_LAUNCHED();
  q.check();
  std::filesystem::remove_all(dir);
}

// An epilogue program through the JIT (gemm_epilogue.hpp): generated, compiled, launched; D, the
// stored pre-activation and the per-row abs-max against the language's host reference applied to
// a double-precision product. Ragged M and N, bf16 in and out, f32 bias and stores.
// The fused kernel of `program` in `cfg`, compiled and loaded (f32 inputs and stores).
jit::Expected<jit::LoadedKernel, jit::JitError> load_epilogue(const jit::GemmSm90Types& types, const jit::GemmSm90Config& cfg,
                                                              const jit::epilogue::Program& program) {
  auto spec = jit::gemm_sm90_epilogue_spec(types, cfg, program, jit::ElementType::f32);
  if (!spec) return jit::unexpected(spec.error());
  auto compiled = jit::compile(*spec);
  if (!compiled) return jit::unexpected(compiled.error());
  return jit::load(**compiled);
}

// In the cooperative 128 x 128 tile and in 64 x 256 ping-pong tiles (clusters of 2); ragged by
// default, or whole tiles (for configs compiled without edge tiles).
void check_bias_gelu_store_row_absmax(const jit::GemmSm90Config& cfg, int m_ = 300, int n_ = 270, int k_ = 136) {
  SCOPED_TRACE("config " + jit::to_string(cfg) + ", " + std::to_string(m_) + " x " + std::to_string(n_) + " x " + std::to_string(k_));
  namespace ep = jit::epilogue;
  auto program = ep::parse_epilogue("let z = alpha * acc + bias[col]; d = gelu(z); store pre = z; row_absmax amax = d");
  ASSERT_TRUE(program) << program.error().message;
  Problem<__nv_bfloat16, __nv_bfloat16> p({m_, n_, k_, 1}, cute_dsl_test::test_seed());
  jit::GemmSm90Arguments args = p.upload();
  args.c = nullptr;  // the program reads no C
  auto loaded = load_epilogue(p.types(), cfg, *program);
  ASSERT_TRUE(loaded) << loaded.error().describe();

  const int m = p.c.m, n = p.c.n;
  const float alpha = 0.5f;
  std::vector<float> bias(n);
  for (int j = 0; j < n; ++j) bias[j] = 0.01f * float(j % 17) - 0.08f;
  DeviceBuffer<float> dbias(n), dpre(std::size_t(m) * n), damax(m);
  ASSERT_EQ(dbias.upload(bias), cudaSuccess);
  ASSERT_EQ(cudaMemset(damax.get(), 0, m * sizeof(float)), cudaSuccess);  // abs-max starts at its identity
  const std::vector<jit::GemmEpilogueBinding> bindings = {
      {"alpha", alpha}, {"bias", 0, dbias.get()}, {"pre", 0, dpre.get(), n}, {"amax", 0, damax.get()}};
  auto r = jit::launch_gemm_sm90_epilogue(*loaded, p.types(), cfg, *program, args, bindings);
  ASSERT_TRUE(r) << r.error().describe();
  CUTE_DSL_TEST_LAUNCHED();

  std::vector<__nv_bfloat16> d;
  std::vector<float> pre, amax;
  ASSERT_EQ(p.dd.download(d), cudaSuccess);
  ASSERT_EQ(dpre.download(pre), cudaSuccess);
  ASSERT_EQ(damax.download(amax), cudaSuccess);
  int bad = 0;
  for (int i = 0; i < m; ++i) {
    double row_amax = 0;
    for (int j = 0; j < n; ++j) {
      double acc = 0;
      for (int k = 0; k < p.c.k; ++k) acc += double(float(p.at_a(0, i, k))) * double(float(p.at_b(0, j, k)));
      ep::HostElement e;
      e.acc = acc, e.row = i, e.col = j;
      e.input = [&](int index, int, int col) { return program->inputs[std::size_t(index)].name == "alpha" ? double(alpha) : double(bias[col]); };
      const double want_d = ep::evaluate(*program, program->outputs[0].root, e);
      const double want_pre = ep::evaluate(*program, program->outputs[1].root, e);
      row_amax = std::max(row_amax, std::fabs(want_d));
      const double got_d = double(float(d[i * p.ldd + j])), got_pre = double(pre[std::size_t(i) * n + j]);
      if (!(std::fabs(got_d - want_d) <= 1e-2 * (1 + std::fabs(want_d))) || !(std::fabs(got_pre - want_pre) <= 1e-3 * (1 + std::fabs(want_pre))))
        if (++bad <= 5) ADD_FAILURE() << "(" << i << ", " << j << "): d " << got_d << " vs " << want_d << ", pre " << got_pre << " vs " << want_pre;
    }
    if (!(std::fabs(amax[i] - row_amax) <= 1e-2 * (1 + row_amax)) && ++bad <= 5)
      ADD_FAILURE() << "row " << i << ": abs-max " << amax[i] << " vs " << row_amax;
  }
  EXPECT_EQ(bad, 0);
}

TEST(GemmEpilogueJit, BiasGeluStoreAndRowAbsMaxMatchTheHostReference) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_bias_gelu_store_row_absmax(gemm_sm90_config(128, 6, 1));
  check_bias_gelu_store_row_absmax(gemm_sm90_config(256, 5, 2, true, 64));
}

// Compiled without edge tiles: right on whole tiles (several tile rows and columns, K ragged),
// and a launch on a ragged shape is refused with the rule before it runs.
TEST(GemmEpilogueJit, WholeTileKernelsMatchTheReferenceAndRefuseRaggedShapes) {
  CUTE_DSL_REQUIRE_GPU(90);
  jit::GemmSm90Config coop = gemm_sm90_config(128, 6, 1), pp = gemm_sm90_config(256, 5, 2, true, 64);
  coop.edge_tiles = pp.edge_tiles = false;
  check_bias_gelu_store_row_absmax(coop, 256, 384, 136);
  check_bias_gelu_store_row_absmax(pp, 256, 512, 200);

  auto program = jit::epilogue::parse_epilogue("d = acc + bias[col]");
  ASSERT_TRUE(program) << program.error().message;
  Problem<__nv_bfloat16, __nv_bfloat16> p({256, 200, 64, 1}, cute_dsl_test::test_seed());  // N off 128
  jit::GemmSm90Arguments args = p.upload();
  auto loaded = load_epilogue(p.types(), coop, *program);
  ASSERT_TRUE(loaded) << loaded.error().describe();
  DeviceBuffer<float> dbias(200);
  auto r = jit::launch_gemm_sm90_epilogue(*loaded, p.types(), coop, *program, args, {{"bias", 0, dbias.get()}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, jit::JitErrorKind::invalid_option);
  EXPECT_NE(r.error().message.find("without edge tiles"), std::string::npos) << r.error().message;
}

}  // namespace
