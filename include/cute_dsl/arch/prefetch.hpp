// Cache prefetches of global memory by a thread: the line holding an address is brought into the
// SM's L1 (and L2) or into L2 only, and the thread goes on (no register waits for it).
//
//   prefetch.global.L1 [a]    for data this SM's threads will read with ordinary loads soon
//                             (an epilogue's bias or scales, prefetched while the mainloop runs)
//   prefetch.global.L2 [a]    for data read later or by other SMs (a tile of C)
// Any SM this library targets has both (PTX ISA 2.0).
#pragma once

#include "cute_dsl/config.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

namespace cute_dsl::arch {

CUTE_DSL_DEVICE inline void prefetch_global_l1(const void* a) { asm volatile("prefetch.global.L1 [%0];" ::"l"(a)); }
CUTE_DSL_DEVICE inline void prefetch_global_l2(const void* a) { asm volatile("prefetch.global.L2 [%0];" ::"l"(a)); }

}  // namespace cute_dsl::arch

#endif  // __CUDACC__ || __CUDACC_RTC__
