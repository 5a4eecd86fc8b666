// GPU timing for the benchmarks (bench/kernels, bench/gemm): CUDA events around the measured work
// only, the L2 cache flushed before each run, medians. Host code on the CUDA runtime (cudart);
// compiles with nvcc or a host compiler.
//
//   cute_dsl_bench::L2Flusher flush;                     // a scratch buffer of 2x the L2 size
//   cute_dsl_bench::Samples s;
//   for (...) s.add_ms(cute_dsl_bench::time_once([&](cudaStream_t st) { kernel<<<g, b, 0, st>>>(...); }, &flush));
//   s.median_ms();
//
// Why flush: the H200's 60 MB L2 holds a whole 16 MiB working set, so without a flush small sizes
// would measure L2, not DRAM bandwidth. Why write 2x the L2 size: the L2 is not strictly LRU; twice
// its size evicts what the previous run left. Why a median: one slow run (clock ramp, a neighbour)
// moves a mean, not a median.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace cute_dsl_bench {

// Aborts with the call and CUDA's message: a benchmark that cannot set up must not report numbers.
#define CUTE_DSL_BENCH_CUDA(call)                                                                  \
  do {                                                                                             \
    const cudaError_t cute_dsl_bench_err_ = (call);                                                \
    if (cute_dsl_bench_err_ != cudaSuccess) {                                                      \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                    \
                   cudaGetErrorString(cute_dsl_bench_err_));                                       \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

// Empty when a GPU is usable, else why not (for state.SkipWithError / a printed skip).
inline std::string gpu_missing_reason() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    return std::string("no usable CUDA GPU (") + cudaGetErrorName(err) + ")";
  }
  return {};
}

struct GpuInfo {
  std::string name;
  int sm_count = 0;
  int l2_bytes = 0;
  int driver_version = 0;  // e.g. 13000
  int cc = 0;              // e.g. 90
};

inline GpuInfo gpu_info(int device = 0) {
  GpuInfo g;
  cudaDeviceProp p{};
  CUTE_DSL_BENCH_CUDA(cudaGetDeviceProperties(&p, device));
  g.name = p.name;
  g.sm_count = p.multiProcessorCount;
  g.l2_bytes = p.l2CacheSize;
  g.cc = p.major * 10 + p.minor;
  CUTE_DSL_BENCH_CUDA(cudaDriverGetVersion(&g.driver_version));
  return g;
}

// Owns a scratch buffer of twice the L2 size; flush() overwrites it on `stream`.
class L2Flusher {
 public:
  explicit L2Flusher(int device = 0) {
    int l2 = 0;
    CUTE_DSL_BENCH_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    bytes_ = 2 * static_cast<std::size_t>(std::max(l2, 1 << 20));
    CUTE_DSL_BENCH_CUDA(cudaMalloc(&scratch_, bytes_));
  }
  L2Flusher(const L2Flusher&) = delete;
  L2Flusher& operator=(const L2Flusher&) = delete;
  ~L2Flusher() { cudaFree(scratch_); }
  void flush(cudaStream_t stream = nullptr) {
    // A different byte each time so that no layer can skip an unchanged write.
    CUTE_DSL_BENCH_CUDA(cudaMemsetAsync(scratch_, ++counter_, bytes_, stream));
  }
  std::size_t bytes() const { return bytes_; }

 private:
  void* scratch_ = nullptr;
  std::size_t bytes_ = 0;
  unsigned char counter_ = 0;
};

// Times one run of `enqueue(stream)` with events recorded right around it (after the flush),
// and waits for it. Returns milliseconds.
template <class Enqueue>
double time_once(Enqueue&& enqueue, L2Flusher* flusher, cudaStream_t stream = nullptr) {
  cudaEvent_t start, stop;
  CUTE_DSL_BENCH_CUDA(cudaEventCreate(&start));
  CUTE_DSL_BENCH_CUDA(cudaEventCreate(&stop));
  if (flusher) flusher->flush(stream);
  CUTE_DSL_BENCH_CUDA(cudaEventRecord(start, stream));
  enqueue(stream);
  CUTE_DSL_BENCH_CUDA(cudaGetLastError());
  CUTE_DSL_BENCH_CUDA(cudaEventRecord(stop, stream));
  CUTE_DSL_BENCH_CUDA(cudaEventSynchronize(stop));
  float ms = 0;
  CUTE_DSL_BENCH_CUDA(cudaEventElapsedTime(&ms, start, stop));
  CUTE_DSL_BENCH_CUDA(cudaEventDestroy(start));
  CUTE_DSL_BENCH_CUDA(cudaEventDestroy(stop));
  return ms;
}

// Collected run times (ms) and their order statistics.
class Samples {
 public:
  void add_ms(double ms) { ms_.push_back(ms); }
  bool empty() const { return ms_.empty(); }
  std::size_t size() const { return ms_.size(); }
  double median_ms() const { return quantile(0.5); }
  double min_ms() const { return quantile(0.0); }
  double max_ms() const { return quantile(1.0); }
  // Linear interpolation between order statistics: the median of an even count is the mean of
  // the two middle values.
  double quantile(double q) const {
    if (ms_.empty()) return 0;
    std::vector<double> s = ms_;
    std::sort(s.begin(), s.end());
    const double pos = q * static_cast<double>(s.size() - 1);
    const std::size_t lo = static_cast<std::size_t>(pos);
    const std::size_t hi = std::min(lo + 1, s.size() - 1);
    return s[lo] + (pos - static_cast<double>(lo)) * (s[hi] - s[lo]);
  }

 private:
  std::vector<double> ms_;
};

// Runs `enqueue` once untimed (warm-up: module load, clocks), then `runs` flushed, timed runs.
template <class Enqueue>
Samples time_runs(Enqueue&& enqueue, int runs, L2Flusher* flusher, cudaStream_t stream = nullptr) {
  enqueue(stream);
  CUTE_DSL_BENCH_CUDA(cudaStreamSynchronize(stream));
  Samples s;
  for (int i = 0; i < runs; ++i) s.add_ms(time_once(enqueue, flusher, stream));
  return s;
}

// Bytes per second as GB/s (1e9), the unit the anchors use.
inline double gb_per_s(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e-3) / 1e9 : 0; }

}  // namespace cute_dsl_bench
