// cuBLAS as the reference in the benchmarks (bench/kernels: axpy and geam; bench/gemm: GemmEx),
// linked from the toolkit (CUDA::cublas). Host code; compiles with nvcc or a host compiler.
//
//   cute_dsl_bench::Cublas blas;                       // a handle, bound to the default stream
//   blas.set_stream(stream);
//   blas.gemm_row_major(...);                            // see below
//
// Why a wrapper at all: cuBLAS is column-major, our benchmarks are row-major; the conversions
// (C^T = B^T A^T, swapped operands, leading dimensions) are written and commented once here.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

namespace cute_dsl_bench {

// Aborts with the call and cuBLAS's status name.
#define CUTE_DSL_BENCH_CUBLAS(call)                                                                \
  do {                                                                                             \
    const cublasStatus_t cute_dsl_bench_st_ = (call);                                              \
    if (cute_dsl_bench_st_ != CUBLAS_STATUS_SUCCESS) {                                             \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                    \
                   cublasGetStatusName(cute_dsl_bench_st_));                                       \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

class Cublas {
 public:
  Cublas() {
    CUTE_DSL_BENCH_CUBLAS(cublasCreate(&handle_));
    // Scalars (alpha, beta) come from host memory.
    CUTE_DSL_BENCH_CUBLAS(cublasSetPointerMode(handle_, CUBLAS_POINTER_MODE_HOST));
  }
  Cublas(const Cublas&) = delete;
  Cublas& operator=(const Cublas&) = delete;
  ~Cublas() { cublasDestroy(handle_); }
  cublasHandle_t get() const { return handle_; }
  void set_stream(cudaStream_t s) { CUTE_DSL_BENCH_CUBLAS(cublasSetStream(handle_, s)); }

  // y = alpha * x + y over n floats (in place: reads 2n, writes n, as an out-of-place add).
  // Uses the 64-bit API: n may exceed 2^31.
  void saxpy(long long n, float alpha, const float* x, float* y) {
    CUTE_DSL_BENCH_CUBLAS(cublasSaxpy_64(handle_, n, &alpha, x, 1, y, 1));
  }

  // Row-major out (rows x cols) = alpha * a + beta * b, all rows x cols with pitch cols.
  // In cuBLAS's column-major terms that is the cols x rows matrix with leading dimension cols.
  void geam_add(long long rows, long long cols, float alpha, const float* a, float beta, const float* b, float* out) {
    CUTE_DSL_BENCH_CUBLAS(cublasSgeam_64(handle_, CUBLAS_OP_N, CUBLAS_OP_N, cols, rows, &alpha, a, cols, &beta, b,
                                         cols, out, cols));
  }

  // Row-major out (cols x rows) = in^T, in being rows x cols row-major. Column-major view: `in` is
  // the cols x rows matrix (ld cols), its transpose is rows x cols (ld rows), which read row-major
  // is the cols x rows `out`. B (unused, beta = 0) is `out` itself, which cuBLAS allows in place.
  void geam_transpose(long long rows, long long cols, const float* in, float* out) {
    const float one = 1.0f, zero = 0.0f;
    CUTE_DSL_BENCH_CUBLAS(cublasSgeam_64(handle_, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, in, cols, &zero, out,
                                         rows, out, rows));
  }

  // Row-major D (m x n) = alpha * A (m x k) * B (k x n) + beta * D, with f32 accumulation; each of
  // A and B may be stored row-major (ld = its column count) or column-major (ld = its row count).
  // Column-major view: D^T (n x m) = B^T A^T, so cuBLAS gets B first. A row-major operand is,
  // to cuBLAS, already its transpose: OP_N; a column-major one needs OP_T.
  void gemm_row_major(long long m, long long n, long long k, float alpha, const void* a, cudaDataType a_type,
                      bool a_row_major, const void* b, cudaDataType b_type, bool b_row_major, float beta, void* d,
                      cudaDataType d_type) {
    const cublasOperation_t op_b = b_row_major ? CUBLAS_OP_N : CUBLAS_OP_T;
    const cublasOperation_t op_a = a_row_major ? CUBLAS_OP_N : CUBLAS_OP_T;
    const long long ldb = b_row_major ? n : k;
    const long long lda = a_row_major ? k : m;
    CUTE_DSL_BENCH_CUBLAS(cublasGemmEx_64(handle_, op_b, op_a, n, m, k, &alpha, b, b_type, ldb, a, a_type, lda, &beta,
                                          d, d_type, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  }

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace cute_dsl_bench
