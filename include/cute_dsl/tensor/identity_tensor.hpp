// Identity tensors: make_identity_tensor(shape)(c) == c, the coordinate itself. Tiled and
// partitioned exactly like the data tensor, it tells each thread which coordinates of the full
// problem its elements are, which is what predication of a ragged edge needs:
//
//   auto cA = make_identity_tensor(make_shape(M, N));          // same shape as mA
//   auto tc = local_partition(local_tile(cA, tiler, blk), thr, tid);
//   auto tp = make_fragment_like<bool>(tc.layout());
//   for (int i = 0; i < size(tp); ++i) tp(i) = elem_less(tc(i), make_shape(M, N));
//   copy_if(tp, tA, tR);                                        // no access past the edge
//
// How: CuTe strides identity tensors by basis vectors (offsets that are tuples). Our layouts
// have integer strides only, so the coordinate is packed into the integer offset instead: leaf
// k of the shape gets stride 2^(k*B), B = 62 / (number of leaves), and the iterator unpacks the
// offset into bit fields. Tiles past the edge are therefore exact (no wrap-around as a compact
// stride would give). Each coordinate must stay below 2^B: 2^31 for a matrix, 2^20 for rank 3.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/container/tuple.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/tensor/tensor.hpp"
#include "cute_dsl/tensor/leaf_index.hpp"

namespace cute_dsl {

namespace detail {
// Leaf k gets the stride 2^(k*Bits) (k = 0: a static 1).
template <int Bits, unsigned long... Ks>
CUTE_DSL_HOST_DEVICE constexpr auto identity_flat_strides(index_sequence<Ks...>) {
  return make_tuple(conditional_t<Ks == 0, Int<1>, C<(1LL << (Ks * Bits))>>{}...);
}
// Leaf k of the coordinate is bit field k of the offset.
template <int Bits, unsigned long... Ks>
CUTE_DSL_HOST_DEVICE constexpr auto identity_flat_coord(long long offset, index_sequence<Ks...>) {
  return make_tuple(int((offset >> (Ks * Bits)) & ((1LL << Bits) - 1))...);
}
}  // namespace detail

// Yields the coordinate packed in (base + i); Shape only fixes the coordinate's nesting.
template <class Shape_>
struct CoordIterator {
  using tensor_iterator = void;
  static constexpr int bits = 62 / detail::leaf_count_v<Shape_>;
  using leaves = make_index_sequence<detail::leaf_count_v<Shape_>>;
  using stride_type = decltype(detail::unflatten_like<0, Shape_>(detail::identity_flat_strides<bits>(leaves{})));

  long long offset_ = 0;

  CUTE_DSL_HOST_DEVICE constexpr auto operator*() const {
    return detail::unflatten_like<0, Shape_>(detail::identity_flat_coord<bits>(offset_, leaves{}));
  }
  template <class I>
    requires is_integral_v<I>
  CUTE_DSL_HOST_DEVICE constexpr auto operator[](I const& i) const { return *(*this + i); }
  template <class I>
    requires is_integral_v<I>
  CUTE_DSL_HOST_DEVICE constexpr CoordIterator operator+(I const& i) const { return CoordIterator{offset_ + (long long)(i)}; }
};

template <class S>
  requires is_int_tuple_v<S>
CUTE_DSL_HOST_DEVICE constexpr auto make_identity_layout(S const& shape) {
  return make_layout(shape, typename CoordIterator<S>::stride_type{});
}

template <class S>
  requires is_int_tuple_v<S>
CUTE_DSL_HOST_DEVICE constexpr auto make_identity_tensor(S const& shape) {
  static_assert(detail::leaf_count_v<S> <= 6, "make_identity_tensor: at most 6 leaves (each coordinate gets 62/leaves bits)");
  return make_tensor(CoordIterator<S>{}, make_identity_layout(shape));
}

}  // namespace cute_dsl
