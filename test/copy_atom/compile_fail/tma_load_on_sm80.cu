// A TMA load used in a kernel compiled for sm_80 (ARCH: 80): a compile error naming the instruction.
// EXPECT: cp.async.bulk.tensor load (SM90_TMA_LOAD) (TMA) needs sm_90 or newer
#include "cute_dsl/arch/sm90/tma_copy.hpp"
using namespace cute_dsl;
__global__ void k(const void* map, float* out) {
  __shared__ alignas(128) float box[64];
  __shared__ alignas(8) unsigned long long bar;
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
  SM90_TMA_LOAD::copy(map, smem_address(&bar), box, 0, 0);
#else
  (void)map;
  box[threadIdx.x] = float(bar);
#endif
  out[threadIdx.x] = box[threadIdx.x];
}
