// A kernel that uses wgmma, compiled where some device pass lacks sm_90a: for sm_90 (no "a") and
// sm_80 by test/mma_atom; for `-arch=sm_90a` (CUDA 13's nvcc adds a compute_90 PTX
// pass) and an sm_80 + sm_90a fat binary by test/arch_cmdline (check_compile_fail.py). It must be
// rejected at compile time with the library's message, never built into an empty body.
// EXPECT: wgmma.mma_async (SM90_64xNx16_F32_SS) needs sm_90a
// EXPECT: wgmma.fence needs sm_90a
//
// The control (-DCUTE_DSL_COMPILE_FAIL_CONTROL) is how a kernel that must build for every pass of
// such a command line uses wgmma: only sm_90a passes compile the body (the GEMM kernel does the
// same), the others get a trap.
#include "cute_dsl/arch/sm90/wgmma.hpp"

template <class T>
__device__ void wgmma_once(T* out, unsigned long long desc_a, unsigned long long desc_b) {
  T d[32] = {};
  cute_dsl::warpgroup_arrive();
  cute_dsl::SM90_64xNx16_F32BF16BF16_SS<64>::fma(desc_a, desc_b, d, 0u);
  cute_dsl::warpgroup_commit_batch();
  cute_dsl::warpgroup_wait<0>();
  out[threadIdx.x] = d[0];
}

#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
__global__ void uses_wgmma(float* out, unsigned long long desc_a, unsigned long long desc_b) {
  wgmma_once(out, desc_a, desc_b);
}
#else
template <class T>
__global__ void uses_wgmma(T* out, unsigned long long desc_a, unsigned long long desc_b) {
  if constexpr (!cute_dsl::arch::sm90a_features<T>) __trap();
  else wgmma_once(out, desc_a, desc_b);
}
template __global__ void uses_wgmma<float>(float*, unsigned long long, unsigned long long);
#endif
