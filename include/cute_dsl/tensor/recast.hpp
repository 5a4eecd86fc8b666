// recast<U>(tensor): the same bytes read as elements of U (CuTe's recast / recast_layout).
//
//   upcast<N>(layout)     N old elements become one: the unit-stride mode's shape is divided
//                         by N, every other stride divided by N (a stride-0 mode is kept).
//   downcast<N>(layout)   one old element becomes N: the unit-stride mode's shape is multiplied
//                         by N, every other stride multiplied by N.
// recast_layout<Old, New> is downcast by sizeof(Old)/g then upcast by sizeof(New)/g,
// g = gcd of the two sizes. 8 floats (_8:_1) read as float4 is _2:_1; a (_4,_8):(_8,_1) tile of
// half read as uint32_t is (_4,_4):(_4,_1).
//   @pre for upcast, the unit-stride mode's shape and every other stride are divisible by N
//        (checked for static values); the data is aligned to sizeof(New).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/numeric/math.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/tensor/pointer.hpp"
#include "cute_dsl/tensor/tensor.hpp"

namespace cute_dsl {

namespace detail {
template <int N, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto upcast_leaf(S const& s, D const& d) {
  if constexpr (is_constant_v<0, D>) {
    return make_tuple(s, d);
  } else if constexpr (is_constant_v<1, D> || is_constant_v<-1, D>) {
    if constexpr (is_C_v<S>) static_assert(S::value % N == 0, "upcast: the unit-stride mode's size must be divisible by the ratio");
    return make_tuple(s / Int<N>{}, d);
  } else {
    if constexpr (is_C_v<D>) static_assert(D::value % N == 0, "upcast: every non-unit stride must be divisible by the ratio");
    return make_tuple(s, d / Int<N>{});
  }
}
template <int N, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto downcast_leaf(S const& s, D const& d) {
  if constexpr (is_constant_v<1, D> || is_constant_v<-1, D>) return make_tuple(s * Int<N>{}, d);
  else return make_tuple(s, d * Int<N>{});
}

// Part 0 (the shape) or 1 (the stride) of the cast layout, congruent with the input.
template <bool Up, int N, int Part>
struct cast_fn {
  template <class S, class D>
  CUTE_DSL_HOST_DEVICE constexpr auto operator()(S const& s, D const& d) const {
    if constexpr (is_tuple_v<S>) return transform(s, d, cast_fn{});
    else if constexpr (Up) return get<Part>(upcast_leaf<N>(s, d));
    else return get<Part>(downcast_leaf<N>(s, d));
  }
};
template <bool Up, int N, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto cast_layout(Layout<S, D> const& l) {
  if constexpr (N == 1) return l;
  else return make_layout(cast_fn<Up, N, 0>{}(l.shape(), l.stride()), cast_fn<Up, N, 1>{}(l.shape(), l.stride()));
}
}  // namespace detail

template <int N, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto upcast(Layout<S, D> const& l) { return detail::cast_layout<true, N>(l); }
template <int N, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto downcast(Layout<S, D> const& l) { return detail::cast_layout<false, N>(l); }

template <class Old, class New, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto recast_layout(Layout<S, D> const& l) {
  constexpr int g = int(detail::gcd_value(int(sizeof(Old)), int(sizeof(New))));
  return upcast<int(sizeof(New)) / g>(downcast<int(sizeof(Old)) / g>(l));
}

// A view of the tensor's bytes as U (an owning tensor gives a view of its registers).
template <class U, class E, class L>
CUTE_DSL_HOST_DEVICE constexpr auto recast(Tensor<E, L>& t) {
  return make_tensor(recast_ptr<U>(t.data()), recast_layout<typename E::value_type, U>(t.layout()));
}
template <class U, class E, class L>
CUTE_DSL_HOST_DEVICE constexpr auto recast(Tensor<E, L> const& t) {
  return make_tensor(recast_ptr<U>(t.data()), recast_layout<typename E::value_type, U>(t.layout()));
}
template <class U, class E, class L>
CUTE_DSL_HOST_DEVICE constexpr auto recast(Tensor<E, L>&& t) {
  static_assert(!is_array_engine_v<E>, "recast: an owning temporary would leave a dangling view; name the tensor first");
  return make_tensor(recast_ptr<U>(t.data()), recast_layout<typename E::value_type, U>(t.layout()));
}

}  // namespace cute_dsl
