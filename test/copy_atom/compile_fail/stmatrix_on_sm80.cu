// stmatrix used in a kernel compiled for sm_80 (ARCH: 80): a compile error naming the instruction.
// (ldmatrix's sm_75 gate has no such test: CUDA 13's nvcc no longer targets sm_70.)
// EXPECT: stmatrix (SM90_*_STSM_*) needs sm_90 or newer
#include "cute_dsl/arch/sm90/stmatrix.hpp"
using namespace cute_dsl;
__global__ void k(const unsigned* in, uint128_t* out) {
  __shared__ uint128_t rows[32];
  unsigned r = in[threadIdx.x];
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
  SM90_U32x1_STSM_N::copy(r, rows[threadIdx.x]);
#else
  rows[threadIdx.x].lo = r;
#endif
  __syncwarp();
  out[threadIdx.x] = rows[threadIdx.x ^ 1];
}
