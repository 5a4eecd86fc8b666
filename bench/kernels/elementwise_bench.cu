// Bandwidth of the elementwise, copy and transpose kernels (include/cute_dsl/kernels/) against
// cudaMemcpy device-to-device and cuBLAS (saxpy, geam), same data, same run. Google Benchmark with
// manual time: each iteration is one run timed with CUDA events after an L2 flush
// (bench/support/cuda_timer.hpp); counters give the median over the iterations.
//
// Sizes are bytes per buffer, 1 MiB .. 2 GiB. GB/s counts bytes read + written (copy 2x, add 3x),
// as the anchors do (docs/design/kernels.md). Without a GPU every benchmark skips with the reason.
//
//   elementwise_bench --benchmark_out=results.json --benchmark_out_format=json
//   python3 bench/plot.py results.json -o plot.png
#include "cute_dsl/kernels/elementwise.hpp"
#include "cute_dsl/kernels/elementwise_launch.hpp"
#include "cute_dsl/kernels/transpose.hpp"

#include "cublas_ref.hpp"
#include "cuda_timer.hpp"
#include "device_random.cuh"

#include <benchmark/benchmark.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <string>

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

// Grid for an elementwise kernel: one trip per block, capped at the blocks the GPU holds at once
// (from the occupancy calculator, which knows the kernel's registers).
template <class Kernel>
unsigned grid_for(Kernel kernel, long long n, ck::ElementwiseShape shape) {
  int per_sm = 0;
  CUTE_DSL_BENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, shape.threads, 0));
  return static_cast<unsigned>(ck::elementwise_grid(n, shape, context().gpu.sm_count, per_sm));
}

template <class T>
constexpr int kVec = static_cast<int>(16 / sizeof(T));

// ---- copy ---------------------------------------------------------------------------------------

template <class T, int Threads, int Unroll>
void BM_Copy(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const long long n = state.range(0) / static_cast<long long>(sizeof(T));
  Buffer<T> in(n, 1), out(n, 2);
  auto kernel = ck::copy_kernel<T, kVec<T>, Threads, Unroll>;
  const unsigned grid = grid_for(kernel, n, {kVec<T>, Threads, Unroll});
  measure(state, 2.0 * n * sizeof(T), [&](cudaStream_t s) { kernel<<<grid, Threads, 0, s>>>(out.p, in.p, n); });
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

template <class T, class Op, int Threads, int Unroll>
void BM_Binary(benchmark::State& state, Op op) {
  if (skip_without_gpu(state)) return;
  const long long n = state.range(0) / static_cast<long long>(sizeof(T));
  Buffer<T> a(n, 1), b(n, 2), out(n, 3);
  auto kernel = ck::elementwise_binary_kernel<T, Op, kVec<T>, Threads, Unroll>;
  const unsigned grid = grid_for(kernel, n, {kVec<T>, Threads, Unroll});
  measure(state, 3.0 * n * sizeof(T),
          [&](cudaStream_t s) { kernel<<<grid, Threads, 0, s>>>(out.p, a.p, b.p, n, op); });
}
template <class T, int Threads, int Unroll>
void BM_Add(benchmark::State& state) { BM_Binary<T, ck::Add, Threads, Unroll>(state, ck::Add{}); }
template <class T>
void BM_Axpby(benchmark::State& state) { BM_Binary<T, ck::Axpby, 256, 4>(state, ck::Axpby{0.5f, -2.0f}); }

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

template <class T, class Op>
void BM_Unary(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const long long n = state.range(0) / static_cast<long long>(sizeof(T));
  Buffer<T> in(n, 1), out(n, 2);
  auto kernel = ck::elementwise_unary_kernel<T, Op, kVec<T>, 256, 4>;
  const unsigned grid = grid_for(kernel, n, {kVec<T>, 256, 4});
  measure(state, 2.0 * n * sizeof(T), [&](cudaStream_t s) { kernel<<<grid, 256, 0, s>>>(out.p, in.p, n, Op{}); });
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

// 1 MiB .. 2 GiB per buffer.
void sizes(benchmark::internal::Benchmark* b) {
  for (long long bytes = 1ll << 20; bytes <= (1ll << 30); bytes *= 4) b->Arg(bytes);
  b->Arg(1ll << 31);
  b->UseManualTime()->Iterations(kRuns)->Unit(benchmark::kMicrosecond);
}

}  // namespace

// Copy: ours (with a small sweep of block size and loads in flight) vs cudaMemcpy.
BENCHMARK(BM_Memcpy)->Apply(sizes);
BENCHMARK(BM_Copy<float, 256, 4>)->Apply(sizes);
BENCHMARK(BM_Copy<float, 256, 1>)->Apply(sizes);
BENCHMARK(BM_Copy<float, 256, 2>)->Apply(sizes);
BENCHMARK(BM_Copy<float, 256, 8>)->Apply(sizes);
BENCHMARK(BM_Copy<float, 128, 4>)->Apply(sizes);
BENCHMARK(BM_Copy<float, 512, 4>)->Apply(sizes);
BENCHMARK(BM_Copy<__half, 256, 4>)->Apply(sizes);
// Add and axpby vs cuBLAS.
BENCHMARK(BM_Add<float, 256, 4>)->Apply(sizes);
BENCHMARK(BM_Add<float, 256, 2>)->Apply(sizes);
BENCHMARK(BM_Add<float, 512, 2>)->Apply(sizes);
BENCHMARK(BM_Add<__half, 256, 4>)->Apply(sizes);
BENCHMARK(BM_Add<__nv_bfloat16, 256, 4>)->Apply(sizes);
BENCHMARK(BM_CublasSaxpy)->Apply(sizes);
BENCHMARK(BM_Axpby<float>)->Apply(sizes);
BENCHMARK(BM_CublasGeamAxpby)->Apply(sizes);
// Activations (bandwidth-bound too: GELU's tanh is cheap next to 16 B per 4 elements).
BENCHMARK(BM_Unary<float, ck::Relu>)->Apply(sizes);
BENCHMARK(BM_Unary<__nv_bfloat16, ck::Gelu>)->Apply(sizes);
BENCHMARK(BM_Unary<__half, ck::Silu>)->Apply(sizes);
// Transpose vs cuBLAS geam.
BENCHMARK(BM_Transpose<float, 32, 8>)->Apply(sizes);
BENCHMARK(BM_Transpose<__half, 64, 8>)->Apply(sizes);
BENCHMARK(BM_CublasGeamTranspose)->Apply(sizes);

int main(int argc, char** argv) {
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
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
