// local_tile and local_partition on tensors: the tile of a block, the share of a thread.
//
//   auto gA = local_tile(mA, make_tile(_128{}, _64{}), make_coord(bm, bn));   // (_128,_64) view
//   auto tA = local_partition(gA, make_layout(make_shape(_32{}, _8{})), tid); // (_4,_8) per thread
// Both divide the tensor's layout by a static tiler (zipped_divide), so the tile's layout stays
// static even when the tensor's shape is a run-time value; the tile's origin moves the iterator.
// Tiles past a ragged edge are still full-size: predicate them with an identity tensor
// (tensor/identity_tensor.hpp) and copy_if.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/divide.hpp"
#include "cute_dsl/layout/tiling.hpp"
#include "cute_dsl/tensor/tensor.hpp"

namespace cute_dsl {

// CuTe's name for "this mode is projected away" in a Step: local_tile(t, tiler, coord,
// Step<_1, X, _1>{}) uses tiler modes 0 and 2 only (the M and K of an (M,N,K) GEMM tiler for A).
using X = Underscore;

namespace detail {
// coord padded with `_` up to rank R (the tensor's modes beyond the tiler stay whole).
template <int R, class Crd>
CUTE_DSL_HOST_DEVICE constexpr auto pad_coord(Crd const& c) {
  if constexpr (is_tuple_v<Crd> && int(tuple_size_v<Crd>) < R) return append<R>(c, _);
  else return c;
}
// The modes of a layout as a tuple of layouts: a tuple shape gives its modes, an integer one
// itself.
template <class L>
CUTE_DSL_HOST_DEVICE constexpr auto top_modes(L const& l) {
  if constexpr (is_tuple_v<typename L::shape_type>) return modes_of(l);
  else return make_tuple(l);
}
}  // namespace detail

// The tile `coord` of `tensor` cut by `tiler` (CuTe's local_tile / inner_partition). A coord
// holding `_` keeps those tile indices as extra modes: local_tile(mA, (BM, BK), (m, _)) is
// (BM, BK, k_tiles), the m-th row of tiles.
template <class E, class L, class T, class Crd>
  requires Tiler<T>
CUTE_DSL_HOST_DEVICE constexpr auto local_tile(Tensor<E, L> const& tensor, T const& tiler, Crd const& coord) {
  auto zipped = zipped_divide(tensor.layout(), tiler);
  auto tile = layout<0>(zipped);
  auto rest = layout<1>(zipped);
  auto crd = detail::pad_coord<rank_v<typename decltype(rest)::shape_type>>(coord);
  if constexpr (has_underscore_v<decltype(crd)>) {
    auto so = slice_and_offset(crd, rest);
    auto modes = tuple_cat(detail::top_modes(tile), detail::top_modes(get<0>(so)));
    return make_tensor(tensor.data() + get<1>(so), detail::layout_of_mode_tuple(modes));
  } else {
    return make_tensor(tensor.data() + rest(crd), tile);
  }
}

// With a projection: only the tiler and coord modes where `proj` holds an integer (not X).
template <class E, class L, class T, class Crd, class Proj>
  requires Tiler<T>
CUTE_DSL_HOST_DEVICE constexpr auto local_tile(Tensor<E, L> const& tensor, T const& tiler, Crd const& coord,
                                               Proj const& proj) {
  return local_tile(tensor, dice(proj, tiler), dice(proj, coord));
}

// Element `coord` of every tile: the modes of the tile grid (CuTe's outer_partition).
template <class E, class L, class T, class Crd>
  requires Tiler<T>
CUTE_DSL_HOST_DEVICE constexpr auto outer_partition(Tensor<E, L> const& tensor, T const& tiler, Crd const& coord) {
  auto lo = outer_partition(tensor.layout(), tiler, coord);
  return make_tensor(tensor.data() + get<1>(lo), get<0>(lo));
}

// Thread `thr_idx`'s share of `tensor` when the threads of `thr_layout` tile it: thread t owns
// the elements at its coordinate in every thr_layout-shaped tile (element-wise interleaving, so
// consecutive threads touch consecutive elements: coalesced global accesses).
template <class E, class L, class TS, class TD, class Idx>
  requires is_integral_v<Idx>
CUTE_DSL_HOST_DEVICE constexpr auto local_partition(Tensor<E, L> const& tensor, Layout<TS, TD> const& thr_layout,
                                                    Idx const& thr_idx) {
  auto lo = local_partition(tensor.layout(), thr_layout, thr_idx);
  return make_tensor(tensor.data() + get<1>(lo), get<0>(lo));
}

// With a projection: thr_layout's modes where `proj` holds X are ignored (CuTe's
// local_partition(t, thr_layout, idx, Step<_1, X>) for the A operand of a thread-level GEMM).
template <class E, class L, class TS, class TD, class Idx, class Proj>
  requires is_integral_v<Idx>
CUTE_DSL_HOST_DEVICE constexpr auto local_partition(Tensor<E, L> const& tensor, Layout<TS, TD> const& thr_layout,
                                                    Idx const& thr_idx, Proj const& proj) {
  auto crd = idx2crd(thr_idx, thr_layout.shape(), thr_layout.stride());
  auto tiler = product_each(dice(proj, thr_layout.shape()));
  auto lo = outer_partition(tensor.layout(), tiler, detail::mode_indices(dice(proj, thr_layout.shape()), dice(proj, crd),
                                                                         tuple_seq<decltype(tiler)>{}));
  return make_tensor(tensor.data() + get<1>(lo), get<0>(lo));
}

}  // namespace cute_dsl
