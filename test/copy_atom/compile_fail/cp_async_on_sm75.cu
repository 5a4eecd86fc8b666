// cp.async used in a kernel compiled for sm_75 (ARCH: 75): a compile error naming the instruction.
// EXPECT: cp.async (SM80_CP_ASYNC_*) needs sm_80 or newer
#include "cute_dsl/arch/sm80/cp_async.hpp"
using namespace cute_dsl;
__global__ void k(const uint128_t* in, uint128_t* out) {
  __shared__ uint128_t s[32];
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
  SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>::copy(in[threadIdx.x], s[threadIdx.x]);
#else
  s[threadIdx.x] = in[threadIdx.x];
#endif
  out[threadIdx.x] = s[threadIdx.x];
}
