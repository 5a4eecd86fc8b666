// cooperative_copy<NumThreads>(tid, src, dst): NumThreads threads (tid in [0, NumThreads)) copy
// src to dst together, element i of the 1-D order by thread i % NumThreads, so that neighbouring
// threads touch neighbouring addresses (coalesced global accesses, conflict-free shared ones).
//
// Vectorised where the layouts allow: if both layouts (coalesced, when static) start with a
// static unit-stride run whose size V divides, and every other stride is a multiple of V, then V
// consecutive elements are one aligned 4-, 8- or 16-byte access in both tensors and the copy
// moves such vectors (the widest that fits, at most MaxVecBytes). Static strides are checked at
// compile time; run-time strides (a global tile's leading dimension) and the base pointers'
// alignment at run time. Anything else takes the element-wise path. No synchronisation: the
// caller fences/barriers as its memory spaces need (__syncthreads() after filling shared memory).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/container/tuple_algorithms.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/coalesce.hpp"
#include "cute_dsl/tensor/pointer.hpp"
#include "cute_dsl/tensor/tensor.hpp"
#include "cute_dsl/tensor/recast.hpp"
#include "cute_dsl/algorithm/tensor_checks.hpp"

namespace cute_dsl {

namespace detail {
// Trivially copyable blocks of 4, 8 and 16 bytes whose alignment makes the compiler use one
// vector load/store (LDG.128 / LDS.128 for 16 bytes).
template <int Bytes> struct alignas(Bytes) vector_block { unsigned int words[Bytes / 4]; };

template <class S, class D, unsigned long... Ks>
CUTE_DSL_HOST_DEVICE constexpr bool rest_strides_divisible(S const& s, D const& d, long long v, index_sequence<Ks...>) {
  return (true && ... && (Ks == 0 || (long long)(get<Ks>(d)) % v == 0 || (long long)(get<Ks>(s)) == 1));
}
// The layout whose 1-D order is walked in vectors: coalesced when static (contiguous modes merge
// at compile time), as given otherwise (coalescing run-time modes would prove nothing).
template <class L>
CUTE_DSL_HOST_DEVICE constexpr auto vector_walk_layout(L const& l) {
  if constexpr (is_static_v<L>) return coalesce(l);
  else return l;
}
template <class L> using vector_walk_t = decltype(vector_walk_layout(declval<L const&>()));

// What the types decide: leaf 0 of the walked layout is a unit-stride run of static size that
// v divides.
template <class W>
CUTE_DSL_HOST_DEVICE constexpr bool leading_run_allows(long long v) {
  using FS = decltype(flatten_to_tuple(declval<W const&>().shape()));
  using FD = decltype(flatten_to_tuple(declval<W const&>().stride()));
  using S0 = remove_cvref_t<tuple_element_t<0, FS>>;
  using D0 = remove_cvref_t<tuple_element_t<0, FD>>;
  if constexpr (is_C_v<S0> && is_C_v<D0>) return D0::value == 1 && S0::value % v == 0;
  else return false;
}
// Every other leaf's stride is a multiple of v (or its size is 1), so every vector starts
// v-aligned relative to the base: decided by the compiler for static strides, at run time else.
template <class W>
CUTE_DSL_HOST_DEVICE constexpr bool rest_strides_allow(W const& w, long long v) {
  auto s = flatten_to_tuple(w.shape());
  auto d = flatten_to_tuple(w.stride());
  return rest_strides_divisible(s, d, v, tuple_seq<decltype(s)>{});
}
template <class L>
CUTE_DSL_HOST_DEVICE constexpr bool vector_candidate(long long v) {
  using W = vector_walk_t<L>;
  if (!leading_run_allows<W>(v)) return false;
  if constexpr (is_static_v<W>) return rest_strides_allow(W{}, v);
  else return true;  // the run-time strides are checked at run time
}

// The widest vector (in elements of T) both layouts allow, at most MaxBytes; 1 if none.
template <class T, int MaxBytes, class LS, class LD>
CUTE_DSL_HOST_DEVICE constexpr int common_vector_elements() {
  for (int bytes = MaxBytes; bytes >= 4; bytes /= 2) {
    if (bytes % int(sizeof(T)) != 0 || bytes <= int(sizeof(T))) continue;
    const int v = bytes / int(sizeof(T));
    if (vector_candidate<LS>(v) && vector_candidate<LD>(v)) return v;
  }
  return 1;
}

template <class P>
CUTE_DSL_HOST_DEVICE inline unsigned long long address_bits(P const& p) {
  return (unsigned long long)(raw_pointer(p));
}
}  // namespace detail

template <int NumThreads, int MaxVecBytes = 16, class Idx, class Src, class Dst>
  requires(is_tensor_v<Src> && is_tensor_v<Dst> && is_integral_v<Idx>)
CUTE_DSL_HOST_DEVICE void cooperative_copy(Idx const& tid, Src const& src, Dst&& dst) {
  static_assert(NumThreads > 0, "cooperative_copy: NumThreads must be positive");
  static_assert(MaxVecBytes == 4 || MaxVecBytes == 8 || MaxVecBytes == 16, "cooperative_copy: MaxVecBytes is 4, 8 or 16");
  static_assert(!detail::static_sizes_differ_v<Src, remove_cvref_t<Dst>>, "cooperative_copy: src and dst must have the same size");
  using DstT = remove_cvref_t<Dst>;
  using T = typename DstT::value_type;
  using LS = typename Src::layout_type;
  using LD = typename DstT::layout_type;
  constexpr bool same_type = is_same_v<typename Src::value_type, T>;
  constexpr bool pointers = (is_tagged_ptr_v<typename Src::iterator> || is_raw_pointer_v<typename Src::iterator>) &&
                            (is_tagged_ptr_v<typename DstT::iterator> || is_raw_pointer_v<typename DstT::iterator>);
  constexpr int V = (same_type && pointers) ? detail::common_vector_elements<T, MaxVecBytes, LS, LD>() : 1;
  const int t = int(tid);
  if constexpr (V > 1) {
    constexpr unsigned long long vbytes = V * sizeof(T);
    auto ws = detail::vector_walk_layout(src.layout());
    auto wd = detail::vector_walk_layout(dst.layout());
    const bool aligned = ((detail::address_bits(src.data()) | detail::address_bits(dst.data())) & (vbytes - 1)) == 0;
    if (aligned && detail::rest_strides_allow(ws, V) && detail::rest_strides_allow(wd, V)) {
      using Vec = detail::vector_block<int(vbytes)>;
      auto vs = make_tensor(recast_ptr<Vec const>(src.data()), upcast<V>(ws));
      auto vd = make_tensor(recast_ptr<Vec>(dst.data()), upcast<V>(wd));
      const int n = int(size(vd));
      for (int i = t; i < n; i += NumThreads) vd(i) = vs(i);
      return;
    }
  }
  const int n = int(size(dst));
  for (int i = t; i < n; i += NumThreads) dst(i) = src(i);
}

}  // namespace cute_dsl
