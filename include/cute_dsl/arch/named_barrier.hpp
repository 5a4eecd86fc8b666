// Named barriers: synchronise a subset of a CTA's warps (e.g. the consumer warpgroups of a
// warp-specialized kernel) without stalling the others, which __syncthreads() (barrier 0, all
// threads) would deadlock on when the producer never reaches it.
//
//   bar.sync id, threads;     id in [1, 16) (0 is __syncthreads), threads a multiple of 32
//   bar.arrive id, threads;   counts the warp in without waiting (a producer signalling consumers)
// Every warp that takes part executes one of them; the barrier completes when `threads` threads
// arrived. Memory: what an arriving thread wrote or observed (e.g. acquired) before bar.arrive is
// visible to the threads that then leave bar.sync of the same barrier (the PTX memory model's
// barrier synchronisation).
// Minimum: sm_70 (every target this library supports).
#pragma once

#include "cute_dsl/config.hpp"

namespace cute_dsl::arch {

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
// @pre 1 <= id < 16; threads is a multiple of 32 and is the same for every participant.
CUTE_DSL_DEVICE inline void named_barrier_sync(unsigned id, unsigned threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
// @pre as named_barrier_sync; the arriving warp must not arrive again on `id` before the barrier
// completed (nothing counts generations)
CUTE_DSL_DEVICE inline void named_barrier_arrive(unsigned id, unsigned threads) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
#endif

}  // namespace cute_dsl::arch
