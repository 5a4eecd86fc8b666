// Fused GEMM epilogues (issue 11) against the plain GEMM, on the same data in one process: the
// library's plain GEMM (nvcc, the heuristic's variant), and through the JIT in that variant the
// epilogue programs below (plain `acc` too, so that NVRTC's code is compared with itself).
// cuBLASLt's epilogues on the same shapes come from PyTorch in the same device run
// (scripts/device/epilogue_cublaslt.py; scripts/device/epilogue.sh runs both and prints the table).
//
//   epilogue_bench [--benchmark_filter=...] [--benchmark_format=json]
//
// bf16 A (M x K) and B (N x K), K-major; bias: N bf16 values (per output column, as a linear
// layer's); D bf16. Timing: L2 flushed before each of 20 launches, CUDA events, median
// (median_us, TFLOPs). Each fused benchmark also times the plain GEMM in turns with it (plain_us:
// the two meet the same clocks; timed apart, first of its shape, the plain GEMM took 564 us at
// 4096 x 11008 x 4096 against 468 in turns on one H200 -- ratios come from these pairs,
// docs/design/epilogue.md "Session 29"). rel_err: the fused D against the unfused computation
// (the plain GEMM's bf16 D, then bias and GELU in f32 on the host), max |difference| / max
// |reference|.
// Without a GPU every benchmark reports SKIPPED and the program exits 0.
#include <cute_dsl/jit/gemm_epilogue.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gemm_problem.cuh"
#include "shape_list.hpp"

namespace {

namespace cb = cute_dsl_bench;
namespace jit = cute_dsl::jit;
using cb::GemmProblem;

struct Shape {
  int m, n, k;
};

// The issue's shapes (cuBLASLt's GELU_BIAS loses 8-16% at the small K ones, shared/anchors.md),
// then shapes no one named: square, LLM layers, few tiles, ragged.
constexpr Shape kShapes[] = {
    {8192, 8192, 8192},   {4096, 11008, 4096}, {8192, 8192, 1024}, {16384, 4096, 512},  {4096, 4096, 4096},
    {2048, 8192, 2048},   {12288, 4096, 1024}, {4096, 14336, 2048}, {1024, 8192, 8192}, {3000, 5000, 1024},
};

struct Epilogue {
  const char* name;
  const char* program;
};
// GELU: the tanh form, cuBLASLt's.
constexpr Epilogue kEpilogues[] = {
    {"acc", "acc"},
    {"bias_gelu", "gelu_tanh(acc + bias[col])"},
    {"bias_gelu_row_absmax", "d = gelu_tanh(acc + bias[col]); row_absmax amax = d"},
    {"bias_gelu_absmax", "d = gelu_tanh(acc + bias[col]); absmax amax = d"},
    // The parts alone: where the fused kernel's time goes.
    {"bias", "acc + bias[col]"},
    {"gelu", "gelu_tanh(acc)"},
    {"scale", "acc * 2"},
};

constexpr int kWarmup = 3;

// kShapes, or the shapes in EPILOGUE_BENCH_SHAPES ("MxNxK,MxNxK,..."; ragged ones time the edge
// path, which only blocks that cross M or N take).
std::vector<Shape> bench_shapes() {
  std::vector<std::array<int, 3>> fallback;
  for (const Shape& s : kShapes) fallback.push_back({s.m, s.n, s.k});
  std::vector<Shape> shapes;
  for (const auto& s : cute_dsl_bench::shapes_from_env("EPILOGUE_BENCH_SHAPES", fallback)) shapes.push_back({s[0], s[1], s[2]});
  return shapes;
}

float gelu_tanh(float x) { return 0.5f * x * (1.f + std::tanh(0.7978845608028654f * (x + 0.044715f * x * x * x))); }

// The variant in environment variable `name` ("tile_m,tile_n,stages,cluster_m") into j; false
// where it is not set.
bool variant_from_env(const char* name, jit::GemmSm90Config& j) {
  const char* v = std::getenv(name);
  if (v == nullptr) return false;
  if (std::sscanf(v, "%d,%d,%d,%d", &j.tile_m, &j.tile_n, &j.stages, &j.cluster_m) != 4) {
    std::fprintf(stderr, "ERROR: %s must be tile_m,tile_n,stages,cluster_m, got '%s'\n", name, v);
    std::exit(1);
  }
  return true;
}

// The heuristic's variant for the shape, as the JIT names it: a fused tree's (no swap-AB, fused).
// EPILOGUE_BENCH_FUSED=tile_m,tile_n,stages,cluster_m: that cooperative variant instead (A/B of
// the heuristic's choice for fused trees).
jit::GemmSm90Config jit_config(const GemmProblem& p) {
  const cute_dsl::kernels::GemmSm90Config c = cute_dsl::kernels::gemm_sm90_resolve(
      {p.m, p.n, p.k, 1}, {.rows_128b_aligned = p.k % 64 == 0, .may_swap_ab = false, .fused = true}, {});
  jit::GemmSm90Config j;
  j.tile_m = c.tile_m, j.tile_n = c.tile_n, j.stages = c.stages, j.cluster_m = c.cluster_m, j.ping_pong = c.ping_pong;
  if (variant_from_env("EPILOGUE_BENCH_FUSED", j)) j.ping_pong = false;
  j.edge_tiles = !jit::gemm_sm90_whole_tiles(j, p.m, p.n);  // the JIT knows the shape: no edge path where none runs
  return j;
}

// One compiled kernel per (variant, program), kept for the run (shapes share variants).
struct Compiled {
  jit::epilogue::Program program;
  std::unique_ptr<jit::LoadedKernel> kernel;
  std::string error;
};
Compiled& compiled(const jit::GemmSm90Config& config, const Epilogue& e) {
  static std::map<std::string, Compiled> cache;
  Compiled& c = cache[jit::to_string(config) + " " + e.program];
  if (c.kernel || !c.error.empty()) return c;
  auto program = jit::epilogue::parse_epilogue(e.program);
  if (!program) return c.error = program.error().message, c;
  c.program = *program;
  auto spec = jit::gemm_sm90_epilogue_spec({jit::ElementType::bf16, jit::ElementType::bf16}, config, c.program, jit::ElementType::bf16);
  if (!spec) return c.error = spec.error().message, c;
  auto built = jit::compile(*spec);
  if (!built) return c.error = built.error().describe(), c;
  auto loaded = jit::load(**built);
  if (!loaded) return c.error = loaded.error().describe(), c;
  c.kernel = std::make_unique<jit::LoadedKernel>(std::move(*loaded));
  return c;
}

// Per-shape vectors: the bias, the abs-max outputs (M floats; reset before each launch).
struct Extras {
  Shape s{};
  void* bias = nullptr;
  float* amax = nullptr;
  explicit Extras(Shape shape) : s(shape) {
    CUTE_DSL_BENCH_CUDA(cudaMalloc(&bias, sizeof(__nv_bfloat16) * s.n));
    CUTE_DSL_BENCH_CUDA(cudaMalloc(&amax, sizeof(float) * s.m));
    CUTE_DSL_BENCH_CUDA(cb::fill_uniform(static_cast<__nv_bfloat16*>(bias), s.n, 7));
  }
  ~Extras() { cudaFree(bias), cudaFree(amax); }
};
Extras& extras(Shape s) {
  static std::unique_ptr<Extras> e;
  if (!e || e->s.m != s.m || e->s.n != s.n) e.reset(), e = std::make_unique<Extras>(s);
  return *e;
}

// max |fused - (gelu_tanh(plain D + bias))| / max |reference|, on the host.
double relative_error(cb::GemmWorkspace& w, Extras& x, void* fused_d) {
  const long long mn = (long long)w.p.m * w.p.n;
  std::vector<__nv_bfloat16> plain(mn), fused(mn), bias(w.p.n);
  CUTE_DSL_BENCH_CUDA(cudaMemcpy(plain.data(), w.d, sizeof(__nv_bfloat16) * mn, cudaMemcpyDeviceToHost));
  CUTE_DSL_BENCH_CUDA(cudaMemcpy(fused.data(), fused_d, sizeof(__nv_bfloat16) * mn, cudaMemcpyDeviceToHost));
  CUTE_DSL_BENCH_CUDA(cudaMemcpy(bias.data(), x.bias, sizeof(__nv_bfloat16) * w.p.n, cudaMemcpyDeviceToHost));
  double err = 0, scale = 0;
  for (long long i = 0; i < mn; ++i) {
    const float want = gelu_tanh(float(plain[i]) + float(bias[i % w.p.n]));
    scale = std::max(scale, double(std::fabs(want)));
    const double e = std::fabs(double(float(fused[i])) - want);
    err = std::isnan(e) ? INFINITY : std::max(err, e);
  }
  return scale > 0 ? err / scale : err;
}

// The library's plain GEMM (nvcc), the heuristic's variant.
void BM_plain(benchmark::State& state, GemmProblem p) {
  if (!cb::gemm_context().missing.empty()) return state.SkipWithError(("SKIPPED: " + cb::gemm_context().missing).c_str());
  cb::GemmWorkspace& w = cb::gemm_workspace(p);
  if (w.error != cudaSuccess) return state.SkipWithError(cudaGetErrorString(w.error));
  bool failed = false;
  cb::time_gemm(state, p, kWarmup, [&](cudaStream_t st) { failed |= cb::run_ours(w, w.d, {}, st) != cudaSuccess; }, [] {});
  if (failed) state.SkipWithError("a timed GEMM call failed");
}

// The ping-pong variant: one consumer warpgroup's epilogue runs while the other's K loop does --
// what hides a costly epilogue at small K. 64 x 256 tiles in 5 stages, clusters of 2 (each
// consumer's wgmma reads shared memory as a cooperative 128 x 256 consumer's); another through
// EPILOGUE_BENCH_PP=tile_m,tile_n,stages,cluster_m (e.g. 128,128,6,2).
jit::GemmSm90Config ping_pong_config(const GemmProblem& p) {
  jit::GemmSm90Config j;
  j.tile_m = 64, j.tile_n = 256, j.stages = 5, j.cluster_m = 2, j.ping_pong = true;
  (void)variant_from_env("EPILOGUE_BENCH_PP", j);
  j.edge_tiles = !jit::gemm_sm90_whole_tiles(j, p.m, p.n);
  return j;
}

// The JIT's fused kernel with epilogue `e`, in the heuristic's variant (or the ping-pong one).
void BM_fused(benchmark::State& state, GemmProblem p, Epilogue e, bool ping_pong) {
  if (!cb::gemm_context().missing.empty()) return state.SkipWithError(("SKIPPED: " + cb::gemm_context().missing).c_str());
  cb::GemmWorkspace& w = cb::gemm_workspace(p);
  if (w.error != cudaSuccess) return state.SkipWithError(cudaGetErrorString(w.error));
  const jit::GemmSm90Config config = ping_pong ? ping_pong_config(p) : jit_config(p);
  Compiled& c = compiled(config, e);
  if (!c.kernel) return state.SkipWithError(c.error.c_str());
  Extras& x = extras({p.m, p.n, p.k});
  void* fused_d = w.c;  // C is not read (beta 0): D of the fused kernel, next to the plain one in w.d
  jit::GemmSm90Arguments args;
  args.m = p.m, args.n = p.n, args.k = p.k;
  args.a = w.a, args.lda = p.lda(), args.batch_stride_a = p.batch_stride_a();
  args.b = w.b, args.ldb = p.ldb(), args.batch_stride_b = p.batch_stride_b();
  args.d = fused_d, args.ldd = p.ldd(), args.batch_stride_d = p.batch_stride_d();
  const std::vector<jit::GemmEpilogueBinding> bindings = {{"bias", 0, x.bias}, {"amax", 0, x.amax}};
  std::vector<jit::GemmEpilogueBinding> used;
  for (const auto& b : bindings)
    for (const auto& f : jit::gemm_epilogue_fields(c.program))
      if (f.name == b.name) used.push_back(b);
  const jit::GemmSm90Types types{jit::ElementType::bf16, jit::ElementType::bf16};
  bool failed = false;
  auto launch = [&](cudaStream_t st) { failed |= !jit::launch_gemm_sm90_epilogue(*c.kernel, types, config, c.program, args, used, st); };
  auto reset = [&] { CUTE_DSL_BENCH_CUDA(cudaMemsetAsync(x.amax, 0, sizeof(float) * p.m)); };  // abs-max's identity
  reset(), launch(nullptr);
  if (failed) return state.SkipWithError("the fused launch failed");
  if (std::string(e.name).rfind("bias_gelu", 0) == 0) {  // the plain GEMM's D, then the unfused epilogue on the host
    if (cb::run_ours(w, w.d, {}) != cudaSuccess) return state.SkipWithError("the plain GEMM failed");
    CUTE_DSL_BENCH_CUDA(cudaDeviceSynchronize());
    state.counters["rel_err"] = relative_error(w, x, fused_d);
  }
  bool plain_failed = false;
  cb::time_gemm_pair(
      state, p, kWarmup, "plain", [&](cudaStream_t st) { plain_failed |= cb::run_ours(w, w.d, {}, st) != cudaSuccess; }, [] {}, launch,
      reset);
  if (failed) state.SkipWithError("a timed fused launch failed");
  if (plain_failed) state.SkipWithError("a timed plain GEMM failed");
  state.SetLabel(jit::to_string(config));
}

}  // namespace

// Per shape: "plain/MxNxK", then "jit_<epilogue>/MxNxK", then "jit_pp_<epilogue>/MxNxK" (ping-pong).
int main(int argc, char** argv) {
  for (const Shape& s : bench_shapes()) {
    GemmProblem p{s.m, s.n, s.k};
    std::vector<benchmark::internal::Benchmark*> runs{benchmark::RegisterBenchmark(("plain/" + p.name()).c_str(), BM_plain, p)};
    for (const Epilogue& e : kEpilogues)
      runs.push_back(benchmark::RegisterBenchmark((std::string("jit_") + e.name + "/" + p.name()).c_str(), BM_fused, p, e, false));
    for (const Epilogue& e : {kEpilogues[0], kEpilogues[1], kEpilogues[2]})
      runs.push_back(benchmark::RegisterBenchmark((std::string("jit_pp_") + e.name + "/" + p.name()).c_str(), BM_fused, p, e, true));
    for (auto* b : runs) b->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(20);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
