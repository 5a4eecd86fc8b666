// Host side shared by the GEMM levels (examples/gemm/NN_*.cu): random bf16 operands, cuBLAS as
// the reference, a relative Frobenius-norm check, and a short timing line. Example-side code,
// not the library: each level keeps only its kernel and its launch in its own file.
//
// Convention of every level ("TN", both operands K-major, what wgmma and ldmatrix like best):
//   A is M x K row-major, B is N x K row-major, C = A * B^T is M x N row-major, bf16 out.
#pragma once

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace gemm_example {

using bf16 = __nv_bfloat16;

#define GEMM_EXAMPLE_CUDA(call)                                                              \
  do {                                                                                       \
    cudaError_t err_ = (call);                                                               \
    if (err_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                     \
                   cudaGetErrorString(err_));                                                \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

struct Problem {
  int m, n, k;
};

// Reads "M N K" from argv (all three or none); `fallback` otherwise.
inline Problem problem_from_args(int argc, char** argv, Problem fallback) {
  if (argc >= 4) return {std::atoi(argv[1]), std::atoi(argv[2]), std::atoi(argv[3])};
  return fallback;
}

// Empty when a GPU of compute capability >= min_cc is present; otherwise why not.
inline std::string gpu_missing_reason(int min_cc) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    return std::string("no usable CUDA GPU (") + cudaGetErrorName(err) + ")";
  }
  cudaDeviceProp prop{};
  GEMM_EXAMPLE_CUDA(cudaGetDeviceProperties(&prop, 0));
  if (prop.major * 10 + prop.minor < min_cc)
    return std::string(prop.name) + " is below compute capability " + std::to_string(min_cc);
  return {};
}

// Device operands and output of one problem, filled with uniform values in [-1, 1).
struct Operands {
  Problem p;
  bf16* a = nullptr;
  bf16* b = nullptr;
  bf16* c = nullptr;     // ours
  float* ref = nullptr;  // cuBLAS, f32 out

  explicit Operands(Problem prob) : p(prob) {
    std::size_t na = std::size_t(p.m) * p.k, nb = std::size_t(p.n) * p.k;
    std::size_t nc = std::size_t(p.m) * p.n;
    GEMM_EXAMPLE_CUDA(cudaMalloc(&a, na * sizeof(bf16)));
    GEMM_EXAMPLE_CUDA(cudaMalloc(&b, nb * sizeof(bf16)));
    GEMM_EXAMPLE_CUDA(cudaMalloc(&c, nc * sizeof(bf16)));
    GEMM_EXAMPLE_CUDA(cudaMalloc(&ref, nc * sizeof(float)));
    std::mt19937 gen(2024);
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    auto upload = [&](bf16* dst, std::size_t n) {
      std::vector<bf16> h(n);
      for (auto& x : h) x = __float2bfloat16(dist(gen));
      GEMM_EXAMPLE_CUDA(cudaMemcpy(dst, h.data(), n * sizeof(bf16), cudaMemcpyHostToDevice));
    };
    upload(a, na);
    upload(b, nb);
  }
  ~Operands() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    cudaFree(ref);
  }
  Operands(const Operands&) = delete;
  Operands& operator=(const Operands&) = delete;
};

// cuBLAS is column-major: our row-major C (M x N) is its N x M matrix C^T = B * A^T, where B
// (row-major N x K) reads as a K x N column-major matrix (op T) and A as K x M (op N).
inline void cublas_reference(cublasHandle_t handle, const Operands& op, void* c, cudaDataType c_type) {
  const float alpha = 1.f, beta = 0.f;
  cublasStatus_t st = cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, op.p.n, op.p.m, op.p.k, &alpha,
                                    op.b, CUDA_R_16BF, op.p.k, op.a, CUDA_R_16BF, op.p.k, &beta, c,
                                    c_type, op.p.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  if (st != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cublasGemmEx failed: %d\n", int(st));
    std::exit(1);
  }
}

// Median time in ms of `runs` launches of `fn` (after one warm-up), by CUDA events.
inline float median_ms(const std::function<void()>& fn, int runs = 10) {
  cudaEvent_t start, stop;
  GEMM_EXAMPLE_CUDA(cudaEventCreate(&start));
  GEMM_EXAMPLE_CUDA(cudaEventCreate(&stop));
  fn();
  std::vector<float> ms(runs);
  for (auto& t : ms) {
    GEMM_EXAMPLE_CUDA(cudaEventRecord(start));
    fn();
    GEMM_EXAMPLE_CUDA(cudaEventRecord(stop));
    GEMM_EXAMPLE_CUDA(cudaEventSynchronize(stop));
    GEMM_EXAMPLE_CUDA(cudaEventElapsedTime(&t, start, stop));
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::nth_element(ms.begin(), ms.begin() + runs / 2, ms.end());
  return ms[runs / 2];
}

// Runs `launch` (our kernel, writing op.c) against cuBLAS and prints one verdict line.
// Returns the process exit code: 0 when ||ours - ref||_F <= 1e-2 * ||ref||_F (bf16 output
// rounding alone is ~2^-9 relative), 1 otherwise. Without a suitable GPU prints SKIPPED and
// returns 0 (ctest reads "SKIPPED:" as a skip).
inline int check_against_cublas(const char* name, int min_cc, Problem p,
                                const std::function<void(const Operands&)>& launch) {
  std::string why = gpu_missing_reason(min_cc);
  if (!why.empty()) {
    std::printf("SKIPPED: %s: %s; this example runs on the device tool\n", name, why.c_str());
    return 0;
  }
  Operands op(p);
  std::size_t nc = std::size_t(p.m) * p.n;
  GEMM_EXAMPLE_CUDA(cudaMemset(op.c, 0xFF, nc * sizeof(bf16)));  // NaN: unwritten output shows
  launch(op);
  GEMM_EXAMPLE_CUDA(cudaGetLastError());
  GEMM_EXAMPLE_CUDA(cudaDeviceSynchronize());

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cublasCreate failed\n");
    return 1;
  }
  cublas_reference(handle, op, op.ref, CUDA_R_32F);
  GEMM_EXAMPLE_CUDA(cudaDeviceSynchronize());

  std::vector<bf16> ours(nc);
  std::vector<float> ref(nc);
  GEMM_EXAMPLE_CUDA(cudaMemcpy(ours.data(), op.c, nc * sizeof(bf16), cudaMemcpyDeviceToHost));
  GEMM_EXAMPLE_CUDA(cudaMemcpy(ref.data(), op.ref, nc * sizeof(float), cudaMemcpyDeviceToHost));
  double diff2 = 0, ref2 = 0;
  for (std::size_t i = 0; i < nc; ++i) {
    double d = double(__bfloat162float(ours[i])) - ref[i];
    diff2 += std::isfinite(d) ? d * d : 1e300;  // NaN/Inf (unwritten or broken) fails
    ref2 += double(ref[i]) * ref[i];
  }
  double rel = std::sqrt(diff2 / ref2);

  // Timing, for information only (the benchmarks in bench/gemm are the measured claim).
  float ours_ms = median_ms([&] { launch(op); });
  float cublas_ms = median_ms([&] { cublas_reference(handle, op, op.c, CUDA_R_16BF); });
  cublasDestroy(handle);
  double flop = 2.0 * p.m * p.n * p.k;
  bool ok = rel <= 1e-2;
  std::printf("%s %s: M=%d N=%d K=%d rel_err=%.3e | ours %.3f ms %.1f TFLOP/s | cuBLAS %.3f ms %.1f TFLOP/s | %.2fx\n",
              ok ? "PASSED" : "FAILED", name, p.m, p.n, p.k, rel, ours_ms, flop / ours_ms * 1e-9,
              cublas_ms, flop / cublas_ms * 1e-9, cublas_ms / ours_ms);
  return ok ? 0 : 1;
}

}  // namespace gemm_example
