// Inside the JIT: what launch_gemm_sm90 passes to the Hopper GEMM -- the kernel's parameter block
// (tensor maps, shape, epilogue) and the persistent grid -- so that kernels taking the same block
// first (the fused GEMM of gemm_epilogue.cpp) launch from it.
#pragma once

#include "cute_dsl/jit/gemm_sm90.hpp"
#include "cute_dsl/jit/launch.hpp"
#include "cute_dsl/kernels/gemm_sm90.hpp"

namespace cute_dsl::jit {

struct GemmSm90Launch {
  kernels::GemmSm90Params<void> params;
  LaunchConfig config;
};

// @pre gemm_sm90_unsupported(types, config) is empty (checked again, with the arguments).
Expected<GemmSm90Launch, JitError> gemm_sm90_launch_setup(LoadedKernel& kernel, const GemmSm90Types& types,
                                                          const GemmSm90Config& config, const GemmSm90Arguments& args,
                                                          void* stream);

}  // namespace cute_dsl::jit
