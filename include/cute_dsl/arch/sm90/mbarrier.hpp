// mbarrier: the shared-memory barrier object (a 64-bit word) that Hopper pipelines are built on.
//
// An mbarrier counts two things per phase: pending ARRIVALS (set by init, counted down by arrive)
// and pending TRANSACTION BYTES (raised by expect_tx, lowered by the complete_tx of async copies:
// cp.async.bulk, TMA). The phase completes when both reach zero; the barrier then flips its phase
// bit and re-arms with the init count. Waiters name the PARITY of the phase they wait for:
// wait(bar, p) returns once the phase with parity p has completed. A fresh barrier is in phase 0,
// so wait(bar, 1) returns at once ("the phase before 0 is complete"), which is how the producer
// of a pipeline starts on empty buffers (pipeline/pipeline_state.hpp).
//
// Minimum architectures (PTX ISA, "Parallel Synchronization and Communication Instructions"):
//   sm_80: init, inval, arrive (count 1), test_wait (token and parity)
//   sm_90: arrive with a count, arrive.expect_tx, expect_tx, try_wait, shared::cluster (remote)
//          arrive, fence.mbarrier_init
// Each sm_90 wrapper fails to compile (naming the instruction) when instantiated for an older
// target: see arch/arch_requirement.hpp.
//
// All pointers are GENERIC pointers to __shared__ uint64_t; the wrappers convert them to the
// 32-bit shared-window address the instructions take.
#pragma once

#include "cute_dsl/arch/arch_requirement.hpp"
#include "cute_dsl/config.hpp"

// Device-side only: a plain host compiler sees nothing (it has neither asm for PTX nor libcu++).
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

#include <cuda/std/cstdint>

namespace cute_dsl::arch {

// The 32-bit address of `p` in the shared-memory window (what `[addr]` operands of .shared take).
CUTE_DSL_DEVICE inline cuda::std::uint32_t shared_address(const void* p) {
  return static_cast<cuda::std::uint32_t>(__cvta_generic_to_shared(p));
}

// The three probes (test_wait, test_wait.parity, try_wait.parity) answer in a predicate; this
// runs one probe `ptx` ("<instruction> p, [%1], %2;") on `bar` with `operand` (constraint `c`) and
// turns the predicate into a bool.
#define CUTE_DSL_MBARRIER_PROBE(ptx, c, bar, operand)                                           \
  cuda::std::uint32_t done = 0;                                                                 \
  asm volatile("{\n\t.reg .pred p;\n\t" ptx "\n\tselp.u32 %0, 1, 0, p;\n\t}"                      \
               : "=r"(done) : "r"(shared_address(bar)), c(operand) : "memory");                 \
  return done != 0

// mbarrier.init.shared.b64 [bar], count;                                              sm_80
// Must be done by ONE thread before any other use, then made visible: __syncthreads() within a
// CTA, fence_barrier_init() + cluster_sync() when peers of the cluster will arrive on it.
template <class Gate = void>
CUTE_DSL_DEVICE void mbarrier_init(cuda::std::uint64_t* bar, cuda::std::uint32_t arrive_count) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 80, "mbarrier.init");
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(shared_address(bar)), "r"(arrive_count)
               : "memory");
}

// mbarrier.inval.shared.b64 [bar];                                                    sm_80
// Required before the barrier's 8 bytes are reused as ordinary shared memory.
template <class Gate = void>
CUTE_DSL_DEVICE void mbarrier_invalidate(cuda::std::uint64_t* bar) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 80, "mbarrier.inval");
  asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(shared_address(bar)) : "memory");
}

// mbarrier.arrive.shared.b64 state, [bar];                                            sm_80
// One arrival (release semantics at CTA scope). Returns the phase token for mbarrier_test_wait.
template <class Gate = void>
CUTE_DSL_DEVICE cuda::std::uint64_t mbarrier_arrive(cuda::std::uint64_t* bar) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 80, "mbarrier.arrive");
  cuda::std::uint64_t state = 0;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(shared_address(bar)) : "memory");
  return state;
}

// mbarrier.arrive.shared.b64 state, [bar], count;                                     sm_90
// `count` arrivals at once (e.g. one elected thread arriving for its whole warp).
template <class Gate = void>
CUTE_DSL_DEVICE cuda::std::uint64_t mbarrier_arrive(cuda::std::uint64_t* bar, cuda::std::uint32_t count) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "mbarrier.arrive with a count");
  cuda::std::uint64_t state = 0;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1], %2;"
               : "=l"(state) : "r"(shared_address(bar)), "r"(count) : "memory");
  return state;
}

// mapa.shared::cluster.u32 remote, bar, cta;
// mbarrier.arrive.shared::cluster.b64 _, [remote];                                   sm_90
// One arrival on the barrier at the same shared offset in CTA `cta_rank` of the cluster (may be
// this CTA). Default (release, CTA-scope) semantics, as pipelines use it for "my reads of the
// buffer are done": cheap (no MEMBAR.GPU in SASS). To PUBLISH data written to a peer's shared
// memory (DSMEM) use mbarrier_arrive_cluster_release.
template <class Gate = void>
CUTE_DSL_DEVICE void mbarrier_arrive_cluster(cuda::std::uint64_t* bar, cuda::std::uint32_t cta_rank) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "mbarrier.arrive.shared::cluster (remote arrive)");
  asm volatile(
      "{\n\t.reg .b32 remote;\n\t"
      "mapa.shared::cluster.u32 remote, %0, %1;\n\t"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n\t}"
      ::"r"(shared_address(bar)), "r"(cta_rank) : "memory");
}

// mapa.shared::cluster.u32 remote, bar, cta;
// mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote];                    sm_90
// As mbarrier_arrive_cluster, with release at CLUSTER scope: a waiter in CTA `cta_rank` then sees
// every write this thread made before, including writes to other CTAs' shared memory.
template <class Gate = void>
CUTE_DSL_DEVICE void mbarrier_arrive_cluster_release(cuda::std::uint64_t* bar, cuda::std::uint32_t cta_rank) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "mbarrier.arrive.release.cluster.shared::cluster (remote arrive)");
  asm volatile(
      "{\n\t.reg .b32 remote;\n\t"
      "mapa.shared::cluster.u32 remote, %0, %1;\n\t"
      "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote];\n\t}"
      ::"r"(shared_address(bar)), "r"(cta_rank) : "memory");
}

// mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], bytes;                          sm_90
// One arrival that also raises the phase's pending transaction count by `bytes`: the producer's
// "I issued async copies of `bytes` bytes completing on this barrier". Issue it BEFORE (or in the
// same phase as) the copies; the phase cannot complete while bytes are pending.
template <class Gate = void>
CUTE_DSL_DEVICE void mbarrier_arrive_expect_tx(cuda::std::uint64_t* bar, cuda::std::uint32_t bytes) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "mbarrier.arrive.expect_tx");
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(bar)), "r"(bytes)
               : "memory");
}

// mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], bytes;                        sm_90
// Raises the pending transaction count WITHOUT arriving (several producers sharing one arrival).
template <class Gate = void>
CUTE_DSL_DEVICE void mbarrier_expect_tx(cuda::std::uint64_t* bar, cuda::std::uint32_t bytes) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "mbarrier.expect_tx");
  asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)), "r"(bytes)
               : "memory");
}

// mbarrier.test_wait.shared.b64 done, [bar], state;                                   sm_80
// Non-blocking: has the phase that `state` (from mbarrier_arrive) belongs to completed?
template <class Gate = void>
CUTE_DSL_DEVICE bool mbarrier_test_wait(cuda::std::uint64_t* bar, cuda::std::uint64_t state) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 80, "mbarrier.test_wait");
  CUTE_DSL_MBARRIER_PROBE("mbarrier.test_wait.shared.b64 p, [%1], %2;", "l", bar, state);
}

// mbarrier.test_wait.parity.shared.b64 done, [bar], parity;                           sm_80
// Non-blocking: has the phase with parity `parity` completed?
template <class Gate = void>
CUTE_DSL_DEVICE bool mbarrier_test_wait_parity(cuda::std::uint64_t* bar, cuda::std::uint32_t parity) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 80, "mbarrier.test_wait.parity");
  CUTE_DSL_MBARRIER_PROBE("mbarrier.test_wait.parity.shared.b64 p, [%1], %2;", "r", bar, parity);
}

// mbarrier.try_wait.parity.shared::cta.b64 done, [bar], parity;                       sm_90
// Like test_wait.parity, but the hardware may suspend the thread for a while before answering
// false, so a spin loop over it does not hammer the barrier.
template <class Gate = void>
CUTE_DSL_DEVICE bool mbarrier_try_wait_parity(cuda::std::uint64_t* bar, cuda::std::uint32_t parity) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "mbarrier.try_wait.parity");
  CUTE_DSL_MBARRIER_PROBE("mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;", "r", bar, parity);
}

// Blocks until the phase with parity `parity` has completed (acquire at CTA scope: writes released
// by the arrivals, and bytes written by complete_tx copies, are visible afterwards).
// sm_90: a try_wait loop; sm_80: a test_wait loop.
template <class Gate = void>
CUTE_DSL_DEVICE void mbarrier_wait(cuda::std::uint64_t* bar, cuda::std::uint32_t parity) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  while (!mbarrier_try_wait_parity<Gate>(bar, parity)) {
  }
#else
  while (!mbarrier_test_wait_parity<Gate>(bar, parity)) {
  }
#endif
}

// mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 done, [bar], parity;        sm_90
// try_wait with acquire at CLUSTER scope: pairs with mbarrier_arrive_cluster_release, so writes
// that peers made to any CTA's shared memory before arriving are visible once it answers true.
template <class Gate = void>
CUTE_DSL_DEVICE bool mbarrier_try_wait_parity_cluster(cuda::std::uint64_t* bar, cuda::std::uint32_t parity) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "mbarrier.try_wait.parity.acquire.cluster");
  CUTE_DSL_MBARRIER_PROBE("mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;", "r", bar, parity);
}

// mbarrier_wait with acquire at cluster scope (see mbarrier_try_wait_parity_cluster).          sm_90
template <class Gate = void>
CUTE_DSL_DEVICE void mbarrier_wait_cluster(cuda::std::uint64_t* bar, cuda::std::uint32_t parity) {
  while (!mbarrier_try_wait_parity_cluster<Gate>(bar, parity)) {
  }
}

// fence.mbarrier_init.release.cluster;                                                sm_90
// Makes this thread's mbarrier_init writes visible to the OTHER CTAs of the cluster (their remote
// arrives and multicast complete_tx). Only the init is ordered, which is cheaper than a full
// fence.acq_rel.cluster; follow it with cluster_arrive/cluster_wait (arch/sm90/cluster.hpp).
template <class Gate = void>
CUTE_DSL_DEVICE void fence_barrier_init() {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "fence.mbarrier_init.release.cluster");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

#undef CUTE_DSL_MBARRIER_PROBE

}  // namespace cute_dsl::arch

#endif  // __CUDACC__ || __CUDACC_RTC__
