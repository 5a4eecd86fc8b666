// Bandwidth of the elementwise, copy and transpose kernels (include/cute_dsl/kernels/) against
// cudaMemcpy device-to-device and cuBLAS (saxpy, geam), same data, same run. Google Benchmark with
// manual time: each iteration is one run timed with CUDA events after an L2 flush
// (bench/support/cuda_timer.hpp); counters give the median over the iterations.
//
// Sizes are bytes per buffer: 1 MiB .. 2 GiB for the defaults and the references, 256 MiB and
// 2 GiB for the candidates of the sweep. GB/s counts bytes read + written (copy 2x, add 3x), as
// the anchors do (docs/design/kernels.md). Without a GPU every benchmark skips with the reason.
//
// Benchmark names: "<op> <dtype> <variant>", variant = <threads>x<unroll> (vectors per thread per
// trip), the access policy (plain | stream | noalloc: elementwise_access.hpp) and the grid
// (resident: capped at the blocks the GPU holds, grid-stride; onetrip: one block per trip, no
// cap). The library's defaults (elementwise_defaults.hpp) are "<op> <dtype> 256x1 plain onetrip"
// and "transpose f32 vec4 128x64 t256"; bulk <chunk>x<stages> for the TMA copy; transpose vec4 <tile rows>x<tile cols> t<threads>. After the run a
// summary prints each family's GB/s and its ratio to cudaMemcpy D2D of the same buffer size, and
// the best of each op (the candidates for the defaults).
//
//   elementwise_bench --benchmark_out=results.json --benchmark_out_format=json
//   elementwise_bench --benchmark_filter='/(268435456|2147483648)/'   # the sweep sizes only
//   python3 bench/plot.py results.json -o plot.png
#include "cute_dsl/kernels/copy_bulk.hpp"
#include "cute_dsl/kernels/elementwise.hpp"
#include "cute_dsl/kernels/elementwise_launch.hpp"
#include "cute_dsl/kernels/transpose.hpp"
#include "cute_dsl/kernels/transpose_vectorized.hpp"

#include "cublas_ref.hpp"
#include "cuda_timer.hpp"
#include "device_random.cuh"

#include <benchmark/benchmark.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace ck = cute_dsl::kernels;
namespace cb = cute_dsl_bench;

constexpr int kRuns = 20;  // timed runs per size (one per benchmark iteration)

// One device buffer of n elements of T, freed at scope exit.
template <class T>
struct Buffer {
  T* p = nullptr;
  long long n = 0;
  explicit Buffer(long long count, unsigned long long seed = 0) : n(count) {
    CUTE_DSL_BENCH_CUDA(cudaMalloc(&p, static_cast<std::size_t>(n) * sizeof(T)));
    CUTE_DSL_BENCH_CUDA(cb::fill_uniform(p, n, seed));
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { cudaFree(p); }
};

// What every benchmark shares: the flusher, the cuBLAS handle, the SM count.
struct Context {
  std::string missing = cb::gpu_missing_reason();
  cb::GpuInfo gpu;
  cb::L2Flusher* flusher = nullptr;
  cb::Cublas* blas = nullptr;
  Context() {
    if (!missing.empty()) return;
    gpu = cb::gpu_info();
    flusher = new cb::L2Flusher();  // kept for the whole run
    blas = new cb::Cublas();
  }
};
Context& context() {
  static Context c;
  return c;
}

// Runs `enqueue` as the benchmark body and reports the median as time and GB/s.
template <class Enqueue>
void measure(benchmark::State& state, double bytes_moved, Enqueue&& enqueue) {
  Context& ctx = context();
  enqueue(cudaStream_t{});  // warm-up (module load, clocks)
  CUTE_DSL_BENCH_CUDA(cudaDeviceSynchronize());
  cb::Samples samples;
  for (auto _ : state) {
    const double ms = cb::time_once(enqueue, ctx.flusher);
    samples.add_ms(ms);
    state.SetIterationTime(ms * 1e-3);
  }
  state.counters["median_ms"] = samples.median_ms();
  state.counters["GBps"] = cb::gb_per_s(bytes_moved, samples.median_ms());
  state.counters["bytes_moved"] = bytes_moved;
  state.counters["buffer_bytes"] = static_cast<double>(state.range(0));
}

bool skip_without_gpu(benchmark::State& state) {
  if (context().missing.empty()) return false;
  state.SkipWithError(("SKIPPED: " + context().missing).c_str());
  return true;
}

// Grid for an elementwise kernel. Resident: one trip per block, capped at the blocks the GPU
// holds at once (from the occupancy calculator, which knows the kernel's registers), each block
// then loops. OneTrip: no cap, every block does one trip and exits (a non-persistent grid).
// OneTrip is the library's default (elementwise_onetrip_grid).
enum class Grid { Resident, OneTrip };

template <class Kernel>
unsigned grid_for(Kernel kernel, long long n, ck::ElementwiseShape shape, Grid mode) {
  if (mode == Grid::OneTrip) return static_cast<unsigned>(ck::elementwise_onetrip_grid(n, shape));
  int per_sm = 0;
  CUTE_DSL_BENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, shape.threads, 0));
  return static_cast<unsigned>(ck::elementwise_grid(n, shape, context().gpu.sm_count, per_sm));
}

template <class T>
constexpr int kVec = static_cast<int>(16 / sizeof(T));

// ---- copy ---------------------------------------------------------------------------------------

template <class T, int Threads, int Unroll, class Access, Grid Mode>
void BM_Copy(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const long long n = state.range(0) / static_cast<long long>(sizeof(T));
  Buffer<T> in(n, 1), out(n, 2);
  auto kernel = ck::copy_kernel<T, kVec<T>, Threads, Unroll, Access>;
  const unsigned grid = grid_for(kernel, n, {kVec<T>, Threads, Unroll}, Mode);
  measure(state, 2.0 * n * sizeof(T), [&](cudaStream_t s) { kernel<<<grid, Threads, 0, s>>>(out.p, in.p, n); });
}

// The TMA bulk copy (copy_bulk.hpp): resident blocks walking chunks, or one chunk per block.
template <int Chunk, int Stages, Grid Mode>
void BM_CopyBulk(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const long long bytes = state.range(0);
  Buffer<float> in(bytes / 4, 1), out(bytes / 4, 2);
  auto kernel = ck::copy_bulk_kernel<float, Chunk, Stages>;
  int per_sm = 0;
  CUTE_DSL_BENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, 32, 0));
  const unsigned grid = static_cast<unsigned>(
      ck::bulk_copy_grid(bytes, Chunk, context().gpu.sm_count, Mode == Grid::Resident ? per_sm : 0));
  measure(state, 2.0 * bytes, [&](cudaStream_t s) { kernel<<<grid, 32, 0, s>>>(out.p, in.p, bytes / 4); });
}

void BM_Memcpy(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const long long bytes = state.range(0);
  Buffer<float> in(bytes / 4, 1), out(bytes / 4, 2);
  measure(state, 2.0 * bytes, [&](cudaStream_t s) {
    CUTE_DSL_BENCH_CUDA(cudaMemcpyAsync(out.p, in.p, bytes, cudaMemcpyDeviceToDevice, s));
  });
}

// ---- binary: add, axpby ------------------------------------------------------------------------

template <class T, class Op, int Threads, int Unroll, class Access, Grid Mode>
void BM_Binary(benchmark::State& state, Op op) {
  if (skip_without_gpu(state)) return;
  const long long n = state.range(0) / static_cast<long long>(sizeof(T));
  Buffer<T> a(n, 1), b(n, 2), out(n, 3);
  auto kernel = ck::elementwise_binary_kernel<T, Op, kVec<T>, Threads, Unroll, Access>;
  const unsigned grid = grid_for(kernel, n, {kVec<T>, Threads, Unroll}, Mode);
  measure(state, 3.0 * n * sizeof(T),
          [&](cudaStream_t s) { kernel<<<grid, Threads, 0, s>>>(out.p, a.p, b.p, n, op); });
}
template <class T, int Threads, int Unroll, class Access, Grid Mode>
void BM_Add(benchmark::State& state) { BM_Binary<T, ck::Add, Threads, Unroll, Access, Mode>(state, ck::Add{}); }
template <class T, int Threads, int Unroll, class Access, Grid Mode>
void BM_Axpby(benchmark::State& state) {
  BM_Binary<T, ck::Axpby, Threads, Unroll, Access, Mode>(state, ck::Axpby{0.5f, -2.0f});
}

// cuBLAS saxpy: y = a x + y reads 2n and writes n floats, the bytes of an out-of-place add.
void BM_CublasSaxpy(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const long long n = state.range(0) / 4;
  Buffer<float> x(n, 1), y(n, 2);
  cb::Cublas& blas = *context().blas;
  measure(state, 3.0 * n * 4, [&](cudaStream_t s) {
    blas.set_stream(s);
    blas.saxpy(n, 1.0f, x.p, y.p);
  });
}

// cuBLAS geam: out = alpha a + beta b, exactly axpby (as a 1024-column matrix).
void BM_CublasGeamAxpby(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const long long n = state.range(0) / 4;
  const long long cols = 1024;
  Buffer<float> a(n, 1), b(n, 2), out(n, 3);
  cb::Cublas& blas = *context().blas;
  measure(state, 3.0 * n * 4, [&](cudaStream_t s) {
    blas.set_stream(s);
    blas.geam_add(n / cols, cols, 0.5f, a.p, -2.0f, b.p, out.p);
  });
}

// ---- unary activation ---------------------------------------------------------------------------

template <class T, class Op, int Threads, int Unroll, class Access, Grid Mode>
void BM_Unary(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const long long n = state.range(0) / static_cast<long long>(sizeof(T));
  Buffer<T> in(n, 1), out(n, 2);
  auto kernel = ck::elementwise_unary_kernel<T, Op, kVec<T>, Threads, Unroll, Access>;
  const unsigned grid = grid_for(kernel, n, {kVec<T>, Threads, Unroll}, Mode);
  measure(state, 2.0 * n * sizeof(T), [&](cudaStream_t s) { kernel<<<grid, Threads, 0, s>>>(out.p, in.p, n, Op{}); });
}

// ---- transpose ----------------------------------------------------------------------------------

// The matrix for a buffer of n elements (a power of two): square, or twice as wide as tall.
struct Matrix {
  long long rows, cols;
};
Matrix matrix_for(long long n) {
  long long rows = 1;
  while (rows * rows * 4 <= n) rows *= 2;
  return {rows, n / rows};
}

template <class T, int Tile, int Rows>
void BM_Transpose(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const long long n = state.range(0) / static_cast<long long>(sizeof(T));
  const Matrix m = matrix_for(n);
  Buffer<T> in(n, 1), out(n, 2);
  const unsigned grid = static_cast<unsigned>(ck::transpose_grid(m.rows, m.cols, Tile));
  measure(state, 2.0 * n * sizeof(T), [&](cudaStream_t s) {
    ck::transpose_kernel<T, Tile, Rows><<<grid, Tile * Rows, 0, s>>>(out.p, in.p, m.rows, m.cols);
  });
}

template <int TileRows, int TileCols, int Threads>
void BM_TransposeVec4(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const long long n = state.range(0) / 4;
  const Matrix m = matrix_for(n);
  Buffer<float> in(n, 1), out(n, 2);
  const unsigned grid = static_cast<unsigned>(ck::transpose_grid(m.rows, m.cols, TileRows, TileCols));
  measure(state, 2.0 * n * 4, [&](cudaStream_t s) {
    ck::transpose_vec4_kernel<float, TileRows, TileCols, Threads><<<grid, Threads, 0, s>>>(out.p, in.p, m.rows, m.cols);
  });
}

void BM_CublasGeamTranspose(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const long long n = state.range(0) / 4;
  const Matrix m = matrix_for(n);
  Buffer<float> in(n, 1), out(n, 2);
  cb::Cublas& blas = *context().blas;
  measure(state, 2.0 * n * 4, [&](cudaStream_t s) {
    blas.set_stream(s);
    blas.geam_transpose(m.rows, m.cols, in.p, out.p);
  });
}

// 1 MiB .. 2 GiB per buffer: the defaults and the references.
void all_sizes(benchmark::internal::Benchmark* b) {
  for (long long bytes = 1ll << 20; bytes <= (1ll << 30); bytes *= 4) b->Arg(bytes);
  b->Arg(1ll << 31);
  b->UseManualTime()->Iterations(kRuns)->Unit(benchmark::kMicrosecond);
}
// 256 MiB and 2 GiB: the candidates (what the summary compares).
constexpr long long kSummarySizes[] = {1ll << 28, 1ll << 31};
void sweep_sizes(benchmark::internal::Benchmark* b) {
  for (long long bytes : kSummarySizes) b->Arg(bytes);
  b->UseManualTime()->Iterations(kRuns)->Unit(benchmark::kMicrosecond);
}

using f32 = float;
using f16 = __half;
using bf16 = __nv_bfloat16;
using Plain = ck::PlainAccess;
using Stream = ck::StreamingAccess;
constexpr Grid kRes = Grid::Resident, kOne = Grid::OneTrip;

// op, name, benchmark, all sizes (true) or the sweep's two.
struct Entry {
  const char* op;  // the summary's groups: "copy", "add", ...
  const char* name;
  void (*fn)(benchmark::State&);
  bool all;
};
// The defaults (elementwise_defaults.hpp: 256 threads x 1 vector, plain, one-trip grid; transpose
// vec4 128x64 t256) and the references run at every size; the candidates around them at the two
// sweep sizes. Run 7 (bench/results/kernels_2026-11-22.md) retired the cache-hinted variants: one
// stays for the record.
#define CUTE_DSL_ONETRIP_SHAPES(name, fn, T, ...)                                        \
  {#name, #name " " #T " 256x1 plain onetrip", fn<T, __VA_ARGS__ 256, 1, Plain, kOne>, true},  \
  {#name, #name " " #T " 256x2 plain onetrip", fn<T, __VA_ARGS__ 256, 2, Plain, kOne>, false}, \
  {#name, #name " " #T " 512x1 plain onetrip", fn<T, __VA_ARGS__ 512, 1, Plain, kOne>, false}, \
  {#name, #name " " #T " 512x2 plain onetrip", fn<T, __VA_ARGS__ 512, 2, Plain, kOne>, false}
const Entry kEntries[] = {
    // Copy: the anchor, the default and its neighbours, the old default shape, TMA bulk.
    {"copy", "memcpy D2D", BM_Memcpy, true},
    CUTE_DSL_ONETRIP_SHAPES(copy, BM_Copy, f32),
    {"copy", "copy f32 256x4 plain resident", BM_Copy<f32, 256, 4, Plain, kRes>, false},
    {"copy", "copy f32 256x4 stream resident", BM_Copy<f32, 256, 4, Stream, kRes>, false},
    {"copy", "copy f16 256x1 plain onetrip", BM_Copy<f16, 256, 1, Plain, kOne>, false},
    {"copy", "copy bf16 256x1 plain onetrip", BM_Copy<bf16, 256, 1, Plain, kOne>, false},
    {"copy", "copy bulk 8Kx4 onechunk", BM_CopyBulk<8192, 4, kOne>, true},
    {"copy", "copy bulk 8Kx4 resident", BM_CopyBulk<8192, 4, kRes>, false},
    // Add and axpby (3 buffers) vs cuBLAS.
    CUTE_DSL_ONETRIP_SHAPES(add, BM_Add, f32),
    {"add", "add f32 512x2 plain resident", BM_Add<f32, 512, 2, Plain, kRes>, false},
    {"add", "add f16 256x1 plain onetrip", BM_Add<f16, 256, 1, Plain, kOne>, false},
    {"add", "add bf16 256x1 plain onetrip", BM_Add<bf16, 256, 1, Plain, kOne>, false},
    {"add", "cublas saxpy", BM_CublasSaxpy, true},
    CUTE_DSL_ONETRIP_SHAPES(axpby, BM_Axpby, f32),
    {"axpby", "cublas geam axpby", BM_CublasGeamAxpby, true},
    // Activations (2 buffers): GELU (tanhf for f32) vs tanh.approx; SiLU.
    CUTE_DSL_ONETRIP_SHAPES(relu, BM_Unary, f32, ck::Relu,),
    CUTE_DSL_ONETRIP_SHAPES(gelu, BM_Unary, f32, ck::Gelu,),
    CUTE_DSL_ONETRIP_SHAPES(gelu_approx, BM_Unary, f32, ck::GeluTanhApprox,),
    {"gelu", "gelu f32 256x4 plain resident", BM_Unary<f32, ck::Gelu, 256, 4, Plain, kRes>, false},
    // 16-bit activations: the default (fast __expf/__fdividef path) and the accurate one.
    {"gelu", "gelu bf16 256x1 plain onetrip", BM_Unary<bf16, ck::Gelu, 256, 1, Plain, kOne>, false},
    {"gelu", "gelu f16 256x1 plain onetrip", BM_Unary<f16, ck::Gelu, 256, 1, Plain, kOne>, false},
    {"gelu_accurate", "gelu_accurate bf16 256x1 plain onetrip", BM_Unary<bf16, ck::GeluAccurate, 256, 1, Plain, kOne>, false},
    {"gelu_accurate", "gelu_accurate f16 256x1 plain onetrip", BM_Unary<f16, ck::GeluAccurate, 256, 1, Plain, kOne>, false},
    {"gelu_approx", "gelu_approx bf16 256x1 plain onetrip", BM_Unary<bf16, ck::GeluTanhApprox, 256, 1, Plain, kOne>, false},
    CUTE_DSL_ONETRIP_SHAPES(silu, BM_Unary, f32, ck::Silu,),
    {"silu", "silu f16 256x1 plain onetrip", BM_Unary<f16, ck::Silu, 256, 1, Plain, kOne>, false},
    {"silu", "silu bf16 256x1 plain onetrip", BM_Unary<bf16, ck::Silu, 256, 1, Plain, kOne>, false},
    {"silu_accurate", "silu_accurate f16 256x1 plain onetrip", BM_Unary<f16, ck::SiluAccurate, 256, 1, Plain, kOne>, false},
    {"silu_accurate", "silu_accurate bf16 256x1 plain onetrip", BM_Unary<bf16, ck::SiluAccurate, 256, 1, Plain, kOne>, false},
    // Transpose (2 buffers) vs cuBLAS geam: the default tile first.
    {"transpose", "transpose f32 vec4 128x64 t256", BM_TransposeVec4<128, 64, 256>, true},
    {"transpose", "transpose f32 vec4 128x64 t512", BM_TransposeVec4<128, 64, 512>, false},
    {"transpose", "transpose f32 vec4 128x64 t128", BM_TransposeVec4<128, 64, 128>, false},
    {"transpose", "transpose f32 vec4 64x128 t256", BM_TransposeVec4<64, 128, 256>, false},
    {"transpose", "transpose f32 vec4 64x64 t128", BM_TransposeVec4<64, 64, 128>, false},
    {"transpose", "transpose f32 scalar 32x8", BM_Transpose<f32, 32, 8>, false},
    {"transpose", "cublas geam transpose", BM_CublasGeamTranspose, true},
};
#undef CUTE_DSL_ONETRIP_SHAPES

// Google Benchmark renamed Run::error_occurred to Run::skipped (1.8); build with either.
template <class Run>
bool run_did_not_finish(const Run& r) {
  if constexpr (requires { r.error_occurred; }) return r.error_occurred;
  else return static_cast<bool>(r.skipped);
}

// Remembers every run's median GB/s by (name, buffer bytes) for the summary, and prints as usual.
class SummaryReporter : public benchmark::ConsoleReporter {
 public:
  std::map<std::pair<std::string, long long>, double> gbps;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      // "<name>/<bytes>/iterations:20/manual_time"; names may hold '/' themselves.
      const std::string full = r.benchmark_name();
      const auto iters = full.find("/iterations:");
      const auto slash = iters == std::string::npos ? iters : full.rfind('/', iters - 1);
      if (slash == std::string::npos || run_did_not_finish(r)) continue;
      const auto it = r.counters.find("GBps");
      if (it != r.counters.end())
        gbps[{full.substr(0, slash), std::stoll(full.substr(slash + 1, iters - slash - 1))}] =
            static_cast<double>(it->second);
    }
    ConsoleReporter::ReportRuns(runs);
  }
  // name | GB/s and ratio to memcpy per summary size; then the best of each op at each size.
  void print_summary() const {
    std::printf("\n== summary: median GB/s (read + written), x = ratio to memcpy D2D of the same buffer size ==\n");
    std::printf("%-36s", "benchmark");
    for (long long b : kSummarySizes) std::printf("  %10lld MiB     ", b >> 20);
    std::printf("\n");
    std::map<std::string, std::vector<std::pair<double, std::string>>> best;  // op@size -> (x, name)
    for (const Entry& e : kEntries) {
      bool any = false;
      for (long long b : kSummarySizes) any = any || gbps.count({e.name, b});
      if (!any) continue;
      std::printf("%-36s", e.name);
      for (long long b : kSummarySizes) {
        const auto it = gbps.find({e.name, b});
        const auto ref = gbps.find({"memcpy D2D", b});
        if (it == gbps.end()) {
          std::printf("  %19s", "-");
          continue;
        }
        const double x = ref != gbps.end() && ref->second > 0 ? it->second / ref->second : 0;
        std::printf("  %8.0f GB/s %5.3fx", it->second, x);
        if (std::string(e.name).rfind("memcpy", 0) != 0 && std::string(e.name).rfind("cublas", 0) != 0)
          best[std::string(e.op) + " @ " + std::to_string(b >> 20) + " MiB"].push_back({x, e.name});
      }
      std::printf("\n");
    }
    std::printf("\n== best of ours per op and size (ratio to memcpy D2D) ==\n");
    for (auto& [key, v] : best) {
      std::sort(v.begin(), v.end());
      std::printf("%-22s %5.3fx  %s\n", key.c_str(), v.back().first, v.back().second.c_str());
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  for (const Entry& e : kEntries) benchmark::RegisterBenchmark(e.name, e.fn)->Apply(e.all ? all_sizes : sweep_sizes);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const Context& ctx = context();
  if (ctx.missing.empty()) {
    benchmark::AddCustomContext("gpu", ctx.gpu.name);
    benchmark::AddCustomContext("sm_count", std::to_string(ctx.gpu.sm_count));
    benchmark::AddCustomContext("l2_bytes", std::to_string(ctx.gpu.l2_bytes));
    benchmark::AddCustomContext("cuda_driver", std::to_string(ctx.gpu.driver_version));
  } else {
    benchmark::AddCustomContext("gpu", "none: " + ctx.missing);
  }
  SummaryReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.print_summary();
  benchmark::Shutdown();
  return 0;
}
