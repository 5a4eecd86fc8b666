// TMA (sm_90+): bulk tensor copies between global and shared memory described by a tensor map
// (CUtensorMap, built on the host by arch/sm90/tma_descriptor.hpp). SASS UTMALDG / UTMASTG.
//
// Load, completion through an mbarrier's transaction count (the caller arms the barrier with the
// tile's byte count, mbarrier.arrive.expect_tx, and waits on its phase):
//   cp.async.bulk.tensor.Nd.shared::cluster.global.mbarrier::complete_tx::bytes
//       [smem], [tensor_map, {c0, ..., cN-1}], [mbar];
// Multicast load: the same tile lands at the same smem offset, and completes on the mbarrier at
// the same offset, in every CTA of the cluster whose bit is set in the 16-bit mask:
//   ... .multicast::cluster [smem], [tensor_map, {c0, ...}], [mbar], mask;
// With an L2 eviction policy (a 64-bit createpolicy value, e.g. l2_evict_first_policy below):
//   ... .L2::cache_hint [smem], [tensor_map, {c0, ...}], [mbar]{, mask}, policy;
// Store, completion through bulk async-groups (commit, then wait until the smem source was read):
//   cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group [tensor_map, {c0, ...}], [smem];
//   cp.async.bulk.commit_group;  cp.async.bulk.wait_group.read N;
//
// Coordinates are element indices of the box's first element, innermost dimension first
// (c0 walks the contiguous dimension); a box that reaches past the tensor is clipped on store and
// filled on load (zeros, or NaN per the map's oobFill). `tensor_map` is the generic address of a
// CUtensorMap in param, const or global space (e.g. the address of a __grid_constant__ kernel
// parameter). The mbarrier is passed as its 32-bit shared address (smem_address(&bar)).
//
// Writes to shared memory by threads (generic proxy) must be made visible to the TMA unit (async
// proxy) before a store reads them: tma_store_fence() by the writing threads, then a barrier.
//
// Minimum: sm_90 for every function here.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/arch/target.hpp"
#include "cute_dsl/arch/copy.hpp"

namespace cute_dsl {

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

#define CUTE_DSL_TMA_REQUIRE_SM90(what, Dep) \
  static_assert(arch::target_at_least<900, Dep>, what " (TMA) needs sm_90 or newer")

// TMA load of a box into shared memory, completing on an mbarrier. 1 to 5 coordinates.
struct SM90_TMA_LOAD {
  template <class... Crd>
  CUTE_DSL_DEVICE static void copy(void const* tensor_map, unsigned mbar, void* smem_dst, Crd... crd) {
    issue<false>(0ull, tensor_map, mbar, smem_dst, crd...);
  }
  // The same with an L2 eviction policy (.L2::cache_hint; l2_evict_first_policy below).
  template <class... Crd>
  CUTE_DSL_DEVICE static void copy_with_policy(unsigned long long policy, void const* tensor_map, unsigned mbar, void* smem_dst,
                                               Crd... crd) {
    issue<true>(policy, tensor_map, mbar, smem_dst, crd...);
  }
  template <bool WithPolicy, class... Crd>
  CUTE_DSL_DEVICE static void issue(unsigned long long policy, void const* tensor_map, unsigned mbar, void* smem_dst, Crd... crd) {
    CUTE_DSL_TMA_REQUIRE_SM90("cp.async.bulk.tensor load (SM90_TMA_LOAD)", Crd...);
    static_assert(sizeof...(Crd) >= 1 && sizeof...(Crd) <= 5, "SM90_TMA_LOAD: a tensor map has 1 to 5 dimensions");
    static_assert((is_same_v<Crd, int> && ...), "SM90_TMA_LOAD: coordinates are int");
    unsigned dst = smem_address(smem_dst);
    int c[5] = {crd...};
    auto m = reinterpret_cast<unsigned long long>(tensor_map);
    if constexpr (sizeof...(Crd) == 1) {
      if constexpr (WithPolicy)
        asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
                     " [%0], [%1, {%3}], [%2], %4;" ::"r"(dst), "l"(m), "r"(mbar), "r"(c[0]), "l"(policy) : "memory");
      else
        asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3}], [%2];"
                     ::"r"(dst), "l"(m), "r"(mbar), "r"(c[0]) : "memory");
    } else if constexpr (sizeof...(Crd) == 2) {
      if constexpr (WithPolicy)
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
                     " [%0], [%1, {%3, %4}], [%2], %5;" ::"r"(dst), "l"(m), "r"(mbar), "r"(c[0]), "r"(c[1]), "l"(policy) : "memory");
      else
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];"
                     ::"r"(dst), "l"(m), "r"(mbar), "r"(c[0]), "r"(c[1]) : "memory");
    } else if constexpr (sizeof...(Crd) == 3) {
      if constexpr (WithPolicy)
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
                     " [%0], [%1, {%3, %4, %5}], [%2], %6;" ::"r"(dst), "l"(m), "r"(mbar), "r"(c[0]), "r"(c[1]), "r"(c[2]), "l"(policy) : "memory");
      else
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2];"
                     ::"r"(dst), "l"(m), "r"(mbar), "r"(c[0]), "r"(c[1]), "r"(c[2]) : "memory");
    } else if constexpr (sizeof...(Crd) == 4) {
      if constexpr (WithPolicy)
        asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
                     " [%0], [%1, {%3, %4, %5, %6}], [%2], %7;" ::"r"(dst), "l"(m), "r"(mbar), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "l"(policy) : "memory");
      else
        asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6}], [%2];"
                     ::"r"(dst), "l"(m), "r"(mbar), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]) : "memory");
    } else {
      if constexpr (WithPolicy)
        asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
                     " [%0], [%1, {%3, %4, %5, %6, %7}], [%2], %8;" ::"r"(dst), "l"(m), "r"(mbar), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "l"(policy) : "memory");
      else
        asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6, %7}], [%2];"
                     ::"r"(dst), "l"(m), "r"(mbar), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]) : "memory");
    }
  }
};

// TMA load multicast to the CTAs of the cluster in `cta_mask` (bit i: the CTA of rank i).
struct SM90_TMA_LOAD_MULTICAST {
  template <class... Crd>
  CUTE_DSL_DEVICE static void copy(void const* tensor_map, unsigned mbar, unsigned short cta_mask, void* smem_dst,
                                   Crd... crd) {
    issue<false>(0ull, tensor_map, mbar, cta_mask, smem_dst, crd...);
  }
  // The same with an L2 eviction policy (.L2::cache_hint; l2_evict_first_policy below).
  template <class... Crd>
  CUTE_DSL_DEVICE static void copy_with_policy(unsigned long long policy, void const* tensor_map, unsigned mbar,
                                               unsigned short cta_mask, void* smem_dst, Crd... crd) {
    issue<true>(policy, tensor_map, mbar, cta_mask, smem_dst, crd...);
  }
  template <bool WithPolicy, class... Crd>
  CUTE_DSL_DEVICE static void issue(unsigned long long policy, void const* tensor_map, unsigned mbar, unsigned short cta_mask,
                                    void* smem_dst, Crd... crd) {
    CUTE_DSL_TMA_REQUIRE_SM90("cp.async.bulk.tensor multicast load (SM90_TMA_LOAD_MULTICAST)", Crd...);
    static_assert(sizeof...(Crd) >= 1 && sizeof...(Crd) <= 5, "SM90_TMA_LOAD_MULTICAST: a tensor map has 1 to 5 dimensions");
    static_assert((is_same_v<Crd, int> && ...), "SM90_TMA_LOAD_MULTICAST: coordinates are int");
    unsigned dst = smem_address(smem_dst);
    int c[5] = {crd...};
    auto m = reinterpret_cast<unsigned long long>(tensor_map);
    if constexpr (sizeof...(Crd) == 1) {
      if constexpr (WithPolicy)
        asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint"
                     " [%0], [%1, {%4}], [%2], %3, %5;" ::"r"(dst), "l"(m), "r"(mbar), "h"(cta_mask), "r"(c[0]), "l"(policy) : "memory");
      else
        asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                     " [%0], [%1, {%4}], [%2], %3;" ::"r"(dst), "l"(m), "r"(mbar), "h"(cta_mask), "r"(c[0]) : "memory");
    } else if constexpr (sizeof...(Crd) == 2) {
      if constexpr (WithPolicy)
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint"
                     " [%0], [%1, {%4, %5}], [%2], %3, %6;" ::"r"(dst), "l"(m), "r"(mbar), "h"(cta_mask), "r"(c[0]), "r"(c[1]), "l"(policy) : "memory");
      else
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                     " [%0], [%1, {%4, %5}], [%2], %3;" ::"r"(dst), "l"(m), "r"(mbar), "h"(cta_mask), "r"(c[0]), "r"(c[1]) : "memory");
    } else if constexpr (sizeof...(Crd) == 3) {
      if constexpr (WithPolicy)
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint"
                     " [%0], [%1, {%4, %5, %6}], [%2], %3, %7;" ::"r"(dst), "l"(m), "r"(mbar), "h"(cta_mask), "r"(c[0]), "r"(c[1]), "r"(c[2]), "l"(policy) : "memory");
      else
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                     " [%0], [%1, {%4, %5, %6}], [%2], %3;" ::"r"(dst), "l"(m), "r"(mbar), "h"(cta_mask), "r"(c[0]), "r"(c[1]), "r"(c[2]) : "memory");
    } else if constexpr (sizeof...(Crd) == 4) {
      if constexpr (WithPolicy)
        asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint"
                     " [%0], [%1, {%4, %5, %6, %7}], [%2], %3, %8;" ::"r"(dst), "l"(m), "r"(mbar), "h"(cta_mask), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "l"(policy) : "memory");
      else
        asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                     " [%0], [%1, {%4, %5, %6, %7}], [%2], %3;" ::"r"(dst), "l"(m), "r"(mbar), "h"(cta_mask), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]) : "memory");
    } else {
      if constexpr (WithPolicy)
        asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint"
                     " [%0], [%1, {%4, %5, %6, %7, %8}], [%2], %3, %9;" ::"r"(dst), "l"(m), "r"(mbar), "h"(cta_mask), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "l"(policy) : "memory");
      else
        asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                     " [%0], [%1, {%4, %5, %6, %7, %8}], [%2], %3;" ::"r"(dst), "l"(m), "r"(mbar), "h"(cta_mask), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]) : "memory");
    }
  }
};

// An L2 eviction policy for the loads above (createpolicy.fractional.L2::evict_first, fraction
// 1.0): every line they bring in is evicted first -- for operand tiles dead after their last read,
// so that they replace each other instead of lines still wanted (or, after a kernel that wrote
// much, instead of dirty lines whose write-back the loads would wait behind). Loads without a
// policy are the plain instruction: an explicit evict_normal policy on every load of a GEMM ran
// 3-37% slower than none (H200, 2026-11-28, bench/results/gemm_probes_session23_h200_2026-11-28.txt).
// (A template so that only a use, not the declaration, needs sm_90: Dep defers the check.)
template <class Dep = void>
CUTE_DSL_DEVICE unsigned long long l2_evict_first_policy() {
  CUTE_DSL_TMA_REQUIRE_SM90("createpolicy (l2_evict_first_policy)", Dep);
  unsigned long long policy;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}

// TMA store of a box from shared memory, completing through bulk async-groups.
struct SM90_TMA_STORE {
  template <class... Crd>
  CUTE_DSL_DEVICE static void copy(void const* tensor_map, void const* smem_src, Crd... crd) {
    CUTE_DSL_TMA_REQUIRE_SM90("cp.async.bulk.tensor store (SM90_TMA_STORE)", Crd...);
    static_assert(sizeof...(Crd) >= 1 && sizeof...(Crd) <= 5, "SM90_TMA_STORE: a tensor map has 1 to 5 dimensions");
    static_assert((is_same_v<Crd, int> && ...), "SM90_TMA_STORE: coordinates are int");
    unsigned src = smem_address(smem_src);
    int c[5] = {crd...};
    auto m = reinterpret_cast<unsigned long long>(tensor_map);
    if constexpr (sizeof...(Crd) == 1)
      asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.bulk_group [%0, {%2}], [%1];"
                   ::"l"(m), "r"(src), "r"(c[0]) : "memory");
    else if constexpr (sizeof...(Crd) == 2)
      asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];"
                   ::"l"(m), "r"(src), "r"(c[0]), "r"(c[1]) : "memory");
    else if constexpr (sizeof...(Crd) == 3)
      asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];"
                   ::"l"(m), "r"(src), "r"(c[0]), "r"(c[1]), "r"(c[2]) : "memory");
    else if constexpr (sizeof...(Crd) == 4)
      asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.bulk_group [%0, {%2, %3, %4, %5}], [%1];"
                   ::"l"(m), "r"(src), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]) : "memory");
    else
      asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.bulk_group [%0, {%2, %3, %4, %5, %6}], [%1];"
                   ::"l"(m), "r"(src), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]) : "memory");
  }
};

// cp.async.bulk.commit_group: closes the group of this thread's TMA stores issued since the last.
template <class Dep = void>
CUTE_DSL_DEVICE inline void tma_store_arrive() {
  CUTE_DSL_TMA_REQUIRE_SM90("cp.async.bulk.commit_group (tma_store_arrive)", Dep);
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

// cp.async.bulk.wait_group.read N: at most N newer groups still READ their shared source (the
// smem may be reused). The global writes may still be in flight: see tma_store_wait_complete.
template <int N>
CUTE_DSL_DEVICE inline void tma_store_wait() {
  CUTE_DSL_TMA_REQUIRE_SM90("cp.async.bulk.wait_group.read (tma_store_wait)", C<N>);
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
}

// cp.async.bulk.wait_group N: at most N newer groups incomplete (global writes performed).
template <int N>
CUTE_DSL_DEVICE inline void tma_store_wait_complete() {
  CUTE_DSL_TMA_REQUIRE_SM90("cp.async.bulk.wait_group (tma_store_wait_complete)", C<N>);
  asm volatile("cp.async.bulk.wait_group %0;" ::"n"(N) : "memory");
}

// fence.proxy.async.shared::cta: this thread's generic-proxy writes to shared memory become
// visible to the async proxy (a following TMA store reads them).
template <class Dep = void>
CUTE_DSL_DEVICE inline void tma_store_fence() {
  CUTE_DSL_TMA_REQUIRE_SM90("fence.proxy.async.shared::cta (tma_store_fence)", Dep);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// prefetch.tensormap: bring a tensor map into the descriptor cache ahead of its first use.
template <class Dep = void>
CUTE_DSL_DEVICE inline void prefetch_tma_descriptor(void const* tensor_map) {
  CUTE_DSL_TMA_REQUIRE_SM90("prefetch.tensormap (prefetch_tma_descriptor)", Dep);
  asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<unsigned long long>(tensor_map)) : "memory");
}

// fence.proxy.tensormap::generic.acquire.gpu: before using a tensor map in GLOBAL memory that was
// written (or modified) by generic-proxy stores, e.g. by another kernel or with st.global; not
// needed for a map passed as a __grid_constant__ parameter.
template <class Dep = void>
CUTE_DSL_DEVICE inline void tma_descriptor_fence_acquire(void const* gmem_tensor_map) {
  CUTE_DSL_TMA_REQUIRE_SM90("fence.proxy.tensormap::generic.acquire (tma_descriptor_fence_acquire)", Dep);
  asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(reinterpret_cast<unsigned long long>(gmem_tensor_map))
               : "memory");
}

#undef CUTE_DSL_TMA_REQUIRE_SM90
#endif  // __CUDACC__ || __CUDACC_RTC__

}  // namespace cute_dsl
