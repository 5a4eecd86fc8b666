// One instantiation of the Hopper GEMM (bf16 in and out, 128x256 tiles, 4 stages, clusters of 2):
// what the JIT compiles for one run-time configuration.
#include <cuda_bf16.h>

#include <cute_dsl/kernels/gemm_sm90.hpp>

template __global__ void cute_dsl::kernels::gemm_sm90_kernel<__nv_bfloat16, __nv_bfloat16, 256, 4, 2>(
    const __grid_constant__ cute_dsl::kernels::GemmSm90KernelParams<__nv_bfloat16, __nv_bfloat16, 256, 4, 2>);
