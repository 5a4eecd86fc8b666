// Coordinates to offsets and back, and the compact (column-/row-major) strides of a shape.
//
// Coordinates are colexicographic: when a one-dimensional index is split into a coordinate, the
// leftmost mode varies fastest. The last mode is not reduced modulo its size, so an index past
// the size of a shape continues through the last mode (CuTe's rule; the algebra relies on it).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/numeric/math.hpp"
#include "cute_dsl/container/tuple.hpp"
#include "cute_dsl/container/tuple_algorithms.hpp"
#include "cute_dsl/layout/int_tuple.hpp"

namespace cute_dsl {

// ---- crd2idx -------------------------------------------------------------------------------------------

namespace detail {
// An integer coordinate into a tuple shape: split it colexicographically over the modes,
// the last mode taking whatever remains.
template <class Idx, class S, class D, unsigned long I0, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr auto crd2idx_split(Idx const& idx, S const& s, D const& d, index_sequence<I0, Is...>);
template <class Crd, class S, class D, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr auto crd2idx_modes(Crd const& c, S const& s, D const& d, index_sequence<Is...>);
}  // namespace detail

// The offset of coordinate `coord` in the layout (shape, stride).
//   coord tuple, shape tuple:  sum of the offsets of each mode (same rank required);
//   coord integer, shape tuple: the integer is a 1-D index, split colexicographically;
//   coord integer, shape integer: coord * stride.
template <class Coord_, class Shape_, class Stride_>
CUTE_DSL_HOST_DEVICE constexpr auto crd2idx(Coord_ const& coord, Shape_ const& shape, Stride_ const& stride) {
  if constexpr (is_tuple_v<Coord_>) {
    static_assert(is_tuple_v<Shape_> && is_tuple_v<Stride_>, "crd2idx: a tuple coordinate needs a tuple shape");
    static_assert(tuple_size_v<Coord_> == tuple_size_v<Shape_> && tuple_size_v<Shape_> == tuple_size_v<Stride_>,
                  "crd2idx: coordinate, shape and stride must have the same rank");
    return detail::crd2idx_modes(coord, shape, stride, make_index_sequence<tuple_size_v<Coord_>>{});
  } else if constexpr (is_tuple_v<Shape_>) {
    static_assert(is_tuple_v<Stride_> && tuple_size_v<Shape_> == tuple_size_v<Stride_>,
                  "crd2idx: shape and stride must be congruent");
    if constexpr (tuple_size_v<Shape_> == 0) return Int<0>{};
    else return detail::crd2idx_split(coord, shape, stride, make_index_sequence<tuple_size_v<Shape_>>{});
  } else {
    static_assert(!is_tuple_v<Stride_>, "crd2idx: shape and stride must be congruent");
    return coord * stride;
  }
}

namespace detail {
template <class Crd, class S, class D, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr auto crd2idx_modes(Crd const& c, S const& s, D const& d, index_sequence<Is...>) {
  return (Int<0>{} + ... + crd2idx(get<Is>(c), get<Is>(s), get<Is>(d)));
}
template <class Idx, class S, class D, unsigned long I0, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr auto crd2idx_split(Idx const& idx, S const& s, D const& d, index_sequence<I0, Is...>) {
  if constexpr (sizeof...(Is) == 0) {
    return crd2idx(idx, get<I0>(s), get<I0>(d));
  } else {
    auto s0 = product(get<I0>(s));
    return crd2idx(idx % s0, get<I0>(s), get<I0>(d)) +
           crd2idx_split(idx / s0, s, d, index_sequence<Is...>{});
  }
}
}  // namespace detail

// ---- compact strides ------------------------------------------------------------------------------------

// Tags for make_layout(shape, LayoutLeft{}) (column-major, CuTe's default) and LayoutRight.
struct LayoutLeft {};
struct LayoutRight {};
using GenColMajor = LayoutLeft;
using GenRowMajor = LayoutRight;

namespace detail {
template <class S, class Cur> CUTE_DSL_HOST_DEVICE constexpr auto compact_left(S const& shape, Cur const& current);
template <class S, class Cur> CUTE_DSL_HOST_DEVICE constexpr auto compact_right(S const& shape, Cur const& current);
// One mode of a compact stride: acc = (strides so far, next stride).
template <bool Right> struct compact_step {
  template <class Acc, class Si>
  CUTE_DSL_HOST_DEVICE constexpr auto operator()(Acc const& acc, Si const& si) const {
    if constexpr (Right) {
      auto sub = compact_right(si, get<1>(acc));
      return make_tuple(prepend(get<0>(acc), get<0>(sub)), get<1>(sub));
    } else {
      auto sub = compact_left(si, get<1>(acc));
      return make_tuple(append(get<0>(acc), get<0>(sub)), get<1>(sub));
    }
  }
};

// Strides that pack `shape` contiguously starting at `current`, leftmost mode fastest.
// Returns (strides, next current). A static size-1 mode gets stride _0: it is never stepped,
// and a 0 keeps it from looking like a real mode to coalesce and friends (CuTe does the same).
template <class S, class Cur>
CUTE_DSL_HOST_DEVICE constexpr auto compact_left(S const& shape, Cur const& current) {
  if constexpr (is_tuple_v<S>) {
    return fold(shape, make_tuple(tuple<>{}, current), compact_step<false>{});
  } else if constexpr (is_constant_v<1, S>) {
    return make_tuple(Int<0>{}, current);
  } else {
    return make_tuple(current, current * shape);
  }
}

// As compact_left, rightmost mode fastest: walk the modes right to left.
template <class S, class Cur>
CUTE_DSL_HOST_DEVICE constexpr auto compact_right(S const& shape, Cur const& current) {
  if constexpr (is_tuple_v<S>) {
    return fold(reverse(shape), make_tuple(tuple<>{}, current), compact_step<true>{});
  } else if constexpr (is_constant_v<1, S>) {
    return make_tuple(Int<0>{}, current);
  } else {
    return make_tuple(current, current * shape);
  }
}
}  // namespace detail

// Column-major strides of `shape` (leftmost mode fastest), starting at `current`:
// compact_col_major((2,(3,4))) = (_1,(_2,_6)).
template <class S, class Cur = Int<1>>
CUTE_DSL_HOST_DEVICE constexpr auto compact_col_major(S const& shape, Cur const& current = {}) {
  return get<0>(detail::compact_left(shape, current));
}

// Row-major strides (rightmost mode fastest): compact_row_major((2,(3,4))) = (_12,(_4,_1)).
template <class S, class Cur = Int<1>>
CUTE_DSL_HOST_DEVICE constexpr auto compact_row_major(S const& shape, Cur const& current = {}) {
  return get<0>(detail::compact_right(shape, current));
}

template <class Major, class S, class Cur = Int<1>>
CUTE_DSL_HOST_DEVICE constexpr auto compact_major(S const& shape, Cur const& current = {}) {
  if constexpr (is_same_v<Major, LayoutRight>) return compact_row_major(shape, current);
  else return compact_col_major(shape, current);
}

// ---- crd2idx with a compact stride, idx2crd ---------------------------------------------------------------

// The column-major offset of `coord` in `shape`.
template <class Coord_, class Shape_>
CUTE_DSL_HOST_DEVICE constexpr auto crd2idx(Coord_ const& coord, Shape_ const& shape) {
  return crd2idx(coord, shape, compact_col_major(shape));
}

template <class Idx, class Shape_, class Stride_>
CUTE_DSL_HOST_DEVICE constexpr auto idx2crd(Idx const& idx, Shape_ const& shape, Stride_ const& stride);
template <class Idx, class Shape_>
CUTE_DSL_HOST_DEVICE constexpr auto idx2crd(Idx const& idx, Shape_ const& shape);
namespace detail {
struct idx2crd_fn {
  template <class I, class S> CUTE_DSL_HOST_DEVICE constexpr auto operator()(I const& i, S const& s) const { return idx2crd(i, s); }
  template <class I, class S, class D> CUTE_DSL_HOST_DEVICE constexpr auto operator()(I const& i, S const& s, D const& d) const {
    return idx2crd(i, s, d);
  }
};
}  // namespace detail

// The natural coordinate (congruent with `shape`) of `idx` under the given strides:
// each leaf is (idx / stride) % shape. With the default column-major stride this inverts
// crd2idx on [0, size(shape)). A tuple idx is converted mode by mode.
template <class Idx, class Shape_, class Stride_>
CUTE_DSL_HOST_DEVICE constexpr auto idx2crd(Idx const& idx, Shape_ const& shape, Stride_ const& stride) {
  if constexpr (is_tuple_v<Idx>) {
    static_assert(is_tuple_v<Shape_> && tuple_size_v<Idx> == tuple_size_v<Shape_>,
                  "idx2crd: a tuple index must have the shape's rank");
    return transform(idx, shape, stride, detail::idx2crd_fn{});
  } else if constexpr (is_tuple_v<Shape_>) {
    static_assert(is_tuple_v<Stride_> && tuple_size_v<Shape_> == tuple_size_v<Stride_>,
                  "idx2crd: shape and stride must be congruent");
    return transform(repeat_like(wrap(shape), idx), shape, stride, detail::idx2crd_fn{});
  } else if constexpr (is_constant_v<1, Shape_>) {
    return Int<0>{};  // the only coordinate; its stride may well be 0
  } else {
    return (idx / stride) % shape;
  }
}

// With the compact column-major stride. An integer shape returns idx unchanged (so an index
// past the size is kept, as crd2idx keeps it); a tuple shape reduces every leaf modulo its size.
template <class Idx, class Shape_>
CUTE_DSL_HOST_DEVICE constexpr auto idx2crd(Idx const& idx, Shape_ const& shape) {
  if constexpr (is_tuple_v<Idx>) {
    static_assert(is_tuple_v<Shape_> && tuple_size_v<Idx> == tuple_size_v<Shape_>,
                  "idx2crd: a tuple index must have the shape's rank");
    return transform(idx, shape, detail::idx2crd_fn{});
  } else if constexpr (is_tuple_v<Shape_>) {
    return idx2crd(idx, shape, compact_col_major(shape));
  } else {
    return idx;
  }
}

}  // namespace cute_dsl
