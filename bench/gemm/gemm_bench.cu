// Ours vs cuBLAS, bf16 in, f32 accumulate, bf16 out, D = A * B^T with A (M x K) and B (N x K)
// each K-major or MN-major (BLAS names, column-major D = A * op(B): TN = both K-major, NN = A
// M-major, TT = B N-major, NT = both MN-major). cuBLAS sees row-major D as column-major D^T =
// B * A^T: op T on a K-major B (op N on an N-major one), op N on a K-major A (op T on an M-major).
//
// Each benchmark: one shape, one implementation. Every timed iteration flushes L2 (a 512 MiB
// memset, untimed), then times ONE launch with CUDA events (manual time); 20 iterations per
// repetition. A repetition's TFLOP/s is its total flops over the sum of its 20 event times; with
// --benchmark_repetitions (3 in scripts/device/benchmarks.txt) the reported figure is the median
// of the repetitions. Counters: TFLOP/s and, for ours, the relative Frobenius error against
// cuBLAS's f32 output (see relative_error).
//   gemm_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
//              --benchmark_out=gemm.json --benchmark_out_format=json
#include <benchmark/benchmark.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cute_dsl/kernels/gemm_sm90_launch.hpp>

#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

using bf16 = __nv_bfloat16;

using cute_dsl::GmmaMajor;
constexpr GmmaMajor kK = GmmaMajor::K, kMN = GmmaMajor::MN;

struct Shape {
  int m, n, k;
  GmmaMajor major_a = kK, major_b = kK;
  bool sweep = false;  // also time every compiled variant (cute_dsl_sm90[...]) on this shape
};

const Shape kShapes[] = {
    {1024, 1024, 1024, kK, kK, true}, {2048, 2048, 2048, kK, kK, true}, {4096, 4096, 4096, kK, kK, true},
    {8192, 8192, 8192},               {16384, 16384, 16384},            {8192, 8192, 1024},
    {4096, 4096, 8192},               {16384, 16384, 4096},             {1000, 1030, 520},
    {64, 8192, 8192, kK, kK, true},   {128, 8192, 8192, kK, kK, true},
    // The other operand majors, one shape each (NN, TT, NT).
    {4096, 4096, 4096, kMN, kK},      {4096, 4096, 4096, kK, kMN},      {4096, 4096, 4096, kMN, kMN},
};

const char* major_name(const Shape& s) {
  const bool ak = s.major_a == kK, bk = s.major_b == kK;
  return ak ? (bk ? "TN" : "TT") : (bk ? "NN" : "NT");
}

bool have_gpu() {
  static const bool ok = [] {
    int n = 0;
    bool r = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
    (void)cudaGetLastError();
    return r;
  }();
  return ok;
}

// Uniform [-1, 1) bf16 values, generated on the device (16384^2 operands are 512 MiB each).
__global__ void fill_random(bf16* p, long long n, unsigned seed) {
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n; i += 256ll * gridDim.x) {
    unsigned x = unsigned(i) * 2654435761u ^ seed;
    x ^= x >> 16, x *= 0x7feb352d, x ^= x >> 15, x *= 0x846ca68b, x ^= x >> 16;
    p[i] = __float2bfloat16(float(x >> 8) * (2.f / 16777216.f) - 1.f);
  }
}

struct Workspace {
  Shape s;
  bf16 *a = nullptr, *b = nullptr, *d = nullptr;
  cudaError_t error = cudaSuccess;  // the first failure of the set-up; the benchmark skips on it
  explicit Workspace(Shape shape) : s(shape) {
    const long long na = 1ll * s.m * s.k, nb = 1ll * s.n * s.k, nd = 1ll * s.m * s.n;
    if ((error = cudaMalloc(&a, na * 2)) != cudaSuccess || (error = cudaMalloc(&b, nb * 2)) != cudaSuccess ||
        (error = cudaMalloc(&d, nd * 2)) != cudaSuccess)
      return;
    fill_random<<<1024, 256>>>(a, na, 1);
    fill_random<<<1024, 256>>>(b, nb, 2);
    if ((error = cudaGetLastError()) == cudaSuccess) error = cudaDeviceSynchronize();
  }
  ~Workspace() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(d);
  }
};

// One workspace at a time (the largest shapes need 1.5 GiB).
Workspace& workspace(Shape s) {
  static std::unique_ptr<Workspace> w;
  if (!w || w->s.m != s.m || w->s.n != s.n || w->s.k != s.k || w->s.major_a != s.major_a || w->s.major_b != s.major_b) {
    w.reset();
    w = std::make_unique<Workspace>(s);
  }
  return *w;
}

cublasHandle_t cublas() {
  static cublasHandle_t h = [] {
    cublasHandle_t handle = nullptr;
    return cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS ? handle : nullptr;  // null: run_cublas fails
  }();
  return h;
}

// Leading dimensions of the operands as stored: K-major rows hold K elements, MN-major columns M / N.
long long lda(const Shape& s) { return s.major_a == kK ? s.k : s.m; }
long long ldb(const Shape& s) { return s.major_b == kK ? s.k : s.n; }

cublasStatus_t run_cublas(const Workspace& w, void* d, cudaDataType_t d_type) {
  if (cublas() == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  const float alpha = 1.f, beta = 0.f;
  const cublasOperation_t op_b = w.s.major_b == kK ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_a = w.s.major_a == kK ? CUBLAS_OP_N : CUBLAS_OP_T;
  return cublasGemmEx(cublas(), op_b, op_a, w.s.n, w.s.m, w.s.k, &alpha, w.b, CUDA_R_16BF, int(ldb(w.s)), w.a, CUDA_R_16BF,
               int(lda(w.s)), &beta, d, d_type, w.s.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

cudaError_t run_ours(const Workspace& w, bf16* d, cute_dsl::kernels::GemmSm90Config config = {}) {
  cute_dsl::kernels::GemmSm90Arguments<bf16, bf16> args{};
  args.shape = {w.s.m, w.s.n, w.s.k, 1};
  args.a = w.a, args.lda = lda(w.s);
  args.b = w.b, args.ldb = ldb(w.s);
  args.d = d, args.ldd = w.s.n;
  args.major_a = w.s.major_a, args.major_b = w.s.major_b;
  return cute_dsl::kernels::gemm_sm90(args, nullptr, config);
}

// ||ours - ref||_F / ||ref||_F on this shape's data, ref = cuBLAS with f32 OUTPUT: ours is
// rounded to bf16, so about 2e-3 is expected (against cuBLAS's bf16 output the two can be bit
// identical: both chain the same k16 tensor-core steps in the same order).
double relative_error(const Workspace& w, cute_dsl::kernels::GemmSm90Config config) {
  const long long nd = 1ll * w.s.m * w.s.n;
  float* ref = nullptr;
  if (cudaMalloc(&ref, nd * sizeof(float)) != cudaSuccess) return -1;
  run_cublas(w, ref, CUDA_R_32F);
  cudaMemset(w.d, 0xFF, nd * 2);  // NaN: an element ours leaves unwritten counts as wrong
  run_ours(w, w.d, config);
  cudaDeviceSynchronize();
  std::vector<bf16> x(nd);
  std::vector<float> y(nd);
  cudaMemcpy(x.data(), w.d, nd * 2, cudaMemcpyDeviceToHost);
  cudaMemcpy(y.data(), ref, nd * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(ref);
  double diff = 0, norm = 0;
  for (long long i = 0; i < nd; ++i) {
    const double a = __bfloat162float(x[i]), b = y[i];
    diff += std::isfinite(a) ? (a - b) * (a - b) : 1e300;
    norm += b * b;
  }
  return std::sqrt(diff / norm);
}

void* l2_flush_buffer() {
  static void* p = [] {
    void* q = nullptr;
    cudaMalloc(&q, 512u << 20);
    return q;
  }();
  return p;
}

// Ours with `config` (zero: the heuristic's choice), or cuBLAS.
template <bool Ours>
void BM_gemm(benchmark::State& state, Shape s, cute_dsl::kernels::GemmSm90Config config) {
  if (!have_gpu()) {
    state.SkipWithError("no GPU: run this benchmark on the device tool");
    return;
  }
  Workspace& w = workspace(s);
  if (w.error != cudaSuccess) {
    state.SkipWithError(cudaGetErrorString(w.error));
    return;
  }
  if (Ours) {
    const cudaError_t err = run_ours(w, w.d, config);
    if (err != cudaSuccess) {
      state.SkipWithError(cudaGetErrorString(err));
      return;
    }
    state.counters["rel_err"] = relative_error(w, config);
  } else {
    // warm-up: handle, heuristics and workspace outside the timed loop
    const cublasStatus_t st = run_cublas(w, w.d, CUDA_R_16BF);
    if (st != CUBLAS_STATUS_SUCCESS) {
      state.SkipWithError(cublasGetStatusName(st));
      return;
    }
  }
  cudaDeviceSynchronize();
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  bool failed = false;
  for (auto _ : state) {
    cudaMemsetAsync(l2_flush_buffer(), state.iterations() & 0xFF, 512u << 20);
    cudaEventRecord(start);
    if (Ours) failed |= run_ours(w, w.d, config) != cudaSuccess;
    else failed |= run_cublas(w, w.d, CUDA_R_16BF) != CUBLAS_STATUS_SUCCESS;
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    state.SetIterationTime(ms * 1e-3);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  if (const cudaError_t err = cudaGetLastError(); err != cudaSuccess || failed) {  // a failed launch in the timed loop
    state.SkipWithError(err != cudaSuccess ? cudaGetErrorString(err) : "a timed GEMM call failed");
    return;
  }
  const double flop = 2.0 * s.m * s.n * s.k;
  state.counters["TFLOPs"] = benchmark::Counter(flop * 1e-12 * double(state.iterations()), benchmark::Counter::kIsRate);
}

}  // namespace

// Per shape, cuBLAS then ours (heuristic), named "<impl>/MxNxK" (plus "_NN" etc. for other
// operand majors) so that the two sit side by side; for the sweep shapes also every compiled
// variant, "cute_dsl_sm90[TileNxStagesxClusterM]/..." ("m64" suffix: 64-row tiles, "pp": ping-pong).
int main(int argc, char** argv) {
  using cute_dsl::kernels::GemmSm90Config;
  for (const Shape& s : kShapes) {
    const std::string tn = major_name(s);
    const std::string shape =
        std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) + (tn == "TN" ? "" : "_" + tn);
    std::vector<benchmark::internal::Benchmark*> runs{
        benchmark::RegisterBenchmark(("cublas/" + shape).c_str(), BM_gemm<false>, s, GemmSm90Config{}),
        benchmark::RegisterBenchmark(("cute_dsl_sm90/" + shape).c_str(), BM_gemm<true>, s, GemmSm90Config{})};
    if (s.sweep) {
      for (const GemmSm90Config& c : cute_dsl::kernels::kGemmSm90Configs) {
        const std::string name = "cute_dsl_sm90[" + std::to_string(c.tile_n) + "x" + std::to_string(c.stages) + "x" +
                                 std::to_string(c.cluster_m) + (c.ping_pong ? "pp" : "") +
                                 (c.tile_m == 64 ? "m64" : "") + "]/" + shape;
        runs.push_back(benchmark::RegisterBenchmark(name.c_str(), BM_gemm<true>, s, c));
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
