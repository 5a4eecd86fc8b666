// One GEMM problem as the GEMM benchmarks (gemm_bench.cu, gemm_sweep.cu) run it: operands made on
// the GPU, ours (kernels/gemm_sm90_launch.hpp) and cuBLAS on the same data, the relative error of
// ours against cuBLAS with f32 output, and the timing loop (bench/support/cuda_timer.hpp: L2
// flushed before each timed launch, CUDA events, medians).
//
// Conventions (BLAS names, column-major D = A * op(B)): D (M x N, row-major, ldd = N) = alpha * A *
// B^T + beta * C, A M x K and B N x K, each K-major ("T" for A, "N" for B) or MN-major; TN = both
// K-major, NN = A M-major, TT = B N-major, NT = both MN-major. cuBLAS sees row-major D as
// column-major D^T = B * A^T. Batches are `batch_stride_*` elements apart (cuBLAS: strided batched).
#pragma once

#include <benchmark/benchmark.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cute_dsl/kernels/gemm_sm90_launch.hpp>

#include "gemm_sm90_instances.hpp"  // the launchers, compiled once (support/gemm_sm90_instances)

#include <cmath>
#include <exception>
#include <memory>
#include <string>
#include <type_traits>

#include "cuda_timer.hpp"
#include "device_random.cuh"

namespace cute_dsl_bench {

using cute_dsl::GmmaMajor;

enum class Dtype { bf16, f16, f32 };

inline const char* dtype_name(Dtype t) { return t == Dtype::bf16 ? "bf16" : t == Dtype::f16 ? "f16" : "f32"; }
inline int dtype_bytes(Dtype t) { return t == Dtype::f32 ? 4 : 2; }
inline cudaDataType_t cuda_type(Dtype t) {
  return t == Dtype::bf16 ? CUDA_R_16BF : t == Dtype::f16 ? CUDA_R_16F : CUDA_R_32F;
}

struct GemmProblem {
  int m, n, k, l = 1;
  GmmaMajor major_a = GmmaMajor::K, major_b = GmmaMajor::K;
  Dtype in = Dtype::bf16, out = Dtype::bf16;
  float beta = 0.f;  // non-zero: C (same type and shape as D) is read
  int pad = 0;       // extra elements in lda and ldb beyond the contiguous extent

  long long lda() const { return (major_a == GmmaMajor::K ? k : m) + pad; }
  long long ldb() const { return (major_b == GmmaMajor::K ? k : n) + pad; }
  long long ldd() const { return n; }
  long long batch_stride_a() const { return (major_a == GmmaMajor::K ? m : k) * lda(); }
  long long batch_stride_b() const { return (major_b == GmmaMajor::K ? n : k) * ldb(); }
  long long batch_stride_d() const { return 1ll * m * ldd(); }
  double flop() const { return 2.0 * m * n * k * l; }
  const char* majors() const {
    const bool ak = major_a == GmmaMajor::K, bk = major_b == GmmaMajor::K;
    return ak ? (bk ? "TN" : "TT") : (bk ? "NN" : "NT");
  }
  // "MxNxK" plus what differs from bf16 > bf16 TN, beta 0, one batch, no padding:
  // "x16" (batches), "_NN", "_f16" (in), ">f32" (out), "_beta1", "_pad3".
  std::string name() const {
    std::string s = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
    if (l > 1) s += "x" + std::to_string(l);
    if (std::string(majors()) != "TN") s += std::string("_") + majors();
    if (in != Dtype::bf16) s += std::string("_") + dtype_name(in);
    if (out != in) s += std::string(">") + dtype_name(out);
    if (beta != 0.f) s += "_beta" + std::to_string(int(beta));
    if (pad != 0) s += "_pad" + std::to_string(pad);
    return s;
  }
  bool same_storage(const GemmProblem& o) const {
    return m == o.m && n == o.n && k == o.k && l == o.l && major_a == o.major_a && major_b == o.major_b && in == o.in &&
           out == o.out && pad == o.pad;
  }
};

// The operands of one problem on the GPU: A, B random in [-1, 1), C random when beta != 0, D.
struct GemmWorkspace {
  GemmProblem p;
  void *a = nullptr, *b = nullptr, *c = nullptr, *d = nullptr;
  cudaError_t error = cudaSuccess;  // the first failure of the set-up; the benchmark skips on it

  explicit GemmWorkspace(const GemmProblem& problem) : p(problem) {
    const long long na = p.batch_stride_a() * p.l, nb = p.batch_stride_b() * p.l, nd = p.batch_stride_d() * p.l;
    const int in = dtype_bytes(p.in), out = dtype_bytes(p.out);
    if ((error = cudaMalloc(&a, na * in)) != cudaSuccess || (error = cudaMalloc(&b, nb * in)) != cudaSuccess ||
        (error = cudaMalloc(&d, nd * out)) != cudaSuccess || (error = cudaMalloc(&c, nd * out)) != cudaSuccess)
      return;
    if ((error = fill(a, p.in, na, 1)) != cudaSuccess || (error = fill(b, p.in, nb, 2)) != cudaSuccess ||
        (error = fill(c, p.out, nd, 3)) != cudaSuccess)
      return;
    error = cudaDeviceSynchronize();
  }
  ~GemmWorkspace() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    cudaFree(d);
  }
  GemmWorkspace(const GemmWorkspace&) = delete;
  GemmWorkspace& operator=(const GemmWorkspace&) = delete;

  static cudaError_t fill(void* p, Dtype t, long long n, unsigned long long seed) {
    if (t == Dtype::bf16) return fill_uniform(static_cast<__nv_bfloat16*>(p), n, seed);
    if (t == Dtype::f16) return fill_uniform(static_cast<__half*>(p), n, seed);
    return fill_uniform(static_cast<float*>(p), n, seed);
  }
};

// One workspace at a time (the largest problems need several GiB): reused while the storage is
// the same (cuBLAS and ours on one problem, or the variants of one shape).
inline GemmWorkspace& gemm_workspace(const GemmProblem& p) {
  static std::unique_ptr<GemmWorkspace> w;
  if (!w || !w->p.same_storage(p)) {
    w.reset();
    w = std::make_unique<GemmWorkspace>(p);
  }
  w->p = p;  // beta may differ
  return *w;
}

// What the GEMM benchmarks share for the whole run: why there is no GPU (empty if there is one),
// the L2 flusher, the cuBLAS handle.
struct GemmContext {
  std::string missing = gpu_missing_reason();
  L2Flusher* flusher = nullptr;
  cublasHandle_t blas = nullptr;
  GemmContext() {
    if (!missing.empty()) return;
    flusher = new L2Flusher();  // kept for the whole run
    if (cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS) missing = "cublasCreate failed";
  }
};
inline GemmContext& gemm_context() {
  static GemmContext c;
  return c;
}

// cuBLAS on the workspace into `d` of type `d_type` with `beta` (C read from `d`, in place).
inline cublasStatus_t run_cublas(const GemmWorkspace& w, void* d, cudaDataType_t d_type, float beta,
                                 cudaStream_t stream = nullptr) {
  cublasHandle_t h = gemm_context().blas;
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  cublasSetStream(h, stream);
  const GemmProblem& p = w.p;
  const float alpha = 1.f;
  const cublasOperation_t op_b = p.major_b == GmmaMajor::K ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_a = p.major_a == GmmaMajor::K ? CUBLAS_OP_N : CUBLAS_OP_T;
  const cudaDataType_t in = cuda_type(p.in);
  if (p.l == 1)
    return cublasGemmEx(h, op_b, op_a, p.n, p.m, p.k, &alpha, w.b, in, int(p.ldb()), w.a, in, int(p.lda()), &beta, d, d_type,
                        int(p.ldd()), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  return cublasGemmStridedBatchedEx(h, op_b, op_a, p.n, p.m, p.k, &alpha, w.b, in, int(p.ldb()), p.batch_stride_b(), w.a, in,
                                    int(p.lda()), p.batch_stride_a(), &beta, d, d_type, int(p.ldd()), p.batch_stride_d(), p.l,
                                    CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

// cuBLAS as the benchmarks time it: D = A B^T + beta * C in the output type. With beta != 0, C is
// first copied into D, untimed by the caller: cuBLAS reads C from D (ours reads C from c).
inline cublasStatus_t run_cublas(const GemmWorkspace& w, cudaStream_t stream = nullptr) {
  return run_cublas(w, w.d, cuda_type(w.p.out), w.p.beta, stream);
}

namespace detail {

template <class TA, class TD>
cute_dsl::kernels::GemmSm90Arguments<TA, TD> ours_arguments(const GemmWorkspace& w, void* d) {
  const GemmProblem& p = w.p;
  cute_dsl::kernels::GemmSm90Arguments<TA, TD> args{};
  args.shape = {p.m, p.n, p.k, p.l};
  args.a = static_cast<const TA*>(w.a), args.lda = p.lda(), args.batch_stride_a = p.batch_stride_a();
  args.b = static_cast<const TA*>(w.b), args.ldb = p.ldb(), args.batch_stride_b = p.batch_stride_b();
  args.d = static_cast<TD*>(d), args.ldd = p.ldd(), args.batch_stride_d = p.batch_stride_d();
  args.c = static_cast<const TD*>(w.c), args.ldc = p.ldd(), args.batch_stride_c = p.batch_stride_d();
  args.beta = p.beta;
  args.major_a = p.major_a, args.major_b = p.major_b;
  return args;
}

// Calls f(Tag<TA>, Tag<TD>) for the type pairs the program builds; false for any other pair.
// bf16 > bf16 always, in every operand layout (32 kernels). With CUTE_DSL_BENCH_GEMM_MORE_TYPES
// defined before this header, also bf16 > f32 and f16 > f16, TN only (8 kernels each): each
// instantiation costs compile time in every build of the benchmarks.
template <class T>
struct Tag {
  using type = T;
};
template <class F>
bool with_types(const GemmProblem& p, F&& f) {
  using bf16 = __nv_bfloat16;
  if (p.in == Dtype::bf16 && p.out == Dtype::bf16) return f(Tag<bf16>{}, Tag<bf16>{}), true;
#ifdef CUTE_DSL_BENCH_GEMM_MORE_TYPES
  if (p.in == Dtype::bf16 && p.out == Dtype::f32) return f(Tag<bf16>{}, Tag<float>{}), true;
  if (p.in == Dtype::f16 && p.out == Dtype::f16) return f(Tag<__half>{}, Tag<__half>{}), true;
#endif
  return false;
}

template <class TA, class TD>
constexpr bool kAllMajors = std::is_same_v<TA, __nv_bfloat16> && std::is_same_v<TD, __nv_bfloat16>;

template <class TA, class TD>
cudaError_t launch_ours(const cute_dsl::kernels::GemmSm90Arguments<TA, TD>& args, cudaStream_t stream,
                        cute_dsl::kernels::GemmSm90Config config) {
  if constexpr (kAllMajors<TA, TD>) return cute_dsl::kernels::gemm_sm90(args, stream, config);
  else return cute_dsl::kernels::gemm_sm90_majors<GmmaMajor::K, GmmaMajor::K>(args, stream, config);
}

}  // namespace detail

// Empty when our launcher takes this problem; otherwise why not (gemm_sm90_unsupported's rule).
inline std::string ours_unsupported(const GemmWorkspace& w) {
  const std::string types = std::string(dtype_name(w.p.in)) + " > " + dtype_name(w.p.out);
  std::string why = "this program builds no launcher for " + types;
  detail::with_types(w.p, [&](auto ta, auto td) {
    using TA = typename decltype(ta)::type;
    using TD = typename decltype(td)::type;
    if (!detail::kAllMajors<TA, TD> && std::string(w.p.majors()) != "TN")
      why = "this program builds only TN for " + types;
    else
      why = cute_dsl::kernels::gemm_sm90_unsupported(detail::ours_arguments<TA, TD>(w, w.d));
  });
  return why;
}

// Ours into `d` (the output type) with `config` (zero: the heuristic's choice). A tensor map the
// driver refuses is cudaErrorInvalidValue, like any other argument ours cannot run.
inline cudaError_t run_ours(const GemmWorkspace& w, void* d, cute_dsl::kernels::GemmSm90Config config = {},
                            cudaStream_t stream = nullptr) {
  cudaError_t err = cudaErrorInvalidValue;
  detail::with_types(w.p, [&](auto ta, auto td) {
    try {
      err = detail::launch_ours(detail::ours_arguments<typename decltype(ta)::type, typename decltype(td)::type>(w, d),
                                stream, config);
    } catch (const std::exception&) {
      err = cudaErrorInvalidValue;
    }
  });
  return err;
}

namespace detail {

template <class T>
__device__ inline double as_double(T x) {
  return double(static_cast<float>(x));
}

// sums[0] += sum (x - ref)^2 (NaN or inf in x: a huge value), sums[1] += sum ref^2.
template <class T>
__global__ void squared_error_kernel(const T* x, const float* ref, long long n, double* sums) {
  double diff = 0, norm = 0;
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n; i += 256ll * gridDim.x) {
    const double a = as_double(x[i]), b = ref[i];
    diff += isfinite(a) ? (a - b) * (a - b) : 1e300;
    norm += b * b;
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    diff += __shfl_down_sync(0xffffffffu, diff, offset);
    norm += __shfl_down_sync(0xffffffffu, norm, offset);
  }
  if (threadIdx.x % 32 == 0) {
    atomicAdd(&sums[0], diff);
    atomicAdd(&sums[1], norm);
  }
}

template <class T>
__global__ void to_float_kernel(const T* x, float* out, long long n) {
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n; i += 256ll * gridDim.x) out[i] = static_cast<float>(x[i]);
}

}  // namespace detail

// ||ours - ref||_F / ||ref||_F on this problem's data (every batch), ref = cuBLAS with f32 OUTPUT
// (and C converted to f32, beta as the problem's): ours pays its output type's rounding, so about
// 2e-3 is expected for bf16 out, 3e-4 for f16, 1e-6 for f32. D is poisoned (NaN) first: an
// element ours leaves unwritten counts as wrong. Negative: the check itself could not run.
inline double relative_error(const GemmWorkspace& w, cute_dsl::kernels::GemmSm90Config config = {}) {
  const long long nd = w.p.batch_stride_d() * w.p.l;
  float* ref = nullptr;
  double* sums = nullptr;
  if (cudaMalloc(&ref, nd * sizeof(float)) != cudaSuccess) return (void)cudaGetLastError(), -1;
  if (cudaMalloc(&sums, 2 * sizeof(double)) != cudaSuccess) return cudaFree(ref), (void)cudaGetLastError(), -1;
  double h[2] = {-1, 1};
  bool ok = true;
  ok &= detail::with_types(w.p, [&](auto, auto td) {
    using TD = typename decltype(td)::type;
    detail::to_float_kernel<<<1024, 256>>>(static_cast<const TD*>(w.c), ref, nd);
  });
  ok = ok && run_cublas(w, ref, CUDA_R_32F, w.p.beta) == CUBLAS_STATUS_SUCCESS;
  ok = ok && cudaMemset(w.d, 0xFF, nd * dtype_bytes(w.p.out)) == cudaSuccess;
  ok = ok && run_ours(w, w.d, config) == cudaSuccess;
  ok = ok && cudaMemset(sums, 0, 2 * sizeof(double)) == cudaSuccess;
  ok = ok && detail::with_types(w.p, [&](auto, auto td) {
         using TD = typename decltype(td)::type;
         detail::squared_error_kernel<<<1024, 256>>>(static_cast<const TD*>(w.d), ref, nd, sums);
       });
  ok = ok && cudaMemcpy(h, sums, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess;
  cudaFree(ref);
  cudaFree(sums);
  if (!ok || cudaGetLastError() != cudaSuccess) return -1;
  return h[1] > 0 ? std::sqrt(h[0] / h[1]) : (h[0] > 0 ? 1e300 : 0.0);
}

// The benchmark body: `warmup` untimed calls, then each iteration flushes L2 and times ONE call
// with CUDA events (manual time). Counters: median_us and TFLOPs (from the median). `prepare`
// runs before every call, untimed (cuBLAS with beta != 0 gets C copied into D).
template <class Enqueue, class Prepare>
void time_gemm(benchmark::State& state, const GemmProblem& p, int warmup, Enqueue&& enqueue, Prepare&& prepare) {
  GemmContext& ctx = gemm_context();
  for (int i = 0; i < warmup; ++i) {
    prepare();
    enqueue(cudaStream_t{});
  }
  CUTE_DSL_BENCH_CUDA(cudaDeviceSynchronize());
  Samples samples;
  for (auto _ : state) {
    prepare();
    const double ms = time_once(enqueue, ctx.flusher);
    samples.add_ms(ms);
    state.SetIterationTime(ms * 1e-3);
  }
  state.counters["median_us"] = samples.median_ms() * 1e3;
  state.counters["TFLOPs"] = samples.median_ms() > 0 ? p.flop() / (samples.median_ms() * 1e-3) * 1e-12 : 0;
}

// Two libraries timed in turns: each iteration flushes L2 and times one call of each, the order
// swapped every iteration. Under the H100's power cap the clock falls within ~100 ms of a heavy
// GEMM starting (1980 -> 1400-1700 MHz, nvidia-smi every 200 ms, 2026-11-28), so whichever library
// is timed first in a back-to-back pair of benchmarks meets the cooler card: at 8192^3 cuBLAS
// ran 1388-1393 us as the first timing of each process and 1407-1661 after
// (bench/results/gemm_timing_order_h100_2026-11-28.txt). In turns, both meet the same clocks.
// Counters: "<first_name>_us" / "<first_name>_TFLOPs" for the first, median_us / TFLOPs for the
// second (whose time is the iteration's manual time).
template <class EnqueueA, class PrepareA, class EnqueueB, class PrepareB>
void time_gemm_pair(benchmark::State& state, const GemmProblem& p, int warmup, const char* first_name, EnqueueA&& enqueue_a,
                    PrepareA&& prepare_a, EnqueueB&& enqueue_b, PrepareB&& prepare_b) {
  GemmContext& ctx = gemm_context();
  for (int i = 0; i < warmup; ++i) {
    prepare_a(), enqueue_a(cudaStream_t{});
    prepare_b(), enqueue_b(cudaStream_t{});
  }
  CUTE_DSL_BENCH_CUDA(cudaDeviceSynchronize());
  Samples a, b;
  int iteration = 0;
  for (auto _ : state) {
    double ms_a = 0, ms_b = 0;
    for (int turn = 0; turn < 2; ++turn)
      if ((turn == 0) == (iteration % 2 == 0)) prepare_a(), ms_a = time_once(enqueue_a, ctx.flusher);
      else prepare_b(), ms_b = time_once(enqueue_b, ctx.flusher);
    a.add_ms(ms_a), b.add_ms(ms_b), ++iteration;
    state.SetIterationTime(ms_b * 1e-3);
  }
  const auto tflops = [&](double ms) { return ms > 0 ? p.flop() / (ms * 1e-3) * 1e-12 : 0; };
  state.counters[std::string(first_name) + "_us"] = a.median_ms() * 1e3;
  state.counters[std::string(first_name) + "_TFLOPs"] = tflops(a.median_ms());
  state.counters["median_us"] = b.median_ms() * 1e3;
  state.counters["TFLOPs"] = tflops(b.median_ms());
}

}  // namespace cute_dsl_bench
