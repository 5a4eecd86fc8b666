// Compiled for sm_90 (no "a") and sm_80 by expect_compile_fail.cmake: a kernel that uses wgmma
// must be rejected at compile time with the library's message, never built into an empty body.
#include "cute_dsl/arch/sm90/wgmma.hpp"

__global__ void uses_wgmma(float* out, unsigned long long desc_a, unsigned long long desc_b) {
  float d[32] = {};
  cute_dsl::warpgroup_arrive();
  cute_dsl::SM90_64xNx16_F32BF16BF16_SS<64>::fma(desc_a, desc_b, d, 0u);
  cute_dsl::warpgroup_commit_batch();
  cute_dsl::warpgroup_wait<0>();
  out[threadIdx.x] = d[0];
}
