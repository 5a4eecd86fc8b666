// The fused Hopper GEMM compiles for sm_90a (compile only, no GPU) without spilling: bias + GELU
// with f32 D through the launcher in the 128 x 128 tile, instantiated as users instantiate it
// (kernel, epilogue visitor, launcher). check_no_spill.py reads ptxas -v. Not yet spill-free,
// hence not here: 16-bit D (the staged store) and the 128 x 256 tile (docs/design/epilogue.md).
#include <cuda_bf16.h>

#include <cute_dsl/epilogue/epilogue.hpp>
#include <cute_dsl/kernels/gemm_sm90_launch.hpp>

namespace ep = cute_dsl::epilogue;
using cute_dsl::GmmaMajor;

cudaError_t bias_gelu(const cute_dsl::kernels::GemmSm90Arguments<__nv_bfloat16, float>& args, const float* bias, float alpha,
                      cudaStream_t stream) {
  const auto tree = ep::gelu(alpha * ep::acc() + ep::col_broadcast(bias));
  return cute_dsl::kernels::gemm_sm90_fused_variant<GmmaMajor::K, GmmaMajor::K, 128, 6, 1>(args, tree, stream);
}
