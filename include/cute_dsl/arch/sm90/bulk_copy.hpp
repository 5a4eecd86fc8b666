// Plain (non-tensor) bulk copies: cp.async.bulk moves a contiguous run of bytes between global and
// shared memory on the async proxy (the TMA unit without a tensor map). Loads complete on an
// mbarrier by transaction bytes (arch/sm90/mbarrier.hpp); stores complete through bulk groups.
// Rules (PTX ISA, cp.async.bulk): size a multiple of 16 bytes, both addresses 16-byte aligned.
// Tensor (TMA) copies live in arch/sm90/tma*.hpp.
#pragma once

#include "cute_dsl/arch/arch_requirement.hpp"
#include "cute_dsl/arch/sm90/mbarrier.hpp"
#include "cute_dsl/config.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

#include <cuda/std/cstdint>

namespace cute_dsl::arch {

// cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], bytes, [bar];   sm_90
// Copies `bytes` from global `src` to this CTA's shared `dst`; when they have landed, `bytes`
// transaction bytes complete on `bar` (which someone must have announced with expect_tx).
template <class Gate = void>
CUTE_DSL_DEVICE void bulk_copy_g2s(void* dst, const void* src, cuda::std::uint32_t bytes, cuda::std::uint64_t* bar) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "cp.async.bulk.shared::cluster.global");
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               ::"r"(shared_address(dst)), "l"(src), "r"(bytes), "r"(shared_address(bar)) : "memory");
}

// cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
//     [dst], [src], bytes, [bar], cta_mask;                                           sm_90 (fast on sm_90a)
// As bulk_copy_g2s, into the same shared offset `dst` of every CTA whose bit is set in `cta_mask`;
// each receiving CTA's barrier at the offset of `bar` completes `bytes`.
template <class Gate = void>
CUTE_DSL_DEVICE void bulk_copy_g2s_multicast(void* dst, const void* src, cuda::std::uint32_t bytes,
                                             cuda::std::uint64_t* bar, cuda::std::uint16_t cta_mask) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "cp.async.bulk...multicast::cluster");
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1], %2, [%3], %4;"
      ::"r"(shared_address(dst)), "l"(src), "r"(bytes), "r"(shared_address(bar)), "h"(cta_mask) : "memory");
}

// cp.async.bulk.global.shared::cta.bulk_group [dst], [src], bytes;                    sm_90
// Copies `bytes` from shared `src` to global `dst`; completion is tracked by bulk groups: commit,
// then wait. Writes by threads to `src` must be made visible first with fence_view_async_shared().
template <class Gate = void>
CUTE_DSL_DEVICE void bulk_copy_s2g(void* dst, const void* src, cuda::std::uint32_t bytes) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "cp.async.bulk.global.shared::cta");
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
               ::"l"(dst), "r"(shared_address(src)), "r"(bytes) : "memory");
}

// cp.async.bulk.commit_group;                                                         sm_90
// Closes the group of this thread's bulk stores issued since the last commit.
template <class Gate = void>
CUTE_DSL_DEVICE void bulk_commit_group() {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "cp.async.bulk.commit_group");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

// cp.async.bulk.prefetch.L2.global [src], bytes;                                     sm_90
// Starts bringing `bytes` of global memory at `src` into L2 and returns at once: no shared memory,
// no completion to wait for (a hint; later loads of the range hit L2 if it is still there).
template <class Gate = void>
CUTE_DSL_DEVICE void bulk_prefetch_l2(const void* src, cuda::std::uint32_t bytes) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "cp.async.bulk.prefetch.L2.global");
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(src), "r"(bytes) : "memory");
}

// cp.async.bulk.wait_group N;                                                         sm_90
// Waits until at most `Pending` of this thread's committed bulk groups are incomplete (writes done).
template <int Pending, class Gate = void>
CUTE_DSL_DEVICE void bulk_wait_group() {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "cp.async.bulk.wait_group");
  asm volatile("cp.async.bulk.wait_group %0;" ::"n"(Pending) : "memory");
}

// cp.async.bulk.wait_group.read N;                                                    sm_90
// Weaker: only the SOURCE reads are done, so the shared buffer may be overwritten.
template <int Pending, class Gate = void>
CUTE_DSL_DEVICE void bulk_wait_group_read() {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "cp.async.bulk.wait_group.read");
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(Pending) : "memory");
}

}  // namespace cute_dsl::arch

#endif  // __CUDACC__ || __CUDACC_RTC__
