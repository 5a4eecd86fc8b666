// copy_box: what a TMA load does, done by a group of threads with ordinary loads and stores, for
// operands a tensor map cannot describe (a leading dimension or batch stride that is not a
// multiple of 16 bytes, a base address that is not 16-byte aligned).
//
//   GlobalBox<T> g{ptr, {ext0, ext1, ext2}, {ld1, ld2}};     // dimension 0 contiguous, like a tensor map
//   copy_box<128>(g, TmaBox<3>{{c0, c1, c2}}, sTile, thread);  // sTile: the box's shared tensor
//
// Element (i0, i1, i2) of the shared tile gets global element (c0 + i0, c1 + i1, c2 + i2), or
// zero past an extent (TMA's zero fill): the same tile the TMA atom would have written, in the
// same (swizzled) layout, so the consumers cannot tell which path filled it. Consecutive threads
// take consecutive elements along dimension 0, so a warp's loads are contiguous in global memory.
// The caller orders the stores for their readers (fence_view_async_shared before wgmma reads them,
// then a barrier or an mbarrier arrive).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/tensor/tensor.hpp"
#include "cute_dsl/atom/tma_atom.hpp"

namespace cute_dsl {

// A rank-3 global tensor as a tensor map sees it: extents and element strides of dimensions 1, 2
// (dimension 0 has stride 1).
template <class T>
struct GlobalBox {
  T const* ptr;
  int extent[3];
  long long stride[2];
};

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
// @pre dst is a static (E0, E1, 1) tensor in shared memory; 0 <= thread < Threads.
template <int Threads, class T, class DTensor>
CUTE_DSL_DEVICE void copy_box(GlobalBox<T> const& src, TmaBox<3> const& origin, DTensor&& dst, int thread) {
  constexpr int e0 = int(decltype(size<0>(dst))::value), e1 = int(decltype(size<1>(dst))::value);
  static_assert(decltype(size<2>(dst))::value == 1, "copy_box: one batch per box");
  constexpr int n = e0 * e1;
  static_assert(n % Threads == 0, "copy_box: the box's elements must be a multiple of the threads");
  constexpr int per_thread = n / Threads, batch = 4;  // loads in flight per thread
  T const* base = src.ptr + origin.crd[2] * src.stride[1];
  const bool batch_ok = origin.crd[2] < src.extent[2];
  CUTE_DSL_UNROLL
  for (int j0 = 0; j0 < per_thread; j0 += batch) {
    T v[batch];
    CUTE_DSL_UNROLL
    for (int j = 0; j < batch && j0 + j < per_thread; ++j) {
      const int i = (j0 + j) * Threads + thread, i0 = i % e0, i1 = i / e0;
      const int g0 = origin.crd[0] + i0, g1 = origin.crd[1] + i1;
      v[j] = batch_ok && g0 < src.extent[0] && g1 < src.extent[1] ? base[g1 * src.stride[0] + g0] : T(0.f);
    }
    CUTE_DSL_UNROLL
    for (int j = 0; j < batch && j0 + j < per_thread; ++j) {
      const int i = (j0 + j) * Threads + thread;
      dst(make_coord(i % e0, i / e0, 0)) = v[j];
    }
  }
}
#endif

}  // namespace cute_dsl
