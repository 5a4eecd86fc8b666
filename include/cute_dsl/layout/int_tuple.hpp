// Int-tuples: an integer or a tuple of int-tuples. Shapes, strides and coordinates are all
// int-tuples; this header holds what they share (rank, depth, size, congruence, the division
// rules on shapes). Every function keeps static inputs static: size of a static shape is a C.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/numeric/math.hpp"
#include "cute_dsl/container/tuple.hpp"
#include "cute_dsl/container/tuple_algorithms.hpp"
#include "cute_dsl/concepts.hpp"

namespace cute_dsl {

// CuTe's spellings of a tuple in its different roles: Layout<Shape<_4,_8>, Stride<_1,_4>>.
template <class... Ts> using Shape = tuple<Ts...>;
template <class... Ts> using Stride = tuple<Ts...>;
template <class... Ts> using Coord = tuple<Ts...>;
template <class... Ts> using Step = tuple<Ts...>;
template <class... Ts> using Tile = tuple<Ts...>;

template <class... Ts> CUTE_DSL_HOST_DEVICE constexpr auto make_shape(Ts const&... t) { return make_tuple(t...); }
template <class... Ts> CUTE_DSL_HOST_DEVICE constexpr auto make_stride(Ts const&... t) { return make_tuple(t...); }
template <class... Ts> CUTE_DSL_HOST_DEVICE constexpr auto make_coord(Ts const&... t) { return make_tuple(t...); }
template <class... Ts> CUTE_DSL_HOST_DEVICE constexpr auto make_step(Ts const&... t) { return make_tuple(t...); }
template <class... Ts> CUTE_DSL_HOST_DEVICE constexpr auto make_tile(Ts const&... t) { return make_tuple(t...); }

// ---- get: an integer is its own mode 0; several indices walk down ------------------------------

template <unsigned long I, class T>
  requires is_integral_v<T>
CUTE_DSL_HOST_DEVICE constexpr decltype(auto) get(T&& t) noexcept {
  static_assert(I == 0, "get<I>(integer): an integer has only mode 0");
  return static_cast<T&&>(t);
}

template <unsigned long I0, unsigned long I1, unsigned long... Is, class T>
CUTE_DSL_HOST_DEVICE constexpr decltype(auto) get(T&& t) noexcept {
  return get<I1, Is...>(get<I0>(static_cast<T&&>(t)));
}

// ---- forward declarations and the function objects the algorithms below pass around ----------
// (Named function objects rather than generic lambdas: see container/tuple_algorithms.hpp.)

template <class T> CUTE_DSL_HOST_DEVICE constexpr auto product(T const& t);
template <class T> CUTE_DSL_HOST_DEVICE constexpr auto sum(T const& t);
template <class A, class B> CUTE_DSL_HOST_DEVICE constexpr auto inner_product(A const& a, B const& b);
template <class A, class B> CUTE_DSL_HOST_DEVICE constexpr auto elem_scale(A const& a, B const& b);
template <class A, class B> CUTE_DSL_HOST_DEVICE constexpr auto round_up(A const& a, B const& b);
template <class A, class B> CUTE_DSL_HOST_DEVICE constexpr auto compatible(A const& a, B const& b);
template <class A, class B> CUTE_DSL_HOST_DEVICE constexpr auto weakly_compatible(A const& a, B const& b);
template <class A, class B> CUTE_DSL_HOST_DEVICE constexpr auto elem_less(A const& a, B const& b);

namespace detail {
#define CUTE_DSL_FUNCTION_OBJECT(TYPE, NAME)                                                     \
  struct TYPE {                                                                                  \
    template <class... As>                                                                       \
    CUTE_DSL_HOST_DEVICE constexpr auto operator()(As const&... as) const { return NAME(as...); } \
  };
CUTE_DSL_FUNCTION_OBJECT(product_fn, ::cute_dsl::product)
CUTE_DSL_FUNCTION_OBJECT(sum_fn, ::cute_dsl::sum)
CUTE_DSL_FUNCTION_OBJECT(inner_product_fn, ::cute_dsl::inner_product)
CUTE_DSL_FUNCTION_OBJECT(elem_scale_fn, ::cute_dsl::elem_scale)
CUTE_DSL_FUNCTION_OBJECT(round_up_fn, ::cute_dsl::round_up)
CUTE_DSL_FUNCTION_OBJECT(compatible_fn, ::cute_dsl::compatible)
CUTE_DSL_FUNCTION_OBJECT(weakly_compatible_fn, ::cute_dsl::weakly_compatible)
CUTE_DSL_FUNCTION_OBJECT(elem_less_fn, ::cute_dsl::elem_less)
CUTE_DSL_FUNCTION_OBJECT(max_fn, ::cute_dsl::max)
CUTE_DSL_FUNCTION_OBJECT(min_fn, ::cute_dsl::min)
CUTE_DSL_FUNCTION_OBJECT(gcd_fn, ::cute_dsl::gcd)
#undef CUTE_DSL_FUNCTION_OBJECT

// Variadic reductions used as the `g` of transform_apply.
struct product_all { template <class... V> CUTE_DSL_HOST_DEVICE constexpr auto operator()(V const&... v) const { return (Int<1>{} * ... * v); } };
struct sum_all { template <class... V> CUTE_DSL_HOST_DEVICE constexpr auto operator()(V const&... v) const { return (Int<0>{} + ... + v); } };
struct and_all { template <class... V> CUTE_DSL_HOST_DEVICE constexpr auto operator()(V const&... v) const { return (true_type{} && ... && v); } };

// One step of dividing b out of a's modes from the left: acc = (result so far, what remains of b).
template <bool Ceil> struct divide_out_step {
  template <class Acc, class Ai>
  CUTE_DSL_HOST_DEVICE constexpr auto operator()(Acc const& acc, Ai const& ai) const;
};
}  // namespace detail

// ---- rank, depth ---------------------------------------------------------------------------------

// Number of top-level modes; 1 for an integer. Always static.
template <int... Is, class T>
CUTE_DSL_HOST_DEVICE constexpr auto rank(T const& t) {
  if constexpr (sizeof...(Is) == 0) {
    if constexpr (is_tuple_v<T>) return Int<int(tuple_size_v<T>)>{};
    else return Int<1>{};
  } else {
    return rank(get<Is...>(t));
  }
}
template <class T> inline constexpr int rank_v = decltype(rank(declval<T>()))::value;

namespace detail {
template <class T> struct depth_of { static constexpr int value = 0; };
CUTE_DSL_HOST_DEVICE constexpr int max_of() { return 0; }
template <class... Is>
CUTE_DSL_HOST_DEVICE constexpr int max_of(int a, Is... rest) {
  int b = max_of(rest...);
  return a > b ? a : b;
}
template <class... Ts> struct depth_of<tuple<Ts...>> {
  static constexpr int value = 1 + max_of(depth_of<Ts>::value...);
};
}  // namespace detail

// Nesting depth: 0 for an integer, 1 + the deepest element for a tuple. Always static.
template <int... Is, class T>
CUTE_DSL_HOST_DEVICE constexpr auto depth(T const& t) {
  if constexpr (sizeof...(Is) == 0) return Int<detail::depth_of<remove_cvref_t<T>>::value>{};
  else return depth(get<Is...>(t));
}
template <class T> inline constexpr int depth_v = detail::depth_of<remove_cvref_t<T>>::value;

// ---- product, size, sum, inner product -------------------------------------------------------------

// Product of all leaves (1 for the empty tuple).
template <class T>
CUTE_DSL_HOST_DEVICE constexpr auto product(T const& t) {
  if constexpr (is_tuple_v<T>) return transform_apply(t, detail::product_fn{}, detail::product_all{});
  else return t;
}

// Product of the modes selected by Is (all of t when none).
template <int... Is, class T>
  requires is_int_tuple_v<T>
CUTE_DSL_HOST_DEVICE constexpr auto size(T const& t) {
  if constexpr (sizeof...(Is) == 0) return product(t);
  else return product(get<Is...>(t));
}

// The product of each top-level mode: a tuple of rank(t) integers.
template <class T>
CUTE_DSL_HOST_DEVICE constexpr auto product_each(T const& t) {
  return transform(wrap(t), detail::product_fn{});
}

template <class T>
CUTE_DSL_HOST_DEVICE constexpr auto sum(T const& t) {
  if constexpr (is_tuple_v<T>) return transform_apply(t, detail::sum_fn{}, detail::sum_all{});
  else return t;
}

// Sum of the products of corresponding leaves; a and b congruent.
template <class A, class B>
CUTE_DSL_HOST_DEVICE constexpr auto inner_product(A const& a, B const& b) {
  if constexpr (is_tuple_v<A> && is_tuple_v<B>) {
    static_assert(tuple_size_v<A> == tuple_size_v<B>, "inner_product: the int-tuples must have the same rank");
    return transform_apply(a, b, detail::inner_product_fn{}, detail::sum_all{});
  } else {
    static_assert(!is_tuple_v<A> && !is_tuple_v<B>, "inner_product: the int-tuples must be congruent");
    return a * b;
  }
}

// ---- reductions over all leaves: max, min, gcd of int-tuples -----------------------------------

template <class T>
  requires is_tuple_v<T>
CUTE_DSL_HOST_DEVICE constexpr auto max(T const& t) {
  return fold(flatten_to_tuple(t), get<0>(flatten_to_tuple(t)), detail::max_fn{});
}
template <class T>
  requires is_tuple_v<T>
CUTE_DSL_HOST_DEVICE constexpr auto min(T const& t) {
  return fold(flatten_to_tuple(t), get<0>(flatten_to_tuple(t)), detail::min_fn{});
}
template <class T>
  requires is_tuple_v<T>
CUTE_DSL_HOST_DEVICE constexpr auto gcd(T const& t) {
  return fold(flatten_to_tuple(t), Int<0>{}, detail::gcd_fn{});
}

// ---- elementwise arithmetic on congruent int-tuples ------------------------------------------------

#define CUTE_DSL_ELEMENTWISE(NAME, EXPR)                                                            \
  template <class A, class B>                                                                       \
  CUTE_DSL_HOST_DEVICE constexpr auto NAME(A const& a, B const& b);                                \
  struct NAME##_fn {                                                                                \
    template <class A, class B>                                                                     \
    CUTE_DSL_HOST_DEVICE constexpr auto operator()(A const& a, B const& b) const { return NAME(a, b); } \
  };                                                                                                \
  template <class A, class B>                                                                       \
  CUTE_DSL_HOST_DEVICE constexpr auto NAME(A const& a, B const& b) {                               \
    if constexpr (is_tuple_v<A> || is_tuple_v<B>) {                                                 \
      static_assert(is_tuple_v<A> && is_tuple_v<B> && tuple_size_v<A> == tuple_size_v<B>,           \
                    #NAME ": the int-tuples must be congruent");                                    \
      return transform(a, b, NAME##_fn{});                                                         \
    } else {                                                                                        \
      return EXPR;                                                                                  \
    }                                                                                               \
  }
CUTE_DSL_ELEMENTWISE(elem_add, a + b)
CUTE_DSL_ELEMENTWISE(elem_sub, a - b)
CUTE_DSL_ELEMENTWISE(elem_mul, a * b)
CUTE_DSL_ELEMENTWISE(elem_min, cute_dsl::min(a, b))
CUTE_DSL_ELEMENTWISE(elem_max, cute_dsl::max(a, b))
#undef CUTE_DSL_ELEMENTWISE

// a scaled by b, with b's modes collapsed to their products where a is an integer.
template <class A, class B>
CUTE_DSL_HOST_DEVICE constexpr auto elem_scale(A const& a, B const& b) {
  if constexpr (is_tuple_v<A>) return transform(a, b, detail::elem_scale_fn{});
  else return a * product(b);
}

namespace detail {
struct ceil_div_fn { template <class A, class B> CUTE_DSL_HOST_DEVICE constexpr auto operator()(A const& a, B const& b) const; };
struct shape_div_fn { template <class A, class B> CUTE_DSL_HOST_DEVICE constexpr auto operator()(A const& a, B const& b) const; };
struct underscore_to_zero_fn {
  template <class X> CUTE_DSL_HOST_DEVICE constexpr auto operator()(X const& x) const {
    if constexpr (is_underscore_v<X>) return Int<0>{};
    else return x;
  }
};
}  // namespace detail

// ---- division rules on shapes ------------------------------------------------------------------------

// ceil_div of int-tuples. tuple/tuple: elementwise (missing modes of b count as 1);
// tuple/int: b is divided out of a's modes from the left; int/tuple: by b's size.
template <class A, class B>
  requires(is_tuple_v<A> || is_tuple_v<B>)
CUTE_DSL_HOST_DEVICE constexpr auto ceil_div(A const& a, B const& b) {
  if constexpr (is_tuple_v<A> && is_tuple_v<B>) {
    static_assert(tuple_size_v<A> >= tuple_size_v<B>, "ceil_div: the divisor has more modes than the dividend");
    constexpr int R = int(tuple_size_v<A>);
    return transform(a, append<R>(b, Int<1>{}), detail::ceil_div_fn{});
  } else if constexpr (is_tuple_v<A>) {
    return get<0>(fold(a, make_tuple(tuple<>{}, b), detail::divide_out_step<true>{}));
  } else {
    return ceil_div(a, product(b));
  }
}

// shape_div of int-tuples (see numeric/math.hpp for integers). tuple/tuple: elementwise;
// tuple/int: b is divided out of a's modes from the left, e.g. shape_div((4,5,6), 40) = (1,1,3);
// int/tuple: by b's size.
template <class A, class B>
  requires(is_tuple_v<A> || is_tuple_v<B>)
CUTE_DSL_HOST_DEVICE constexpr auto shape_div(A const& a, B const& b) {
  if constexpr (is_tuple_v<A> && is_tuple_v<B>) {
    static_assert(tuple_size_v<A> == tuple_size_v<B>, "shape_div: the int-tuples must have the same rank");
    return transform(a, b, detail::shape_div_fn{});
  } else if constexpr (is_tuple_v<A>) {
    return get<0>(fold(a, make_tuple(tuple<>{}, b), detail::divide_out_step<false>{}));
  } else {
    return shape_div(a, product(b));
  }
}

namespace detail {
template <class A, class B>
CUTE_DSL_HOST_DEVICE constexpr auto ceil_div_fn::operator()(A const& a, B const& b) const { return ceil_div(a, b); }
template <class A, class B>
CUTE_DSL_HOST_DEVICE constexpr auto shape_div_fn::operator()(A const& a, B const& b) const { return shape_div(a, b); }
template <bool Ceil>
template <class Acc, class Ai>
CUTE_DSL_HOST_DEVICE constexpr auto divide_out_step<Ceil>::operator()(Acc const& acc, Ai const& ai) const {
  if constexpr (Ceil) return make_tuple(append(get<0>(acc), ceil_div(ai, get<1>(acc))), ceil_div(get<1>(acc), ai));
  else return make_tuple(append(get<0>(acc), shape_div(ai, get<1>(acc))), shape_div(get<1>(acc), ai));
}
}  // namespace detail

// Round a up to a multiple of b, mode by mode (missing modes of b count as 1).
template <class A, class B>
CUTE_DSL_HOST_DEVICE constexpr auto round_up(A const& a, B const& b) {
  if constexpr (is_tuple_v<A> && is_tuple_v<B>) {
    constexpr int R = int(tuple_size_v<A>);
    return transform(a, append<R>(b, Int<1>{}), detail::round_up_fn{});
  } else {
    return ceil_div(a, b) * b;
  }
}

// The smaller shape, keeping a static 1 static (1 is below every shape).
template <class A, class B>
CUTE_DSL_HOST_DEVICE constexpr auto shape_min(A const& a, B const& b) {
  static_assert(!is_tuple_v<A> && !is_tuple_v<B>, "shape_min: integers only");
  if constexpr (is_constant_v<1, A> || is_constant_v<1, B>) return Int<1>{};
  else return min(a, b);
}

// ---- profile comparisons (static answers) ------------------------------------------------------------

namespace detail {
template <class A, class B> struct congruent_impl : bool_constant<!is_tuple_v<A> && !is_tuple_v<B>> {};
template <class A, class B> struct congruent_impl_same_rank;
template <class... As, class... Bs> struct congruent_impl_same_rank<tuple<As...>, tuple<Bs...>>
    : bool_constant<(congruent_impl<As, Bs>::value && ...)> {};
template <class... As, class... Bs> struct congruent_impl<tuple<As...>, tuple<Bs...>>
    : conditional_t<sizeof...(As) == sizeof...(Bs), congruent_impl_same_rank<tuple<As...>, tuple<Bs...>>, false_type> {};
// a <= b: where a has an integer, b may have anything.
template <class A, class B> struct weakly_congruent_impl : bool_constant<!is_tuple_v<A>> {};
template <class A, class B> struct weakly_congruent_impl_same_rank;
template <class... As, class... Bs> struct weakly_congruent_impl_same_rank<tuple<As...>, tuple<Bs...>>
    : bool_constant<(weakly_congruent_impl<As, Bs>::value && ...)> {};
template <class... As, class... Bs> struct weakly_congruent_impl<tuple<As...>, tuple<Bs...>>
    : conditional_t<sizeof...(As) == sizeof...(Bs), weakly_congruent_impl_same_rank<tuple<As...>, tuple<Bs...>>, false_type> {};
}  // namespace detail

// Same nesting (profile). Static.
template <class A, class B>
CUTE_DSL_HOST_DEVICE constexpr auto congruent(A const&, B const&) {
  return bool_constant<detail::congruent_impl<remove_cvref_t<A>, remove_cvref_t<B>>::value>{};
}
template <class A, class B> inline constexpr bool is_congruent_v = detail::congruent_impl<remove_cvref_t<A>, remove_cvref_t<B>>::value;

// a's profile is a coarsening of b's: wherever a has an integer, b may have a tuple. Static.
template <class A, class B>
CUTE_DSL_HOST_DEVICE constexpr auto weakly_congruent(A const&, B const&) {
  return bool_constant<detail::weakly_congruent_impl<remove_cvref_t<A>, remove_cvref_t<B>>::value>{};
}
template <class A, class B> inline constexpr bool is_weakly_congruent_v = detail::weakly_congruent_impl<remove_cvref_t<A>, remove_cvref_t<B>>::value;

// Every coordinate of shape a is a coordinate of shape b: the sizes agree at every leaf of a.
// Static when the sizes involved are; false_type as soon as the profiles cannot match.
template <class A, class B>
CUTE_DSL_HOST_DEVICE constexpr auto compatible(A const& a, B const& b) {
  if constexpr (is_tuple_v<A> && is_tuple_v<B>) {
    if constexpr (tuple_size_v<A> != tuple_size_v<B>) return false_type{};
    else return transform_apply(a, b, detail::compatible_fn{}, detail::and_all{});
  } else if constexpr (is_integral_v<A>) {
    return a == size(b);
  } else {
    return false_type{};
  }
}

// Weaker than compatible: the sizes at a's leaves need only divide b's (a is a tile of b).
template <class A, class B>
CUTE_DSL_HOST_DEVICE constexpr auto weakly_compatible(A const& a, B const& b) {
  if constexpr (is_tuple_v<A> && is_tuple_v<B>) {
    if constexpr (tuple_size_v<A> != tuple_size_v<B>) return false_type{};
    else return transform_apply(a, b, detail::weakly_compatible_fn{}, detail::and_all{});
  } else if constexpr (is_integral_v<A>) {
    return size(b) % a == Int<0>{};
  } else {
    return false_type{};
  }
}

// ---- coordinate order ----------------------------------------------------------------------------------

// Every leaf of a below the matching leaf of b (a coordinate inside a shape). An integer a
// against a tuple b compares against each leaf.
template <class A, class B>
CUTE_DSL_HOST_DEVICE constexpr auto elem_less(A const& a, B const& b) {
  if constexpr (is_tuple_v<A> && is_tuple_v<B>) {
    static_assert(tuple_size_v<A> == tuple_size_v<B>, "elem_less: the int-tuples must have the same rank");
    return transform_apply(a, b, detail::elem_less_fn{}, detail::and_all{});
  } else if constexpr (is_tuple_v<B>) {
    return transform_apply(repeat_like(wrap(b), a), b, detail::elem_less_fn{}, detail::and_all{});
  } else {
    static_assert(!is_tuple_v<A>, "elem_less: a tuple cannot be compared with an integer");
    return a < b;
  }
}
template <class A, class B>
CUTE_DSL_HOST_DEVICE constexpr auto elem_leq(A const& a, B const& b) { return !elem_less(b, a); }
template <class A, class B>
CUTE_DSL_HOST_DEVICE constexpr auto elem_geq(A const& a, B const& b) { return !elem_less(a, b); }

// ---- static-ness of each leaf ----------------------------------------------------------------------------

template <class T> inline constexpr bool has_underscore_impl_v = is_underscore_v<T>;
template <class... Ts> inline constexpr bool has_underscore_impl_v<tuple<Ts...>> = (has_underscore_impl_v<Ts> || ...);
template <class T> inline constexpr bool has_underscore_v = has_underscore_impl_v<remove_cvref_t<T>>;

// ---- slicing int-tuples by a coordinate with underscores -----------------------------------------------

namespace detail {
template <class Crd, class T> CUTE_DSL_HOST_DEVICE constexpr auto lift_slice(Crd const& c, T const& t);
template <class Crd, class T> CUTE_DSL_HOST_DEVICE constexpr auto lift_dice(Crd const& c, T const& t);
template <class Crd, class T, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr auto slice_modes(Crd const& c, T const& t, index_sequence<Is...>) {
  return tuple_cat(tuple<>{}, lift_slice(get<Is>(c), get<Is>(t))...);
}
template <class Crd, class T, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr auto dice_modes(Crd const& c, T const& t, index_sequence<Is...>) {
  return tuple_cat(tuple<>{}, lift_dice(get<Is>(c), get<Is>(t))...);
}
}  // namespace detail

// The modes of t selected by the underscores of c, flattened one level where c is a tuple:
// slice((_,2), (4,8)) = (4); slice((_,(1,_)), (4,(2,3))) = (4,(3)); an integer c selects nothing.
template <class Crd, class T>
CUTE_DSL_HOST_DEVICE constexpr auto slice(Crd const& c, T const& t) {
  if constexpr (is_tuple_v<Crd>) {
    static_assert(is_tuple_v<T> && tuple_size_v<Crd> == tuple_size_v<T>, "slice: the coordinate must have the rank of the tuple");
    return detail::slice_modes(c, t, make_index_sequence<tuple_size_v<Crd>>{});
  } else if constexpr (is_underscore_v<Crd>) {
    return t;
  } else {
    return tuple<>{};
  }
}

// The complement of slice: the modes of t where c holds integers.
template <class Crd, class T>
CUTE_DSL_HOST_DEVICE constexpr auto dice(Crd const& c, T const& t) {
  if constexpr (is_tuple_v<Crd>) {
    static_assert(is_tuple_v<T> && tuple_size_v<Crd> == tuple_size_v<T>, "dice: the coordinate must have the rank of the tuple");
    return detail::dice_modes(c, t, make_index_sequence<tuple_size_v<Crd>>{});
  } else if constexpr (is_underscore_v<Crd>) {
    return tuple<>{};
  } else {
    return t;
  }
}

namespace detail {
template <class Crd, class T>
CUTE_DSL_HOST_DEVICE constexpr auto lift_slice(Crd const& c, T const& t) {
  if constexpr (is_tuple_v<Crd>) {
    if constexpr (has_underscore_v<Crd>) return make_tuple(slice(c, t));
    else return tuple<>{};
  } else if constexpr (is_underscore_v<Crd>) {
    return make_tuple(t);
  } else {
    return tuple<>{};
  }
}
template <class Crd, class T>
CUTE_DSL_HOST_DEVICE constexpr auto lift_dice(Crd const& c, T const& t) {
  if constexpr (is_tuple_v<Crd>) return make_tuple(dice(c, t));
  else if constexpr (is_underscore_v<Crd>) return tuple<>{};
  else return make_tuple(t);
}
}  // namespace detail

// c with every underscore replaced by a static 0: the origin of the slice c selects.
template <class Crd>
CUTE_DSL_HOST_DEVICE constexpr auto underscore_to_zero(Crd const& c) {
  return transform_leaf(c, detail::underscore_to_zero_fn{});
}

}  // namespace cute_dsl
