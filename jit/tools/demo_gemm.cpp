// The GEMM row of `cute-dsl demo`: the Hopper GEMM (kernels/gemm_sm90.hpp) JIT-compiled from
// run-time choices (jit/gemm_sm90.hpp: bf16 in and out, 128x256x64 tiles, 4 stages, clusters of
// 2), run on random data and checked against cuBLAS at 8192^3 (every element), timed against it
// (CUDA events, L2 flushed, medians). cuBLAS is dlopen'ed when the row runs, so the tool starts
// without it; when it cannot be loaded the row checks a smaller problem against a host reference
// and reports no reference rate.
#include "demo.hpp"
#include "demo_support.hpp"

#include "cute_dsl/jit/gemm_sm90.hpp"
#include "cuda_timer.hpp"  // bench/support: events, L2 flush, medians

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

namespace cute_dsl::tools::demo {

namespace {

namespace cb = cute_dsl_bench;

// The few cuBLAS entry points the check needs, resolved at run time. The enum values are those
// of cublas_api.h / library_types.h (stable ABI).
struct Cublas {
  using Handle = void*;
  int (*create)(Handle*) = nullptr;
  int (*destroy)(Handle) = nullptr;
  int (*set_stream)(Handle, cudaStream_t) = nullptr;
  int (*gemm_ex)(Handle, int, int, int, int, int, const void*, const void*, int, int, const void*, int, int,
                 const void*, void*, int, int, int, int) = nullptr;
  static constexpr int kOpN = 0, kOpT = 1, kR16BF = 14, kCompute32F = 68, kGemmDefault = -1;

  // libcublas.so.13 (or .12) from the loader's path, else from the toolkit's folder; libcublasLt
  // first, globally, so that libcublas finds it when loaded by an absolute path.
  static const Cublas* load(std::string& why) {
    static Cublas api;
    static const bool ok = [] {
      std::vector<std::string> dirs = {""};
      for (const char* env : {"CUDA_HOME", "CUDA_PATH"})
        if (const char* d = std::getenv(env)) dirs.push_back(std::string(d) + "/lib64/");
      dirs.push_back("/usr/local/cuda/lib64/");
      for (const std::string& dir : dirs)
        for (const char* version : {".13", ".12"}) {
          dlopen((dir + "libcublasLt.so" + version).c_str(), RTLD_NOW | RTLD_GLOBAL);
          void* h = dlopen((dir + "libcublas.so" + version).c_str(), RTLD_NOW | RTLD_LOCAL);
          if (!h) continue;
          api.create = reinterpret_cast<decltype(api.create)>(dlsym(h, "cublasCreate_v2"));
          api.destroy = reinterpret_cast<decltype(api.destroy)>(dlsym(h, "cublasDestroy_v2"));
          api.set_stream = reinterpret_cast<decltype(api.set_stream)>(dlsym(h, "cublasSetStream_v2"));
          api.gemm_ex = reinterpret_cast<decltype(api.gemm_ex)>(dlsym(h, "cublasGemmEx"));
          if (api.create && api.destroy && api.set_stream && api.gemm_ex) return true;
        }
      return false;
    }();
    if (!ok) why = "libcublas.so.13/.12 not found";
    return ok ? &api : nullptr;
  }

  // D (M x N row-major) = A (M x K row-major) * B (N x K row-major)^T, all bf16, f32 accumulation:
  // in cuBLAS's column-major terms D^T (N x M) = B^T(op T of the K x N column-major B) * A.
  int gemm(Handle h, int m, int n, int k, const void* a, const void* b, void* d) const {
    const float alpha = 1.f, beta = 0.f;
    return gemm_ex(h, kOpT, kOpN, n, m, k, &alpha, b, kR16BF, k, a, kR16BF, k, &beta, d, kR16BF, n, kCompute32F,
                   kGemmDefault);
  }
};

// |got - want| within 2 bf16 roundings of |want| plus a little for the summation order.
bool close(float got, float want) { return std::fabs(got - want) <= 0.02f * std::fabs(want) + 0.1f; }

Measurement run_gemm(jit::LoadedKernel& kernel, const jit::GemmSm90Config& config, const GpuContext& gpu,
                     std::string& error) {
  Measurement m;
  std::string why_no_cublas;
  const Cublas* cublas = Cublas::load(why_no_cublas);
  const int size = cublas ? 8192 : 520;  // the host reference only manages a small problem
  const int mm = size, nn = cublas ? size : size + 12, kk = cublas ? size : 264;
  m.size = std::to_string(mm) + "x" + std::to_string(nn) + "x" + std::to_string(kk);
  m.unit = "TFLOP/s";
  m.reference = cublas ? "cuBLAS" : "host (" + why_no_cublas + ")";

  const auto a = random_values<__nv_bfloat16>(static_cast<long long>(mm) * kk, 11);
  const auto b = random_values<__nv_bfloat16>(static_cast<long long>(nn) * kk, 12);
  const long long nd = static_cast<long long>(mm) * nn;
  DeviceBuffer<__nv_bfloat16> da(static_cast<long long>(a.size()), error), db(static_cast<long long>(b.size()), error),
      dd(nd, error), dref(cublas ? nd : 1, error);
  if (!error.empty()) return m;
  if (cudaMemcpy(da.p, a.data(), a.size() * 2, cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMemcpy(db.p, b.data(), b.size() * 2, cudaMemcpyHostToDevice) != cudaSuccess ||
      cudaMemset(dd.p, 0xFF, nd * 2) != cudaSuccess) {  // NaN: a skipped element cannot pass
    error = "uploading the inputs failed: " + std::string(cudaGetErrorString(cudaGetLastError()));
    return m;
  }

  jit::GemmSm90Arguments args;
  args.m = mm, args.n = nn, args.k = kk;
  args.a = da.p, args.lda = kk;
  args.b = db.p, args.ldb = kk;
  args.d = dd.p, args.ldd = nn;
  auto ours = [&](cudaStream_t stream) {
    if (auto r = jit::launch_gemm_sm90(kernel, {}, config, args, stream); !r) error = r.error().describe();
  };
  ours(nullptr);
  if (cudaDeviceSynchronize() != cudaSuccess) error = "the kernel failed: " + std::string(cudaGetErrorString(cudaGetLastError()));
  if (!error.empty()) return m;
  std::vector<__nv_bfloat16> got(static_cast<std::size_t>(nd)), want(static_cast<std::size_t>(nd));
  if (cudaMemcpy(got.data(), dd.p, nd * 2, cudaMemcpyDeviceToHost) != cudaSuccess) {
    error = "downloading the result failed: " + std::string(cudaGetErrorString(cudaGetLastError()));
    return m;
  }

  Cublas::Handle handle = nullptr;
  if (cublas) {
    if (cublas->create(&handle) != 0) {
      error = "cublasCreate failed";
      return m;
    }
    if (cublas->gemm(handle, mm, nn, kk, da.p, db.p, dref.p) != 0 || cudaDeviceSynchronize() != cudaSuccess)
      error = "cublasGemmEx failed";
    else if (cudaMemcpy(want.data(), dref.p, nd * 2, cudaMemcpyDeviceToHost) != cudaSuccess)
      error = "downloading cuBLAS's result failed: " + std::string(cudaGetErrorString(cudaGetLastError()));
  } else {
    for (int i = 0; i < mm; ++i)
      for (int j = 0; j < nn; ++j) {
        float acc = 0;
        for (int k = 0; k < kk; ++k) acc += float(a[std::size_t(i) * kk + k]) * float(b[std::size_t(j) * kk + k]);
        want[std::size_t(i) * nn + j] = __nv_bfloat16(acc);
      }
  }
  long long bad = 0, first = -1;
  for (long long i = 0; i < nd; ++i)
    if (!close(float(got[i]), float(want[i])) && bad++ == 0) first = i;
  m.correct = error.empty() && bad == 0;
  m.check = bad == 0 ? "all " + std::to_string(nd) + " elements"
                     : std::to_string(bad) + " elements off, first (" + std::to_string(first / nn) + "," +
                           std::to_string(first % nn) + "): got " + std::to_string(float(got[first])) + ", want " +
                           std::to_string(float(want[first]));

  const double flops = 2.0 * mm * nn * kk;
  cb::L2Flusher flusher;
  m.ms = cb::time_runs(ours, gpu.runs, &flusher).median_ms();
  m.rate = flops / (m.ms * 1e-3) / 1e12;
  if (cublas && error.empty()) {
    auto theirs = [&](cudaStream_t stream) {
      cublas->set_stream(handle, stream);
      cublas->gemm(handle, mm, nn, kk, da.p, db.p, dref.p);
    };
    m.reference_rate = flops / (cb::time_runs(theirs, gpu.runs, &flusher).median_ms() * 1e-3) / 1e12;
  }
  if (handle) cublas->destroy(handle);
  return m;
}

}  // namespace

std::vector<Entry> gemm_entries() {
  jit::GemmSm90Config config;  // 128x256x64, 4 stages, clusters of 2: the heuristic's pick at 8192^3
  return {{"gemm bf16 128x256 s4c2", jit::gemm_sm90_spec({}, config),
           [config](jit::LoadedKernel& k, const jit::ResourceUsage&, const GpuContext& g, std::string& err) {
             return run_gemm(k, config, g, err);
           }}};
}

}  // namespace cute_dsl::tools::demo
