// ComposedLayout<A, Offset, B>: the function c -> A(Offset + B(c)), where B is a Layout and A
// a function of offsets (typically a Swizzle). Its shape, size and coordinates are B's; A only
// permutes the offsets. composition(Swizzle, Layout) builds one with Offset = _0.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/container/tuple.hpp"
#include "cute_dsl/concepts.hpp"
#include "cute_dsl/layout/int_tuple.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/swizzle.hpp"

namespace cute_dsl {

template <class LayoutA, class Offset, class LayoutB>
struct ComposedLayout : detail::tuple_base<index_sequence<0, 1, 2>, LayoutA, Offset, LayoutB> {
  static_assert(is_layout_v<LayoutB>, "ComposedLayout: the inner function must be a layout");
  using base_type = detail::tuple_base<index_sequence<0, 1, 2>, LayoutA, Offset, LayoutB>;

  CUTE_DSL_HOST_DEVICE constexpr ComposedLayout(LayoutA const& a = {}, Offset const& o = {}, LayoutB const& b = {})
      : base_type(0, a, o, b) {}

  CUTE_DSL_HOST_DEVICE constexpr decltype(auto) layout_a() const { return detail::get_leaf<0>(*this); }
  CUTE_DSL_HOST_DEVICE constexpr decltype(auto) offset() const { return detail::get_leaf<1>(*this); }
  CUTE_DSL_HOST_DEVICE constexpr decltype(auto) layout_b() const { return detail::get_leaf<2>(*this); }

  template <int... Is>
  CUTE_DSL_HOST_DEVICE constexpr decltype(auto) shape() const { return layout_b().template shape<Is...>(); }

  // A(offset + B(c)); with underscores, the composed sub-layout of the open modes (B sliced,
  // the slice's origin folded into the offset).
  template <class Crd>
  CUTE_DSL_HOST_DEVICE constexpr auto operator()(Crd const& c) const {
    if constexpr (has_underscore_v<Crd>) {
      auto so = slice_and_offset(c, layout_b());
      auto o = offset() + get<1>(so);
      return ComposedLayout<LayoutA, decltype(o), remove_cvref_t<decltype(get<0>(so))>>(layout_a(), o, get<0>(so));
    } else {
      return layout_a()(offset() + layout_b()(c));
    }
  }
  template <class C0, class C1, class... Cs>
  CUTE_DSL_HOST_DEVICE constexpr auto operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const {
    return (*this)(make_coord(c0, c1, cs...));
  }
};

template <class A, class O, class B> struct is_layout<ComposedLayout<A, O, B>> : true_type {};

template <class A, class O, class B>
CUTE_DSL_HOST_DEVICE constexpr auto make_composed_layout(A const& a, O const& o, B const& b) {
  return ComposedLayout<A, O, B>(a, o, b);
}

// offset -> swizzle(offset) applied after the layout: the swizzled layout.
template <int BB, int MB, int SS, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto composition(Swizzle<BB, MB, SS> const& sw, Layout<S, D> const& layout) {
  return make_composed_layout(sw, Int<0>{}, layout);
}
template <int BB, int MB, int SS, class O, class S, class D>
  requires is_integral_v<O>
CUTE_DSL_HOST_DEVICE constexpr auto composition(Swizzle<BB, MB, SS> const& sw, O const& offset, Layout<S, D> const& layout) {
  return make_composed_layout(sw, offset, layout);
}

// Shape, size and rank are those of the inner layout; so is the cosize (the swizzle permutes
// offsets within aligned blocks, which the inner layout's extent is expected to cover).
template <int... Is, class A, class O, class B>
CUTE_DSL_HOST_DEVICE constexpr decltype(auto) shape(ComposedLayout<A, O, B> const& l) { return shape<Is...>(l.layout_b()); }
template <int... Is, class A, class O, class B>
CUTE_DSL_HOST_DEVICE constexpr auto size(ComposedLayout<A, O, B> const& l) { return size<Is...>(l.layout_b()); }
template <int... Is, class A, class O, class B>
CUTE_DSL_HOST_DEVICE constexpr auto rank(ComposedLayout<A, O, B> const& l) { return rank<Is...>(l.layout_b()); }
template <int... Is, class A, class O, class B>
CUTE_DSL_HOST_DEVICE constexpr auto depth(ComposedLayout<A, O, B> const& l) { return depth<Is...>(l.layout_b()); }
template <class A, class O, class B>
CUTE_DSL_HOST_DEVICE constexpr auto cosize(ComposedLayout<A, O, B> const& l) { return cosize(l.layout_b()); }

}  // namespace cute_dsl
