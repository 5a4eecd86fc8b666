// The memory fences that pipelines need, each with the situation that requires it.
//
// Hopper has two "proxies" for shared memory: the GENERIC proxy (ordinary ld/st by threads) and
// the ASYNC proxy (TMA, cp.async.bulk, wgmma operand reads). Barriers order a proxy only with
// itself; crossing proxies needs fence.proxy.async. Scopes (cta < cluster < gpu) say which
// observers the ordering is guaranteed for.
#pragma once

#include "cute_dsl/arch/arch_requirement.hpp"
#include "cute_dsl/config.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

namespace cute_dsl::arch {

// fence.proxy.async.shared::cta;                                                      sm_90
// Threads wrote shared memory that the ASYNC proxy will read next: a TMA / bulk STORE from shared
// memory, or wgmma reading operands the threads just wrote. Each writing thread fences, then the
// threads synchronise, then one thread issues the async operation. Also needed in the other
// direction before threads overwrite a buffer the async proxy was reading.
template <class Gate = void>
CUTE_DSL_DEVICE void fence_view_async_shared() {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "fence.proxy.async.shared::cta");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// fence.proxy.async.global;                                                           sm_90
// Threads wrote global memory that a TMA load will read next (e.g. a kernel producing its own
// input), or must read what a bulk store wrote after its wait_group.
template <class Gate = void>
CUTE_DSL_DEVICE void fence_view_async_global() {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "fence.proxy.async.global");
  asm volatile("fence.proxy.async.global;" ::: "memory");
}

// fence.acq_rel.cluster;                                                              sm_90
// Orders this thread's memory accesses for every thread of the cluster: used around relaxed
// cluster barriers (cluster_arrive_relaxed) when data does need publishing after all, and before
// signalling a peer through a relaxed flag in its shared memory.
template <class Gate = void>
CUTE_DSL_DEVICE void fence_acq_rel_cluster() {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "fence.acq_rel.cluster");
  asm volatile("fence.acq_rel.cluster;" ::: "memory");
}

// fence.acq_rel.cta;                                                                  sm_70
// The CTA-scope version: orders shared-memory flag handoffs between warps that do not share a
// barrier. (__threadfence_block() is membar.cta, i.e. the stronger fence.sc.cta, not this.)
template <class Gate = void>
CUTE_DSL_DEVICE void fence_acq_rel_cta() {
  CUTE_DSL_REQUIRE_ARCH(Gate, 70, "fence.acq_rel.cta");
  asm volatile("fence.acq_rel.cta;" ::: "memory");
}

}  // namespace cute_dsl::arch

#endif  // __CUDACC__ || __CUDACC_RTC__
