// Ours vs cuBLAS, bf16 in, f32 accumulate, bf16 out, D = A * B^T with A (M x K) and B (N x K)
// each K-major or MN-major (BLAS names, column-major D = A * op(B): TN = both K-major, NN = A
// M-major, TT = B N-major, NT = both MN-major). cuBLAS sees row-major D as column-major D^T =
// B * A^T: op T on a K-major B (op N on an N-major one), op N on a K-major A (op T on an M-major).
//
// Each benchmark: one shape, one implementation (gemm_problem.cuh, shared with gemm_sweep.cu).
// Every timed iteration flushes L2 (untimed), then times ONE launch with CUDA events (manual
// time); 20 iterations per repetition after 3 untimed ones. A repetition's TFLOP/s is from the
// median of its 20 event times; with --benchmark_repetitions (3 in scripts/device/benchmarks.txt)
// the reported figure is the median of the repetitions. Counters: TFLOPs, median_us and, for
// ours, rel_err, the relative Frobenius error against cuBLAS's f32 output (relative_error).
//   gemm_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
//              --benchmark_out=gemm.json --benchmark_out_format=json
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>
#include <vector>

#include "gemm_problem.cuh"

namespace {

namespace cb = cute_dsl_bench;
using cb::GemmProblem;
using cute_dsl::GmmaMajor;
using cute_dsl::kernels::GemmSm90Config;
constexpr GmmaMajor kK = GmmaMajor::K, kMN = GmmaMajor::MN;

struct Shape {
  int m, n, k;
  GmmaMajor major_a = kK, major_b = kK;
  bool sweep = false;  // also time every compiled variant (cute_dsl_sm90[...]) on this shape
};

const Shape kShapes[] = {
    {1024, 1024, 1024, kK, kK, true}, {2048, 2048, 2048, kK, kK, true}, {4096, 4096, 4096, kK, kK, true},
    {8192, 8192, 8192, kK, kK, true}, {16384, 16384, 16384},            {8192, 8192, 1024, kK, kK, true},
    {4096, 4096, 8192},               {16384, 16384, 4096},             {1000, 1030, 520},
    {64, 8192, 8192, kK, kK, true},   {128, 8192, 8192, kK, kK, true},
    // Wave quantization and narrow N (the heuristic's hard cases), every variant timed.
    {3000, 3000, 3000, kK, kK, true}, {4096, 1536, 4096, kK, kK, true}, {5120, 5120, 5120, kK, kK, true},
    // 3000^3's rows start 16 bytes apart, 3008^3's 128 (a whole swizzle row): TMA's alignment cost.
    {3008, 3008, 3008, kK, kK, true},
    // LLM prefill layers (tokens x N x K) where the cluster and tile choice decide the waves.
    {16384, 4096, 4096, kK, kK, true}, {8192, 12288, 4096, kK, kK, true}, {2048, 1536, 4096, kK, kK, true},
    {2048, 4096, 4096, kK, kK, true},
    // Huge K over few tiles: split-K's ground.
    {1024, 1024, 32768, kK, kK, true},
    // The other operand majors, one shape each (NN, TT, NT).
    {4096, 4096, 4096, kMN, kK},      {4096, 4096, 4096, kK, kMN},      {4096, 4096, 4096, kMN, kMN},
};

// Decode and narrow-N shapes (few tiles: split-K's regime), each also timed in every variant with
// its split capped at 1, 2, 4, 8, 16 and 32 (the launcher takes the model's best split up to the
// cap), to see which split and tile the memory-bound GEMM wants against what the model picks.
const Shape kSplitShapes[] = {{1, 4096, 4096},  {16, 4096, 4096},  {1, 1536, 4096},  {16, 1536, 4096},
                              {128, 1536, 4096}, {256, 1536, 4096}, {1, 28672, 4096}, {64, 4096, 4096}};

constexpr int kWarmup = 3;

// Ours with `config` (zero: the heuristic's choice), or cuBLAS; bf16 in and out, beta 0.
template <bool Ours>
void BM_gemm(benchmark::State& state, GemmProblem p, GemmSm90Config config) {
  if (!cb::gemm_context().missing.empty()) {
    state.SkipWithError(("SKIPPED: " + cb::gemm_context().missing).c_str());
    return;
  }
  cb::GemmWorkspace& w = cb::gemm_workspace(p);
  if (w.error != cudaSuccess) {
    state.SkipWithError(cudaGetErrorString(w.error));
    return;
  }
  bool failed = false;
  if (Ours) {
    if (const cudaError_t err = cb::run_ours(w, w.d, config); err != cudaSuccess) {
      state.SkipWithError(cudaGetErrorString(err));
      return;
    }
    state.counters["rel_err"] = cb::relative_error(w, config);
    cb::time_gemm(state, p, kWarmup, [&](cudaStream_t st) { failed |= cb::run_ours(w, w.d, config, st) != cudaSuccess; }, [] {});
  } else {
    if (const cublasStatus_t st = cb::run_cublas(w); st != CUBLAS_STATUS_SUCCESS) {
      state.SkipWithError(cublasGetStatusName(st));
      return;
    }
    cb::time_gemm(state, p, kWarmup, [&](cudaStream_t st) { failed |= cb::run_cublas(w, st) != CUBLAS_STATUS_SUCCESS; }, [] {});
  }
  if (failed) state.SkipWithError("a timed GEMM call failed");
}

}  // namespace

// Per shape, cuBLAS then ours (heuristic), named "<impl>/MxNxK" (plus "_NN" etc. for other
// operand majors) so that the two sit side by side; for the sweep shapes also every compiled
// variant, "cute_dsl_sm90[TileNxStagesxClusterM]/..." ("m64", "m192" suffixes: 64- and 192-row tiles, "pp": ping-pong, "sw": A and B swapped).
int main(int argc, char** argv) {
  for (const Shape& s : kShapes) {
    GemmProblem p{s.m, s.n, s.k};
    p.major_a = s.major_a, p.major_b = s.major_b;
    const std::string shape = p.name();
    std::vector<benchmark::internal::Benchmark*> runs{
        benchmark::RegisterBenchmark(("cublas/" + shape).c_str(), BM_gemm<false>, p, GemmSm90Config{}),
        benchmark::RegisterBenchmark(("cute_dsl_sm90/" + shape).c_str(), BM_gemm<true>, p, GemmSm90Config{})};
    if (s.sweep) {
      for (const GemmSm90Config& c : cute_dsl::kernels::kGemmSm90Configs) {
        const std::string name = "cute_dsl_sm90[" + std::to_string(c.tile_n) + "x" + std::to_string(c.stages) + "x" +
                                 std::to_string(c.cluster_m) + (c.ping_pong ? "pp" : "") +
                                 (c.tile_m != 128 ? "m" + std::to_string(c.tile_m) : std::string()) + (c.swap_ab ? "sw" : "") + "]/" + shape;
        runs.push_back(benchmark::RegisterBenchmark(name.c_str(), BM_gemm<true>, p, c));
      }
    }
    for (auto* b : runs) b->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(20);
  }
  // GEMM_BENCH_SPLIT_SHAPES="MxNxK,..." adds shapes to kSplitShapes' treatment (ad-hoc probes).
  std::vector<Shape> split_shapes(std::begin(kSplitShapes), std::end(kSplitShapes));
  if (const char* extra = std::getenv("GEMM_BENCH_SPLIT_SHAPES"); extra != nullptr) {
    std::string list = extra;
    for (std::size_t at = 0; at < list.size();) {
      const std::size_t end = list.find(',', at);
      const std::string item = list.substr(at, end == std::string::npos ? std::string::npos : end - at);
      Shape s{};
      if (std::sscanf(item.c_str(), "%dx%dx%d", &s.m, &s.n, &s.k) != 3 || s.m < 1 || s.n < 1 || s.k < 1) {
        std::fprintf(stderr, "ERROR: GEMM_BENCH_SPLIT_SHAPES: '%s' is not MxNxK\n", item.c_str());
        return 1;
      }
      split_shapes.push_back(s);
      if (end == std::string::npos) break;
      at = end + 1;
    }
  }
  for (const Shape& s : split_shapes) {
    GemmProblem p{s.m, s.n, s.k};
    const std::string shape = p.name();
    std::vector<benchmark::internal::Benchmark*> runs{
        benchmark::RegisterBenchmark(("cublas/" + shape).c_str(), BM_gemm<false>, p, GemmSm90Config{}),
        benchmark::RegisterBenchmark(("cute_dsl_sm90/" + shape).c_str(), BM_gemm<true>, p, GemmSm90Config{})};
    for (GemmSm90Config c : cute_dsl::kernels::kGemmSm90Configs) {
      if (c.ping_pong) continue;
      // Swapped decode tiles: the counts between the powers of two too (the plan's choices).
      const std::vector<int> counts = c.swap_ab ? std::vector<int>{1, 2, 3, 4, 5, 6, 8, 11, 16} : std::vector<int>{1, 2, 4, 8, 16, 32};
      for (int splits : counts) {
        c.splits = splits;
        const std::string name = "cute_dsl_sm90[" + std::to_string(c.tile_n) + "x" + std::to_string(c.stages) + "x" +
                                 std::to_string(c.cluster_m) + (c.tile_m != 128 ? "m" + std::to_string(c.tile_m) : std::string()) + (c.swap_ab ? "sw" : "") + "s" +
                                 std::to_string(splits) + "]/" + shape;
        runs.push_back(benchmark::RegisterBenchmark(name.c_str(), BM_gemm<true>, p, c));
      }
    }
    for (auto* b : runs) b->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(20);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
