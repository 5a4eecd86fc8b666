// The ahead-of-time half of the GEMM's same-code test (SameCodeGemm in same_code_test.cpp): nvcc
// instantiates the twin of jit::gemm_sm90_spec(bf16 -> bf16, 128x256x64, 4 stages, cluster 2x1),
// every template argument spelled out as the JIT spells it, into a CUBIN of its own (same flags
// as same_code_nvcc.cu: -cubin -arch=sm_90a -O3 -DNDEBUG).
#include <cuda_bf16.h>

#include "cute_dsl/kernels/gemm_sm90.hpp"

void cute_dsl_same_code_instantiate_gemm() {
  // ..., TMA loads, D as is, no split-K path, no ring path for C: as the JIT instantiates it.
  (void)reinterpret_cast<const void*>(&cute_dsl::kernels::gemm_sm90_kernel<__nv_bfloat16, __nv_bfloat16, 256, 4, 2, false,
                                                                         cute_dsl::GmmaMajor::K, cute_dsl::GmmaMajor::K, 128,
                                                                         true, false, false, false>);
}
