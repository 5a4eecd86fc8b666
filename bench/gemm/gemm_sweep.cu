// The public GEMM sweep (issue 10, "How it is judged"): ours (kernels/gemm_sm90_launch.hpp, the
// heuristic's choice) against cuBLAS (cublasGemmEx / cublasGemmStridedBatchedEx, f32 compute) in
// one process, on the same data, over shapes generated from the rules in kRules below: a sample of
// what users run, not shapes anything was tuned on.
//
// Per problem one benchmark, "<group>/<shape>/pair" (shape names: GemmProblem::name, e.g.
// "4096x4096x4096_NN", "2048x2048x256x16", "4096x4096x4096_f16", "4096x4096x4096>f32_beta1",
// "4096x4096x4096_pad3"), timing both libraries in turns (time_gemm_pair in gemm_problem.cuh: a
// library timed after another's whole run meets a card the power cap has slowed): 3 untimed
// warm-up calls of each, then 20 iterations, each flushing L2 (untimed) before ONE call of each,
// timed with CUDA events, the order swapped every iteration. Counters: cublas_us and cublas_TFLOPs,
// ours' median_us and TFLOPs (medians). beta != 0: cuBLAS reads C from D, so C is copied into D
// before each of its calls, untimed. (Sweeps before 2026-11-28 ran "<shape>/cublas" then
// "<shape>/ours" as two benchmarks; summarize.py reads both forms.)
//
// Correctness, per problem (ours only): rel_err = ||D_ours - D_ref||_F / ||D_ref||_F against cuBLAS
// with f32 output on the same inputs (relative_error in gemm_problem.cuh). The benchmark fails
// (SkipWithError "ours: wrong: ...") above the bound for ours' output type:
//   bf16 out 1e-2   (bf16 keeps 8 bits: rounding alone gives ~2e-3)
//   f16 out  5e-3   (11 bits: ~3e-4)
//   f32 out  1e-4   (only the order of f32 accumulation differs: ~1e-6 at K = 4096)
// Where ours refuses a problem (gemm_sm90_unsupported: only what cannot be computed), the
// benchmark reports "ours: unsupported: <the rule>" and the sweep goes on. Operands TMA cannot
// describe (K or a leading dimension not a multiple of 8 elements, pointers off 16 bytes) run
// as the launcher decides: staged into aligned rows, or the copy mainloop (gemm_sm90_stage.hpp).
//
//   gemm_sweep --benchmark_out=sweep.json --benchmark_out_format=json
//   gemm_sweep --benchmark_filter='^llm/'          # one group (square, llm, huge_k, ragged,
//                                                  # unaligned, batched, majors, beta, f16, f32_out)
//   gemm_sweep --benchmark_filter='/8192x8192x8192/'
//   python3 bench/gemm/summarize.py --sweep sweep.json --png sweep.png > sweep.md
// Without a GPU every benchmark reports "SKIPPED: no usable CUDA GPU" and the program exits 0.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#define CUTE_DSL_BENCH_GEMM_MORE_TYPES  // bf16 > f32 and f16 > f16 (TN) besides bf16 > bf16
#include "gemm_problem.cuh"

namespace {

namespace cb = cute_dsl_bench;
using cb::Dtype;
using cb::GemmProblem;
using cute_dsl::GmmaMajor;
constexpr GmmaMajor kK = GmmaMajor::K, kMN = GmmaMajor::MN;

constexpr int kWarmup = 3;
constexpr int kIterations = 20;

double error_bound(Dtype out) { return out == Dtype::bf16 ? 1e-2 : out == Dtype::f16 ? 5e-3 : 1e-4; }

// ---- the rules -----------------------------------------------------------------------------

struct Mnk {
  int m, n, k;
};

// The square sizes: powers of two 256 .. 16384 and a few that are not.
std::vector<int> square_sizes() {
  std::vector<int> s;
  for (int n = 256; n <= 16384; n *= 2) s.push_back(n);
  for (int n : {3000, 5120}) s.push_back(n);
  return s;
}

// LLM layers: tokens M (decode 1 .. 256, prefill 2k .. 16k) against (N, K) of a 4096-wide model:
// QKV / output (4096, 4096), fused QKV with GQA-free heads (12288, 4096), a 14336-wide MLP's
// up+gate (28672, 4096) and down (4096, 14336), and a small projection (1536, 4096).
const int kTokens[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 2048, 4096, 8192, 16384};
const Mnk kLayers[] = {{0, 4096, 4096}, {0, 12288, 4096}, {0, 28672, 4096}, {0, 4096, 14336}, {0, 1536, 4096}};

// One rule: a group name and the problems it generates.
struct Rule {
  const char* group;
  std::vector<GemmProblem> (*problems)();
};

GemmProblem bf16(int m, int n, int k) { return GemmProblem{m, n, k}; }

const Rule kRules[] = {
    {"square",
     [] {
       std::vector<GemmProblem> v;
       for (int n : square_sizes()) v.push_back(bf16(n, n, n));
       return v;
     }},
    {"llm",
     [] {
       std::vector<GemmProblem> v;
       for (const Mnk& layer : kLayers)
         for (int m : kTokens) v.push_back(bf16(m, layer.n, layer.k));
       return v;
     }},
    {"huge_k",  // skinny outputs over a long reduction
     [] { return std::vector<GemmProblem>{bf16(128, 128, 65536), bf16(256, 256, 131072), bf16(1024, 1024, 32768)}; }},
    {"ragged",  // no dimension a multiple of the tile (K=700 is also not a multiple of 8)
     [] { return std::vector<GemmProblem>{bf16(1000, 1030, 520), bf16(3000, 5000, 700), bf16(4095, 4097, 4099)}; }},
    {"unaligned",  // K not a multiple of 8; lda and ldb 3 elements wider than K
     [] {
       GemmProblem padded = bf16(4096, 4096, 4096);
       padded.pad = 3;
       return std::vector<GemmProblem>{bf16(2048, 2048, 777), bf16(4096, 4096, 777), padded};
     }},
    {"batched",  // L problems, batch_stride apart
     [] {
       GemmProblem p = bf16(2048, 2048, 256);
       p.l = 16;
       GemmProblem q = bf16(512, 512, 4096);
       q.l = 8;
       return std::vector<GemmProblem>{p, q};
     }},
    {"majors",  // every operand layout on a few shapes
     [] {
       std::vector<GemmProblem> v;
       for (Mnk s : {Mnk{4096, 4096, 4096}, Mnk{5120, 5120, 5120}, Mnk{2048, 8192, 4096}})
         for (GmmaMajor a : {kK, kMN})
           for (GmmaMajor b : {kK, kMN}) {
             GemmProblem p = bf16(s.m, s.n, s.k);
             p.major_a = a, p.major_b = b;
             v.push_back(p);
           }
       return v;
     }},
    {"beta",  // D = A B^T + C, C of D's shape and type, bf16 and f32 out
     [] {
       std::vector<GemmProblem> v;
       for (Mnk s : {Mnk{4096, 4096, 4096}, Mnk{8192, 8192, 8192}, Mnk{256, 12288, 4096}})
         for (Dtype out : {Dtype::bf16, Dtype::f32}) {
           GemmProblem p = bf16(s.m, s.n, s.k);
           p.out = out, p.beta = 1.f;
           v.push_back(p);
         }
       return v;
     }},
    {"f16",  // fp16 in and out
     [] {
       std::vector<GemmProblem> v;
       for (Mnk s : {Mnk{4096, 4096, 4096}, Mnk{8192, 8192, 8192}, Mnk{16, 4096, 4096}, Mnk{8192, 28672, 4096}}) {
         GemmProblem p = bf16(s.m, s.n, s.k);
         p.in = p.out = Dtype::f16;
         v.push_back(p);
       }
       return v;
     }},
    {"f32_out",  // bf16 in, f32 out
     [] {
       std::vector<GemmProblem> v;
       for (Mnk s : {Mnk{4096, 4096, 4096}, Mnk{8192, 8192, 8192}, Mnk{64, 4096, 4096}, Mnk{4096, 1536, 4096}}) {
         GemmProblem p = bf16(s.m, s.n, s.k);
         p.out = Dtype::f32;
         v.push_back(p);
       }
       return v;
     }},
};

// ---- the benchmarks ------------------------------------------------------------------------

bool skip(benchmark::State& state, const std::string& why) {
  state.SkipWithError(why.c_str());
  return true;
}

// Skips (true) without a GPU, or when the operands cannot be made; else the workspace.
cb::GemmWorkspace* workspace_or_skip(benchmark::State& state, const GemmProblem& p) {
  if (!cb::gemm_context().missing.empty()) return skip(state, "SKIPPED: " + cb::gemm_context().missing), nullptr;
  cb::GemmWorkspace& w = cb::gemm_workspace(p);
  if (w.error != cudaSuccess) return skip(state, std::string("set-up: ") + cudaGetErrorString(w.error)), nullptr;
  return &w;
}

// cuBLAS and ours on one problem, timed in turns (time_gemm_pair: both meet the same clocks).
// Ours is checked first; a problem either library cannot run is skipped with the reason.
void BM_pair(benchmark::State& state, GemmProblem p) {
  cb::GemmWorkspace* ws = workspace_or_skip(state, p);
  if (ws == nullptr) return;
  cb::GemmWorkspace& w = *ws;
  const long long d_bytes = p.batch_stride_d() * p.l * cb::dtype_bytes(p.out);
  auto prepare_cublas = [&] {
    if (p.beta != 0.f) CUTE_DSL_BENCH_CUDA(cudaMemcpyAsync(w.d, w.c, d_bytes, cudaMemcpyDeviceToDevice));
  };
  prepare_cublas();
  if (const cublasStatus_t st = cb::run_cublas(w); st != CUBLAS_STATUS_SUCCESS)
    return (void)skip(state, std::string("cublas: ") + cublasGetStatusName(st));
  if (const std::string why = cb::ours_unsupported(w); !why.empty()) return (void)skip(state, "ours: unsupported: " + why);
  if (const cudaError_t err = cb::run_ours(w, w.d); err != cudaSuccess)
    return (void)skip(state, std::string("ours: ") + cudaGetErrorString(err));
  const double err = cb::relative_error(w);
  state.counters["rel_err"] = err;
  if (!(err >= 0 && err <= error_bound(p.out)))
    return (void)skip(state, "ours: wrong: rel_err " + std::to_string(err) + " above " + std::to_string(error_bound(p.out)) +
                                 " (" + cb::dtype_name(p.out) + " out)");
  bool cublas_failed = false, ours_failed = false;
  cb::time_gemm_pair(
      state, p, kWarmup, "cublas", [&](cudaStream_t s) { cublas_failed |= cb::run_cublas(w, s) != CUBLAS_STATUS_SUCCESS; },
      prepare_cublas, [&](cudaStream_t s) { ours_failed |= cb::run_ours(w, w.d, {}, s) != cudaSuccess; }, [] {});
  if (cublas_failed) skip(state, "cublas: a timed call failed");
  if (ours_failed) skip(state, "ours: a timed call failed");
}

}  // namespace

int main(int argc, char** argv) {
  for (const Rule& rule : kRules)
    for (const GemmProblem& p : rule.problems()) {
      const std::string name = std::string(rule.group) + "/" + p.name() + "/pair";
      benchmark::RegisterBenchmark(name.c_str(), BM_pair, p)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(kIterations);
    }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
