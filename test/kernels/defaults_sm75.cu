// The default instantiations of the elementwise and transpose kernels (elementwise_defaults.hpp)
// compile for sm_75: the default access policy is plain loads and stores, so only the cache-hinted
// policies (elementwise_access.hpp) need sm_80. Compiled by the kernels.defaults_sm75 test; never run.
#include <cuda_bf16.h>

#include "cute_dsl/kernels/elementwise.hpp"
#include "cute_dsl/kernels/transpose_vectorized.hpp"

namespace ck = cute_dsl::kernels;

// Taking each kernel's address instantiates it.
void cute_dsl_defaults_sm75_instantiate_all() {
  (void)reinterpret_cast<const void*>(&ck::copy_kernel<float>);
  (void)reinterpret_cast<const void*>(&ck::elementwise_binary_kernel<float, ck::Add>);
  (void)reinterpret_cast<const void*>(&ck::elementwise_binary_kernel<__nv_bfloat16, ck::Axpby>);
  (void)reinterpret_cast<const void*>(&ck::elementwise_unary_kernel<float, ck::Gelu>);
  (void)reinterpret_cast<const void*>(&ck::elementwise_unary_kernel<float, ck::GeluTanhApprox>);
  (void)reinterpret_cast<const void*>(&ck::transpose_vec4_kernel<float>);
}
