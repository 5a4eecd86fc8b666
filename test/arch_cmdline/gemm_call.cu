// One translation unit that calls the public Hopper GEMM launcher, compiled (not run) with each
// command line a user types for Hopper: test/arch_cmdline/CMakeLists.txt lists them. Every pass
// that is not sm_90a (the compute_90 PTX of -arch=sm_90a, sm_80 in a fat binary) must compile the
// kernel to a trap, never fail. By default one operand layout (gemm_sm90_majors: every variant of
// it); CUTE_DSL_ARCH_CMDLINE_ONE_KERNEL: a single variant -- what the pass handling is about is the
// same for each kernel, so only `-arch=sm_90a` (the common line) pays for all of them in CI;
// CUTE_DSL_ARCH_CMDLINE_ALL_MAJORS: the dispatching gemm_sm90 (every layout).
#include <cuda_bf16.h>

#include <cute_dsl/kernels/gemm_sm90_launch.hpp>

namespace kernels = cute_dsl::kernels;

cudaError_t call_gemm(const kernels::GemmSm90Arguments<__nv_bfloat16, __nv_bfloat16>& args, cudaStream_t stream) {
#if defined(CUTE_DSL_ARCH_CMDLINE_ALL_MAJORS)
  return kernels::gemm_sm90(args, stream);
#elif defined(CUTE_DSL_ARCH_CMDLINE_ONE_KERNEL)
  return kernels::detail::gemm_sm90_launch<__nv_bfloat16, __nv_bfloat16, cute_dsl::GmmaMajor::K, cute_dsl::GmmaMajor::K, 128, 6, 1>(
      args, stream);
#else
  return kernels::gemm_sm90_majors<cute_dsl::GmmaMajor::K, cute_dsl::GmmaMajor::K>(args, stream);
#endif
}
