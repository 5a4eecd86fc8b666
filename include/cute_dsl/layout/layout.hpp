// Layout<Shape, Stride>: a function from coordinates to offsets, offset = sum(coord_i * stride_i).
//
// Shape and Stride are congruent int-tuples. A layout of static integers is an empty type, so
// everything about it (and about the algebra on it, layout/algebra.hpp) is decided at compile
// time. This header holds the type and its structural operations; the algebra (coalesce,
// composition, complement, divides, products) lives in layout/algebra.hpp.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/numeric/math.hpp"
#include "cute_dsl/container/tuple.hpp"
#include "cute_dsl/container/tuple_algorithms.hpp"
#include "cute_dsl/concepts.hpp"
#include "cute_dsl/layout/underscore.hpp"
#include "cute_dsl/layout/int_tuple.hpp"
#include "cute_dsl/layout/stride.hpp"

namespace cute_dsl {

template <class Shape_, class Stride_ = decltype(compact_col_major(declval<Shape_>()))>
struct Layout : detail::tuple_base<index_sequence<0, 1>, Shape_, Stride_> {
  static_assert(is_int_tuple_v<Shape_>, "Layout: the shape must be an int-tuple");
  static_assert(is_congruent_v<Shape_, Stride_>, "Layout: shape and stride must be congruent (nest alike)");

  using base_type = detail::tuple_base<index_sequence<0, 1>, Shape_, Stride_>;
  using shape_type = Shape_;
  using stride_type = Stride_;

  static constexpr int rank = rank_v<Shape_>;

  CUTE_DSL_HOST_DEVICE constexpr Layout(Shape_ const& shape = {}, Stride_ const& stride = {})
      : base_type(0, shape, stride) {}

  // shape<I...>(): the shape, or one of its modes.
  template <int... Is>
  CUTE_DSL_HOST_DEVICE constexpr decltype(auto) shape() const {
    if constexpr (sizeof...(Is) == 0) return detail::get_leaf<0>(*this);
    else return get<Is...>(detail::get_leaf<0>(*this));
  }
  template <int... Is>
  CUTE_DSL_HOST_DEVICE constexpr decltype(auto) stride() const {
    if constexpr (sizeof...(Is) == 0) return detail::get_leaf<1>(*this);
    else return get<Is...>(detail::get_leaf<1>(*this));
  }

  // L(coord): the offset of a coordinate (an integer is a 1-D index, split colexicographically;
  // past size() it continues through the last mode). A coordinate with underscores gives the
  // sub-layout of the modes it leaves open: L(_, 2) is column 2.
  template <class Crd>
  CUTE_DSL_HOST_DEVICE constexpr auto operator()(Crd const& c) const {
    static_assert(is_coord_like_v<Crd>, "Layout::operator(): the coordinate must be an int-tuple (may contain _)");
    if constexpr (has_underscore_v<Crd>) return slice(c, *this);
    else return crd2idx(c, shape(), stride());
  }
  template <class C0, class C1, class... Cs>
  CUTE_DSL_HOST_DEVICE constexpr auto operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const {
    return (*this)(make_coord(c0, c1, cs...));
  }
};

template <class S, class D> struct is_layout<Layout<S, D>> : true_type {};

// ---- construction ------------------------------------------------------------------------------------

template <class S, class D>
  requires(is_int_tuple_v<S> && is_int_tuple_v<D>)
CUTE_DSL_HOST_DEVICE constexpr auto make_layout(S const& shape, D const& stride) {
  static_assert(is_congruent_v<S, D>, "make_layout: shape and stride must be congruent (nest alike)");
  return Layout<S, D>(shape, stride);
}

// Column-major (LayoutLeft) by default: compact, leftmost mode fastest.
template <class S>
  requires is_int_tuple_v<S>
CUTE_DSL_HOST_DEVICE constexpr auto make_layout(S const& shape) {
  return make_layout(shape, compact_col_major(shape));
}

template <class S>
  requires is_int_tuple_v<S>
CUTE_DSL_HOST_DEVICE constexpr auto make_layout(S const& shape, LayoutLeft) {
  return make_layout(shape, compact_col_major(shape));
}
template <class S>
  requires is_int_tuple_v<S>
CUTE_DSL_HOST_DEVICE constexpr auto make_layout(S const& shape, LayoutRight) {
  return make_layout(shape, compact_row_major(shape));
}

// One layout: itself. Several: their concatenation, each becoming one mode.
template <class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto make_layout(Layout<S, D> const& layout) {
  return layout;
}
template <class S0, class D0, class S1, class D1, class... Ls>
CUTE_DSL_HOST_DEVICE constexpr auto make_layout(Layout<S0, D0> const& l0, Layout<S1, D1> const& l1, Ls const&... ls) {
  return make_layout(make_shape(l0.shape(), l1.shape(), ls.shape()...),
                     make_stride(l0.stride(), l1.stride(), ls.stride()...));
}

// ---- observers ----------------------------------------------------------------------------------------

template <int... Is, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr decltype(auto) shape(Layout<S, D> const& l) { return l.template shape<Is...>(); }
template <int... Is, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr decltype(auto) stride(Layout<S, D> const& l) { return l.template stride<Is...>(); }

// For int-tuples shape<I...> is simply the selected mode, so generic code can ask either.
template <int... Is, class T>
  requires is_int_tuple_v<T>
CUTE_DSL_HOST_DEVICE constexpr decltype(auto) shape(T const& t) {
  if constexpr (sizeof...(Is) == 0) return t;
  else return get<Is...>(t);
}

template <int... Is, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto size(Layout<S, D> const& l) { return size(l.template shape<Is...>()); }

template <int... Is, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto rank(Layout<S, D> const& l) { return rank(l.template shape<Is...>()); }

template <int... Is, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto depth(Layout<S, D> const& l) { return depth(l.template shape<Is...>()); }

namespace detail {
template <class S, class D> CUTE_DSL_HOST_DEVICE constexpr auto cosize_sum(S const& s, D const& d);
struct cosize_sum_fn {
  template <class S, class D> CUTE_DSL_HOST_DEVICE constexpr auto operator()(S const& s, D const& d) const { return cosize_sum(s, d); }
};
template <class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto cosize_sum(S const& s, D const& d) {
  if constexpr (is_tuple_v<S>)
    return transform_apply(s, d, cosize_sum_fn{}, sum_all{});
  else return (s - Int<1>{}) * abs(d);
}
}  // namespace detail

// One past the largest offset: 1 + sum over leaves of (shape - 1) * |stride|. (For non-negative
// strides, L(size(L) - 1) + 1; it is not the number of distinct offsets.)
template <int... Is, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto cosize(Layout<S, D> const& l) {
  return detail::cosize_sum(l.template shape<Is...>(), l.template stride<Is...>()) + Int<1>{};
}

// ---- sub-layouts -------------------------------------------------------------------------------------

// The sub-layout of mode I (of mode I of mode J ...).
template <int... Is, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto layout(Layout<S, D> const& l) {
  if constexpr (sizeof...(Is) == 0) return l;
  else return make_layout(l.template shape<Is...>(), l.template stride<Is...>());
}

template <unsigned long... Is, class S, class D>
  requires(sizeof...(Is) > 0)
CUTE_DSL_HOST_DEVICE constexpr auto get(Layout<S, D> const& l) {
  return layout<int(Is)...>(l);
}

// Modes [B, E) as a layout.
template <int B, int E, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto take(Layout<S, D> const& l) {
  return make_layout(take<B, E>(wrap(l.shape())), take<B, E>(wrap(l.stride())));
}

template <int... Is, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto select(Layout<S, D> const& l) {
  return make_layout(select<Is...>(wrap(l.shape())), select<Is...>(wrap(l.stride())));
}

// Modes [B, E) gathered into one mode.
template <int B, int E, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto group(Layout<S, D> const& l) {
  return make_layout(group<B, E>(wrap(l.shape())), group<B, E>(wrap(l.stride())));
}

// Every leaf a top-level mode; an integral layout stays integral.
template <class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto flatten(Layout<S, D> const& l) {
  return make_layout(flatten(l.shape()), flatten(l.stride()));
}

// l with layout x added as its last (first) mode. An integral l counts as rank 1.
template <class S, class D, class S2, class D2>
CUTE_DSL_HOST_DEVICE constexpr auto append(Layout<S, D> const& l, Layout<S2, D2> const& x) {
  return make_layout(append(wrap(l.shape()), x.shape()), append(wrap(l.stride()), x.stride()));
}
template <class S, class D, class S2, class D2>
CUTE_DSL_HOST_DEVICE constexpr auto prepend(Layout<S, D> const& l, Layout<S2, D2> const& x) {
  return make_layout(prepend(wrap(l.shape()), x.shape()), prepend(wrap(l.stride()), x.stride()));
}
// Padded with copies of x (by default the trivial mode 1:0) up to rank N.
template <int N, class S, class D, class X = Layout<Int<1>, Int<0>>>
CUTE_DSL_HOST_DEVICE constexpr auto append(Layout<S, D> const& l, X const& x = {}) {
  return make_layout(append<N>(wrap(l.shape()), x.shape()), append<N>(wrap(l.stride()), x.stride()));
}
template <int N, class S, class D, class X = Layout<Int<1>, Int<0>>>
CUTE_DSL_HOST_DEVICE constexpr auto prepend(Layout<S, D> const& l, X const& x = {}) {
  return make_layout(prepend<N>(wrap(l.shape()), x.shape()), prepend<N>(wrap(l.stride()), x.stride()));
}

// ---- slicing ------------------------------------------------------------------------------------------

// The sub-layout of the modes that c leaves open (its underscores).
template <class Crd, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto slice(Crd const& c, Layout<S, D> const& l) {
  return make_layout(slice(c, l.shape()), slice(c, l.stride()));
}

// The sub-layout of the modes that c fixes.
template <class Crd, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto dice(Crd const& c, Layout<S, D> const& l) {
  return make_layout(dice(c, l.shape()), dice(c, l.stride()));
}

// (slice(c, l), offset of the slice's origin): l(c with _ -> 0) + slice(c, l)(x) == l(c with _ -> x).
template <class Crd, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto slice_and_offset(Crd const& c, Layout<S, D> const& l) {
  return make_tuple(slice(c, l), crd2idx(underscore_to_zero(c), l.shape(), l.stride()));
}

// ---- comparison ----------------------------------------------------------------------------------------

// Same shape and same stride (a static answer for static layouts). Not functional equality.
template <class S0, class D0, class S1, class D1>
CUTE_DSL_HOST_DEVICE constexpr auto operator==(Layout<S0, D0> const& a, Layout<S1, D1> const& b) {
  if constexpr (!is_congruent_v<S0, S1>) return false_type{};
  else return (a.shape() == b.shape()) && (a.stride() == b.stride());
}
template <class S0, class D0, class S1, class D1>
CUTE_DSL_HOST_DEVICE constexpr auto operator!=(Layout<S0, D0> const& a, Layout<S1, D1> const& b) {
  return !(a == b);
}

}  // namespace cute_dsl
