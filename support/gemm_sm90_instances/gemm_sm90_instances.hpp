// The Hopper GEMM launchers that the GEMM tests and benchmarks call, compiled ONCE into the
// library cute_dsl_gemm_sm90_instances (one translation unit each, so they build in parallel)
// instead of in every program that calls them: each is ~10 kernels, and the tests, the majors
// tests, gemm_bench and gemm_sweep used to compile the same ones four times (most of CI's time).
// Including this header turns a call of one of them into a call of the library's copy
// (`extern template`); anything else a program calls it still instantiates itself.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cute_dsl/kernels/gemm_sm90_launch.hpp>

// EXTERN: `extern` (declaration) or nothing (the definition, in one .cu of the library).
#define CUTE_DSL_GEMM_SM90_INSTANCE(EXTERN, MAJOR_A, MAJOR_B, TA, TD)                                              \
  EXTERN template cudaError_t cute_dsl::kernels::gemm_sm90_majors<cute_dsl::GmmaMajor::MAJOR_A,                  \
                                                                  cute_dsl::GmmaMajor::MAJOR_B, TA, TD>(           \
      const cute_dsl::kernels::GemmSm90Arguments<TA, TD>&, cudaStream_t, cute_dsl::kernels::GemmSm90Config);

CUTE_DSL_GEMM_SM90_INSTANCE(extern, K, K, __nv_bfloat16, __nv_bfloat16)
CUTE_DSL_GEMM_SM90_INSTANCE(extern, MN, K, __nv_bfloat16, __nv_bfloat16)
CUTE_DSL_GEMM_SM90_INSTANCE(extern, K, MN, __nv_bfloat16, __nv_bfloat16)
CUTE_DSL_GEMM_SM90_INSTANCE(extern, MN, MN, __nv_bfloat16, __nv_bfloat16)
CUTE_DSL_GEMM_SM90_INSTANCE(extern, K, K, __nv_bfloat16, float)
CUTE_DSL_GEMM_SM90_INSTANCE(extern, K, K, __half, __half)
