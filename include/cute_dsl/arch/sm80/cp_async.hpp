// cp.async (sm_80+): asynchronous copy global -> shared that bypasses registers (SASS LDGSTS).
//
//   cp.async.ca.shared.global [dst], [src], cp-size{, src-size};   cp-size 4, 8, 16 (L1 + L2)
//   cp.async.cg.shared.global [dst], [src], 16{, src-size};        16 only (L2 only, skips L1)
//   cp.async.commit_group;  cp.async.wait_group N;  cp.async.wait_all;
//
// The _ZFILL forms take a predicate: when false, src-size is 0 and the destination is filled
// with zeros without reading the source (the ragged edge of a tile), so the destination never
// holds stale data. The copies of a thread complete in commit-group order: issue copies, call
// cp_async_fence(), later cp_async_wait<N>() to let at most N newer groups remain in flight.
// Waiting only orders this thread's copies: a __syncthreads() is still needed before others read.
//
// Minimum: sm_80 (compiling a use for a lower SM fails with a static_assert).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/arch/target.hpp"
#include "cute_dsl/arch/copy.hpp"

namespace cute_dsl {

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
namespace detail {
// One cp.async of `Bytes` bytes; `src_bytes` < Bytes zero-fills the rest (0: all zeros).
template <bool CacheGlobal, int Bytes>
CUTE_DSL_DEVICE inline void cp_async(void* smem_dst, void const* gmem_src, int src_bytes) {
  static_assert(arch::target_at_least<800, C<Bytes>>, "cp.async (SM80_CP_ASYNC_*) needs sm_80 or newer");
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async: cp-size must be 4, 8 or 16 bytes");
  static_assert(!CacheGlobal || Bytes == 16, "cp.async.cg: cp-size must be 16 bytes (use .ca for 4 and 8)");
  unsigned dst = smem_address(smem_dst);
  if constexpr (CacheGlobal)
    asm volatile("cp.async.cg.shared.global [%0], [%1], %2, %3;\n" ::"r"(dst), "l"(gmem_src), "n"(Bytes), "r"(src_bytes)
                 : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(dst), "l"(gmem_src), "n"(Bytes), "r"(src_bytes)
                 : "memory");
}
}  // namespace detail
#endif

namespace detail {
// The four ops below differ only in the cache operator and in taking a zero-fill predicate.
template <bool CacheGlobal, bool ZeroFill, class S, class D>
struct CpAsyncOp {
  using SRegisters = S[1];
  using DRegisters = D[1];
  static constexpr bool zero_fill = ZeroFill;  // copy_if(atom, ...) passes its predicate instead of skipping
  static_assert(sizeof(S) == sizeof(D), "SM80_CP_ASYNC_*: source and destination units must have the same size");
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
  // One S from global to one D in shared memory; with ZeroFill, copy(src, dst, false) writes
  // zeros to dst and does not read src.
  template <bool Z = ZeroFill>
    requires(!Z)
  CUTE_DSL_DEVICE static void copy(S const& gmem_src, D& smem_dst) {
    cp_async<CacheGlobal, int(sizeof(S))>(&smem_dst, &gmem_src, int(sizeof(S)));
  }
  template <bool Z = ZeroFill>
    requires Z
  CUTE_DSL_DEVICE static void copy(S const& gmem_src, D& smem_dst, bool valid) {
    cp_async<CacheGlobal, int(sizeof(S))>(&smem_dst, &gmem_src, valid ? int(sizeof(S)) : 0);
  }
#endif
};
}  // namespace detail

// cp.async.ca, 4/8/16 bytes (cached in L1 and L2). sm_80.
template <class S, class D = S> struct SM80_CP_ASYNC_CACHEALWAYS : detail::CpAsyncOp<false, false, S, D> {};
// cp.async.cg, 16 bytes (L2 only). sm_80.
template <class S, class D = S> struct SM80_CP_ASYNC_CACHEGLOBAL : detail::CpAsyncOp<true, false, S, D> {};
// The same with a zero-fill predicate: copy(src, dst, valid).
template <class S, class D = S> struct SM80_CP_ASYNC_CACHEALWAYS_ZFILL : detail::CpAsyncOp<false, true, S, D> {};
template <class S, class D = S> struct SM80_CP_ASYNC_CACHEGLOBAL_ZFILL : detail::CpAsyncOp<true, true, S, D> {};

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
// cp.async.commit_group: closes the group of this thread's cp.async issued since the last one.
template <class Dep = void>
CUTE_DSL_DEVICE inline void cp_async_fence() {
  static_assert(arch::target_at_least<800, Dep>, "cp.async.commit_group (cp_async_fence) needs sm_80 or newer");
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}

// cp.async.wait_group N: waits until at most N of this thread's committed groups are pending.
template <int N>
CUTE_DSL_DEVICE inline void cp_async_wait() {
  static_assert(arch::target_at_least<800, C<N>>, "cp.async.wait_group (cp_async_wait) needs sm_80 or newer");
  static_assert(N >= 0, "cp_async_wait<N>: N is a count of groups, N >= 0");
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// cp.async.wait_all: waits for every cp.async of this thread, committed or not.
template <class Dep = void>
CUTE_DSL_DEVICE inline void cp_async_wait_all() {
  static_assert(arch::target_at_least<800, Dep>, "cp.async.wait_all (cp_async_wait_all) needs sm_80 or newer");
  asm volatile("cp.async.wait_all;\n" ::: "memory");
}
#endif

}  // namespace cute_dsl
