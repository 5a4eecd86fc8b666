// The elementwise rows of `cute-dsl demo`: copy (16-byte vectors and the TMA bulk copy), add,
// axpby, GELU (tanhf and tanh.approx) and the 16-byte transpose, all with the library's defaults
// (elementwise_defaults.hpp) (f32, add also bf16: the dtype is a run-time choice of the JIT), each
// JIT-compiled from include/cute_dsl/kernels/, checked element by element against the same
// functor on the host, timed (CUDA events, L2 flushed, median) against cudaMemcpy device-to-device
// of the same bytes, the bandwidth anchor (docs/design/kernels.md).
#include "demo.hpp"
#include "demo_support.hpp"

#include "cute_dsl/kernels/elementwise_launch.hpp"
#include "cute_dsl/kernels/elementwise_ops.hpp"
#include "cuda_timer.hpp"  // bench/support: events, L2 flush, medians

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace cute_dsl::tools::demo {

namespace {

namespace ck = cute_dsl::kernels;
namespace cb = cute_dsl_bench;

// The library's defaults (elementwise_defaults.hpp): 16-byte vectors, 256 threads, one vector per
// thread, plain accesses, a one-trip grid. The JIT names every template argument, so the rows'
// argument strings below spell out the same numbers.
constexpr int kThreads = ck::kElementwiseThreads;

template <class T> constexpr double epsilon() { return sizeof(T) == 4 ? 1.0 / (1 << 23) : 1.0 / (1 << 7); }  // f32, bf16

std::string mebi(long long bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// The GB/s of cudaMemcpy D2D moving `bytes` (read + written = 2x the copied bytes).
double memcpy_rate(void* dst, const void* src, long long bytes_copied, int runs, cb::L2Flusher& flusher) {
  auto s = cb::time_runs([&](cudaStream_t st) { cudaMemcpyAsync(dst, src, bytes_copied, cudaMemcpyDeviceToDevice, st); },
                         runs, &flusher);
  return cb::gb_per_s(2.0 * bytes_copied, s.median_ms());
}

// Compares `got` with `want` within tol * epsilon(T) * max(1, |want|); describes the first miss.
template <class T>
bool check_all(const std::vector<T>& got, const std::vector<T>& want, double tol, std::string& text) {
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double g = static_cast<float>(got[i]), w = static_cast<float>(want[i]);
    if (std::isnan(g) || std::fabs(g - w) > tol * epsilon<T>() * std::fmax(1.0, std::fabs(w))) {
      text = "element " + std::to_string(i) + ": got " + std::to_string(g) + ", want " + std::to_string(w);
      return false;
    }
  }
  text = "all " + std::to_string(want.size()) + " elements";
  return true;
}

// Elementwise kernel with `Arity` inputs and functor `op`: run once (output poisoned), check, time.
// PassOp = false for the copy kernels, which have no functor parameter. grid == 0: the default
// one-trip grid of kThreads-thread blocks; else `grid` blocks of `block` threads.
template <class T, int Arity, class Op, bool PassOp = true>
Measurement run_elementwise(jit::LoadedKernel& kernel, const GpuContext& gpu, Op op,
                            double tol, std::string& error, unsigned grid = 0, unsigned block = kThreads) {
  Measurement m;
  const long long n = gpu.elements;
  const long long bytes = n * static_cast<long long>(sizeof(T));
  m.size = mebi(bytes) + " per buffer";
  m.unit = "GB/s";
  m.reference = "cudaMemcpy D2D";
  const auto a = random_values<T>(n, 1), b = random_values<T>(Arity == 2 ? n : 0, 2);
  DeviceBuffer<T> da(n, error), db(Arity == 2 ? n : 1, error), dout(n, error);
  if (!error.empty()) return m;
  if (cudaMemcpy(da.p, a.data(), bytes, cudaMemcpyHostToDevice) != cudaSuccess ||
      (Arity == 2 && cudaMemcpy(db.p, b.data(), bytes, cudaMemcpyHostToDevice) != cudaSuccess) ||
      cudaMemset(dout.p, 0xFF, bytes) != cudaSuccess) {  // NaN: a skipped element cannot pass
    error = "uploading the inputs failed: " + std::string(cudaGetErrorString(cudaGetLastError()));
    return m;
  }

  const ck::ElementwiseShape shape{ck::kElementwiseVector<T>, kThreads, ck::kElementwiseUnroll};
  jit::LaunchConfig config;
  config.grid.x = grid ? grid : static_cast<unsigned>(ck::elementwise_onetrip_grid(n, shape));
  config.block.x = block;
  auto launch = [&](cudaStream_t stream) {
    config.stream = stream;
    const T* pa = da.p;
    const T* pb = db.p;
    jit::Expected<jit::Ok, jit::JitError> r = jit::Ok{};
    if constexpr (!PassOp) r = jit::launch(kernel, config, dout.p, pa, n);
    else if constexpr (Arity == 1) r = jit::launch(kernel, config, dout.p, pa, n, op);
    else r = jit::launch(kernel, config, dout.p, pa, pb, n, op);
    if (!r) error = r.error().describe();
  };
  launch(nullptr);
  if (cudaDeviceSynchronize() != cudaSuccess) error = "the kernel failed: " + std::string(cudaGetErrorString(cudaGetLastError()));
  if (!error.empty()) return m;

  std::vector<T> got(static_cast<std::size_t>(n)), want(static_cast<std::size_t>(n));
  if (cudaMemcpy(got.data(), dout.p, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) {
    error = "downloading the result failed: " + std::string(cudaGetErrorString(cudaGetLastError()));
    return m;
  }
  for (long long i = 0; i < n; ++i) {
    if constexpr (Arity == 1) want[i] = op(a[i]);
    else want[i] = op(a[i], b[i]);
  }
  m.correct = check_all(got, want, tol, m.check);

  cb::L2Flusher flusher;
  const auto s = cb::time_runs(launch, gpu.runs, &flusher);
  m.ms = s.median_ms();
  m.rate = cb::gb_per_s((Arity + 1.0) * bytes, m.ms);
  m.reference_rate = memcpy_rate(dout.p, da.p, bytes, gpu.runs, flusher);
  return m;
}

// A transpose kernel of tile_rows x tile_cols tiles with `threads` threads per block.
Measurement run_transpose(jit::LoadedKernel& kernel, const GpuContext& gpu, int tile_rows, int tile_cols, int threads,
                          std::string& error) {
  Measurement m;
  long long rows = 1;
  while (rows * rows * 4 <= gpu.elements) rows *= 2;  // square, or twice as wide as tall
  const long long cols = gpu.elements / rows, n = rows * cols;
  m.size = std::to_string(rows) + " x " + std::to_string(cols);
  m.unit = "GB/s";
  m.reference = "cudaMemcpy D2D";
  const auto in = random_values<float>(n, 4);
  DeviceBuffer<float> din(n, error), dout(n, error);
  if (!error.empty()) return m;
  cudaMemcpy(din.p, in.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemset(dout.p, 0xFF, n * 4);
  jit::LaunchConfig config;
  config.grid.x = static_cast<unsigned>(ck::transpose_grid(rows, cols, tile_rows, tile_cols));
  config.block.x = static_cast<unsigned>(threads);
  auto launch = [&](cudaStream_t stream) {
    config.stream = stream;
    const float* pin = din.p;
    if (auto r = jit::launch(kernel, config, dout.p, pin, rows, cols); !r) error = r.error().describe();
  };
  launch(nullptr);
  if (cudaDeviceSynchronize() != cudaSuccess) error = "the kernel failed";
  if (!error.empty()) return m;
  std::vector<float> got(static_cast<std::size_t>(n)), want(static_cast<std::size_t>(n));
  cudaMemcpy(got.data(), dout.p, n * 4, cudaMemcpyDeviceToHost);
  for (long long r = 0; r < rows; ++r)
    for (long long c = 0; c < cols; ++c) want[c * rows + r] = in[r * cols + c];
  m.correct = check_all(got, want, 0, m.check);
  cb::L2Flusher flusher;
  m.ms = cb::time_runs(launch, gpu.runs, &flusher).median_ms();
  m.rate = cb::gb_per_s(2.0 * n * 4, m.ms);
  m.reference_rate = memcpy_rate(dout.p, din.p, n * 4, gpu.runs, flusher);
  return m;
}

jit::KernelSpec spec(const char* header, const char* kernel, const char* targs) {
  jit::KernelSpec s;
  s.header = header;  // a library header: embedded in the JIT, no include path needed
  s.kernel = kernel;
  s.template_args = jit::parse_template_args(targs).value();
  return s;
}

constexpr const char* kElementwise = "cute_dsl/kernels/elementwise.hpp";

}  // namespace

// The JIT's template-argument text of the default shape for T (vector elements, threads, unroll).
#define CUTE_DSL_DEMO_SHAPE(vec) #vec ", 256, 1"
static_assert(ck::kElementwiseThreads == 256 && ck::kElementwiseUnroll == 1, "update CUTE_DSL_DEMO_SHAPE");
static_assert(ck::kTransposeVec4TileRows == 128 && ck::kTransposeVec4TileCols == 64 && ck::kTransposeVec4Threads == 256,
              "update the transpose row");

std::vector<Entry> elementwise_entries() {
  std::vector<Entry> e;
  e.push_back({"copy f32", spec(kElementwise, "cute_dsl::kernels::copy_kernel", "f32, " CUTE_DSL_DEMO_SHAPE(4)),
               [](jit::LoadedKernel& k, const jit::ResourceUsage&, const GpuContext& g, std::string& err) {
                 return run_elementwise<float, 1, ck::Identity, false>(k, g, ck::Identity{}, 0, err);
               }});
  e.push_back({"add f32", spec(kElementwise, "cute_dsl::kernels::elementwise_binary_kernel",
                               "f32, type:cute_dsl::kernels::Add, " CUTE_DSL_DEMO_SHAPE(4)),
               [](jit::LoadedKernel& k, const jit::ResourceUsage&, const GpuContext& g, std::string& err) {
                 return run_elementwise<float, 2>(k, g, ck::Add{}, 0, err);
               }});
  e.push_back({"add bf16", spec(kElementwise, "cute_dsl::kernels::elementwise_binary_kernel",
                                "bf16, type:cute_dsl::kernels::Add, " CUTE_DSL_DEMO_SHAPE(8)),
               [](jit::LoadedKernel& k, const jit::ResourceUsage&, const GpuContext& g, std::string& err) {
                 return run_elementwise<__nv_bfloat16, 2>(k, g, ck::Add{}, 0, err);
               }});
  e.push_back({"axpby f32 (2a - b/2)", spec(kElementwise, "cute_dsl::kernels::elementwise_binary_kernel",
                                           "f32, type:cute_dsl::kernels::Axpby, " CUTE_DSL_DEMO_SHAPE(4)),
               [](jit::LoadedKernel& k, const jit::ResourceUsage&, const GpuContext& g, std::string& err) {
                 return run_elementwise<float, 2>(k, g, ck::Axpby{2.0f, -0.5f}, 2, err);
               }});
  e.push_back({"gelu f32", spec(kElementwise, "cute_dsl::kernels::elementwise_unary_kernel",
                                "f32, type:cute_dsl::kernels::Gelu, " CUTE_DSL_DEMO_SHAPE(4)),
               [](jit::LoadedKernel& k, const jit::ResourceUsage&, const GpuContext& g, std::string& err) {
                 return run_elementwise<float, 1>(k, g, ck::Gelu{}, 4, err);
               }});
  e.push_back({"gelu f32 tanh.approx", spec(kElementwise, "cute_dsl::kernels::elementwise_unary_kernel",
                                               "f32, type:cute_dsl::kernels::GeluTanhApprox, " CUTE_DSL_DEMO_SHAPE(4)),
               [](jit::LoadedKernel& k, const jit::ResourceUsage&, const GpuContext& g, std::string& err) {
                 // tanh.approx vs the host's tanhf: 1e-3 absolute (|x| < 1), in f32 epsilons.
                 return run_elementwise<float, 1>(k, g, ck::GeluTanhApprox{}, 1e-3 * (1 << 23) + 2, err);
               }});
  e.push_back({"copy f32 TMA bulk",
               spec("cute_dsl/kernels/copy_bulk.hpp", "cute_dsl::kernels::copy_bulk_kernel", "f32, 8192, 4"),
               [](jit::LoadedKernel& k, const jit::ResourceUsage&, const GpuContext& g, std::string& err) {
                 // One 8 KiB chunk per block (blocks_per_sm 0: no residency cap), the measured best.
                 const auto grid = ck::bulk_copy_grid(g.elements * 4, 8192, g.sm_count, 0);
                 return run_elementwise<float, 1, ck::Identity, false>(k, g, ck::Identity{}, 0, err,
                                                                       static_cast<unsigned>(grid), 32);
               }});
  e.push_back({"transpose f32 vec4",
               spec("cute_dsl/kernels/transpose_vectorized.hpp", "cute_dsl::kernels::transpose_vec4_kernel",
                    "f32, 128, 64, 256"),
               [](jit::LoadedKernel& k, const jit::ResourceUsage&, const GpuContext& g, std::string& err) {
                 return run_transpose(k, g, ck::kTransposeVec4TileRows, ck::kTransposeVec4TileCols,
                                      ck::kTransposeVec4Threads, err);
               }});
  return e;
}
#undef CUTE_DSL_DEMO_SHAPE

}  // namespace cute_dsl::tools::demo
