// The tiling math behind local_tile and local_partition, on layouts (tensors come later and
// apply these to their layout and pointer).
//
//   local_tile(L, tiler, coord)           (tile layout, offset of the tile `coord` of the grid)
//   outer_partition(L, tiler, coord)      (layout of element `coord` of every tile, its offset)
//   local_partition(L, thr_layout, idx)   outer_partition by the thread layout's shape, at the
//                                         coordinate of thread idx in thr_layout
// All three rest on zipped_divide ((tile...),(rest...)), so a static tiler keeps the tile static
// even when L's shape is only known at run time:
//   auto [tile, offset] = local_tile(make_layout(make_shape(M, N)), make_tile(_128{}, _64{}), make_coord(m, n));
//   tile == (_128,_64):(_1,M), offset == 128*m + 64*n*M.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/underscore.hpp"
#include "cute_dsl/layout/divide.hpp"

namespace cute_dsl {

namespace detail {
// slice keeps the selected mode as a one-element tuple ((128,64)); a tile reads better as the
// mode itself (128,64), so that size<0>(tile) is 128.
template <class P>
CUTE_DSL_HOST_DEVICE constexpr auto unwrap_slice(P const& layout_and_offset) {
  auto l = get<0>(layout_and_offset);
  using LS = typename decltype(l)::shape_type;
  if constexpr (is_tuple_v<LS> && tuple_size_v<LS> == 1) return make_tuple(mode<0>(l), get<1>(layout_and_offset));
  else return layout_and_offset;
}
}  // namespace detail

template <class S, class D, class T, class Crd>
  requires Tiler<T>
CUTE_DSL_HOST_DEVICE constexpr auto local_tile(Layout<S, D> const& layout, T const& tiler, Crd const& coord) {
  return detail::unwrap_slice(slice_and_offset(make_coord(_, coord), zipped_divide(layout, tiler)));
}

// CuTe's name for local_tile.
template <class S, class D, class T, class Crd>
  requires Tiler<T>
CUTE_DSL_HOST_DEVICE constexpr auto inner_partition(Layout<S, D> const& layout, T const& tiler, Crd const& coord) {
  return local_tile(layout, tiler, coord);
}

template <class S, class D, class T, class Crd>
  requires Tiler<T>
CUTE_DSL_HOST_DEVICE constexpr auto outer_partition(Layout<S, D> const& layout, T const& tiler, Crd const& coord) {
  return detail::unwrap_slice(slice_and_offset(make_coord(coord, _), zipped_divide(layout, tiler)));
}

namespace detail {
// The index of thread `idx` within each top-level mode of the thread layout: its coordinate in
// that mode, linearised column-major (the tile of that mode is the integer product of its shape).
template <class TS, class Crd, unsigned long... Ks>
CUTE_DSL_HOST_DEVICE constexpr auto mode_indices(TS const& shape, Crd const& crd, index_sequence<Ks...>) {
  return make_tuple(crd2idx(get<Ks>(crd), get<Ks>(shape))...);
}
}  // namespace detail

template <class S, class D, class TS, class TD, class Idx>
  requires is_integral_v<Idx>
CUTE_DSL_HOST_DEVICE constexpr auto local_partition(Layout<S, D> const& layout, Layout<TS, TD> const& thr_layout,
                                                    Idx const& thr_idx) {
  auto crd = idx2crd(thr_idx, thr_layout.shape(), thr_layout.stride());
  if constexpr (is_tuple_v<TS>) {
    auto tiler = product_each(thr_layout.shape());
    return outer_partition(layout, tiler, detail::mode_indices(thr_layout.shape(), crd, tuple_seq<TS>{}));
  } else {
    return outer_partition(layout, thr_layout.shape(), crd);
  }
}

}  // namespace cute_dsl
