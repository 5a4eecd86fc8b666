// The layout of a register fragment made like a given layout (CuTe's make_fragment_like):
//   the same shape, compact;
//   mode 0 column-major and fastest (it is the "values of one thread/instruction" mode);
//   for a static shape of rank > 1, the other modes' leaves packed in the order of the source's
//   strides (smallest |stride| fastest, ties by position), so that a fragment of a row-major
//   tile is row-major too and a copy between them walks both in the same order;
//   otherwise (run-time shape, or rank 1) column-major.
//   make_fragment_layout((_4,_8):(_64,_2)) == (_4,_8):(_1,_4)
//   make_fragment_layout((_2,_3,_4):(_1,_8,_2)) == (_2,_3,_4):(_1,_8,_2)   (mode 2 before mode 1)
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/container/tuple.hpp"
#include "cute_dsl/container/tuple_algorithms.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/tensor/leaf_index.hpp"

namespace cute_dsl {

namespace detail {
template <class T> CUTE_DSL_HOST_DEVICE constexpr long long abs_ll(T v) { return v < 0 ? -(long long)v : (long long)v; }

// The compact stride of leaf i when the leaves are packed in increasing |stride| order, starting
// at `start`. A size-1 leaf gets 0, as compact_col_major gives it.
template <class FS, class FD, unsigned long... Js>
CUTE_DSL_HOST_DEVICE constexpr long long ordered_stride(unsigned long i, long long start, index_sequence<Js...>) {
  long long s[] = {(long long)(tuple_element_t<Js, FS>::value)...};
  long long d[] = {abs_ll(tuple_element_t<Js, FD>::value)...};
  if (s[i] == 1) return 0;
  long long r = start;
  for (unsigned long j = 0; j < sizeof...(Js); ++j)
    if (d[j] < d[i] || (d[j] == d[i] && j < i)) r *= s[j];
  return r;
}
template <long long Start, class FS, class FD, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr auto ordered_flat_strides(index_sequence<Is...> seq) {
  return make_tuple(Int<int(ordered_stride<FS, FD>(Is, Start, seq))>{}...);  // register counts: int
}

// Modes 1.. of a static layout, packed by stride order after `Start` elements.
template <long long Start, class RS, class RD>
CUTE_DSL_HOST_DEVICE constexpr auto ordered_rest_strides(RS const& rest_shape, RD const& rest_stride) {
  using FS = decltype(flatten_to_tuple(rest_shape));
  using FD = decltype(flatten_to_tuple(rest_stride));
  using Seq = make_index_sequence<tuple_size_v<FS>>;
  return unflatten_like<0, RS>(ordered_flat_strides<Start, FS, FD>(Seq{}));
}
}  // namespace detail

// Any other layout type (a swizzled ComposedLayout): only its shape is taken, column-major.
template <class L>
  requires is_layout_v<L>
CUTE_DSL_HOST_DEVICE constexpr auto make_fragment_layout(L const& layout) {
  return make_layout(layout.shape());
}

template <class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto make_fragment_layout(Layout<S, D> const& layout) {
  constexpr int R = rank_v<S>;
  if constexpr (R > 1 && is_static_v<S> && is_static_v<D>) {
    auto s0 = layout.template shape<0>();
    constexpr long long start = decltype(size(s0))::value;
    auto rest_shape = take<1, R>(layout.shape());
    auto rest_stride = detail::ordered_rest_strides<start>(rest_shape, take<1, R>(layout.stride()));
    return make_layout(prepend(rest_shape, s0), prepend(rest_stride, compact_col_major(s0)));
  } else {
    return make_layout(layout.shape());
  }
}

}  // namespace cute_dsl
