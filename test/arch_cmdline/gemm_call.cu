// One translation unit that calls the public Hopper GEMM launcher, compiled (not run) with each
// command line a user types for Hopper: test/arch_cmdline/CMakeLists.txt lists them. Every pass
// that is not sm_90a (the compute_90 PTX of -arch=sm_90a, sm_80 in a fat binary) must compile the
// kernel to a trap, never fail. CUTE_DSL_ARCH_CMDLINE_ALL_MAJORS: the dispatching gemm_sm90 (32
// kernels) instead of one operand layout (gemm_sm90_majors, 8 kernels).
#include <cuda_bf16.h>

#include <cute_dsl/kernels/gemm_sm90_launch.hpp>

namespace kernels = cute_dsl::kernels;

cudaError_t call_gemm(const kernels::GemmSm90Arguments<__nv_bfloat16, __nv_bfloat16>& args, cudaStream_t stream) {
#ifdef CUTE_DSL_ARCH_CMDLINE_ALL_MAJORS
  return kernels::gemm_sm90(args, stream);
#else
  return kernels::gemm_sm90_majors<cute_dsl::GmmaMajor::K, cute_dsl::GmmaMajor::K>(args, stream);
#endif
}
