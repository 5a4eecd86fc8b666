// The fused kernels with the arch-specific pieces this library adds around the GEMM -- the
// all-gather's gated producer (fence.proxy.async.global), the all-reduce's routed epilogue, an
// epilogue tree with GELU (tanh.approx on sm_75+) and a bias -- compiled (not run)
// with the command lines of test/arch_cmdline/CMakeLists.txt: every pass that is not sm_90a must
// compile them to a trap, never fail.
#include <cuda_bf16.h>
#include <cute_dsl/epilogue/epilogue.hpp>
#include <cute_dsl/kernels/gemm_sm90_all_gather.hpp>
#include <cute_dsl/kernels/gemm_sm90_reduce_scatter.hpp>
namespace kn = cute_dsl::kernels;
namespace ep = cute_dsl::epilogue;
using T = __nv_bfloat16;
using K = cute_dsl::GmmaMajor;
cudaError_t ag(const kn::GemmSm90Arguments<T, T>& a, cute_dsl::dist::SymmetricView w, cudaStream_t s) {
  return kn::gemm_sm90_all_gather<K::K, K::K, 128, 6, 1>(a, ep::all_gather_a<T>(w, {a.shape.m, a.shape.k, w.world, 2}, 1u, ep::acc()), s);
}
cudaError_t ar(const kn::GemmSm90Arguments<T, T>& a, cute_dsl::dist::SymmetricView w, cudaStream_t s) {
  return kn::gemm_sm90_reduce_scatter<K::K, K::K, 128, 6, 1>(a, ep::all_reduce<T>(w, {a.shape.m, a.shape.n, w.world, 2}, 1u, ep::acc()), s);
}
cudaError_t gelu(const kn::GemmSm90Arguments<T, T>& a, const float* bias, cudaStream_t s) {
  return kn::gemm_sm90_fused_variant<K::K, K::K, 128, 6, 1>(a, ep::gelu_tanh(ep::acc() + ep::col_broadcast(bias)), s);
}
