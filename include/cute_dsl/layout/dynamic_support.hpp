// What the algebra on layouts with run-time leaves shares: the integer type of computed leaves,
// building layouts mode by mode, and the run-time check of the rules through the tree algebra.
//
// The dynamic face in one paragraph (docs/design/layout.md has the long form). A result's TYPE
// cannot depend on run-time values, so its structure is decided from the types alone: dynamic
// modes are never merged unless the types prove it, and size-1 modes that only values would
// remove are kept. The values are computed by small typed code (no tree, no loops over 96
// nodes). The RULES, however, are checked by running the tree algorithm itself on the run-time
// values, so a dynamic input is refused exactly when the same input given statically would
// fail to compile, with the same message; where the tree accepts, the dynamic result is the
// same function (and size) as the static one. The tests compare the two on whole domains.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/util/check.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/container/tuple.hpp"
#include "cute_dsl/container/tuple_algorithms.hpp"
#include "cute_dsl/layout/tree.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/to_tree.hpp"
#include "cute_dsl/layout/static_bridge.hpp"

// How a layout with run-time leaves is checked against the algebra's rules:
//   host:   by running the tree algorithm itself on the values (authoritative, same rules as the
//           static path by construction);
//   device: by typed checks inside the dynamic algorithms (the same rules, written for the few
//           modes at hand), because compiling the 96-node tree algorithms into a kernel costs tens
//           of seconds of NVRTC time (measured: 43 s for one kernel with two dynamic operations).
// The two user knobs, CUTE_DSL_DEVICE_LAYOUT_CHECKS and CUTE_DSL_HOST_TYPED_LAYOUT_CHECKS, live in
// config.hpp.
#if defined(__CUDA_ARCH__) || defined(__CUDACC_RTC__)
#  define CUTE_DSL_LAYOUT_TREE_CHECKS 0
#  define CUTE_DSL_LAYOUT_TYPED_CHECKS CUTE_DSL_DEVICE_LAYOUT_CHECKS
#else
#  define CUTE_DSL_LAYOUT_TREE_CHECKS (!CUTE_DSL_HOST_TYPED_LAYOUT_CHECKS)
#  define CUTE_DSL_LAYOUT_TYPED_CHECKS CUTE_DSL_HOST_TYPED_LAYOUT_CHECKS
#endif

namespace cute_dsl::detail {

// ---- integer type of computed dynamic leaves --------------------------------------------------------

template <class T> struct leaf_value_type { using type = remove_cvref_t<T>; };
template <auto v> struct leaf_value_type<C<v>> { using type = decltype(v); };

// int unless some leaf is wider: the usual arithmetic conversions over all leaves given.
template <class... Ts>
using dynamic_int_t = decltype((int(0) + ... + typename leaf_value_type<remove_cvref_t<Ts>>::type(0)));

template <class T> struct leaves_int;
template <class T> struct leaves_int { using type = typename leaf_value_type<T>::type; };
template <class... Ts> struct leaves_int<tuple<Ts...>> { using type = dynamic_int_t<typename leaves_int<Ts>::type...>; };
template <class S, class D> struct leaves_int<Layout<S, D>> {
  using type = dynamic_int_t<typename leaves_int<S>::type, typename leaves_int<D>::type>;
};
// The integer type for values computed from the leaves of all of Xs (layouts, int-tuples).
template <class... Xs> using layout_int_t = dynamic_int_t<typename leaves_int<remove_cvref_t<Xs>>::type...>;

// A type-level proof: the expression's type is the static `true`.
template <class T> inline constexpr bool proven_v = is_constant_v<true, T>;

// ---- building layouts from modes --------------------------------------------------------------------

// The layout whose modes are the given layouts, always a tuple (even of one mode), as the tree
// algebra builds mode-wise results.
template <class... Ls>
CUTE_DSL_HOST_DEVICE constexpr auto layout_of_modes(Ls const&... ls) {
  return make_layout(make_tuple(ls.shape()...), make_tuple(ls.stride()...));
}

// The layout of the flat lists of shapes and strides `s`, `d` (tuples): no modes is `1:0`, one
// mode is integral, more are a flat tuple (the tree's from_modes).
template <class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto layout_of_flat(S const& s, D const& d) {
  if constexpr (tuple_size_v<S> == 0) return make_layout(Int<1>{}, Int<0>{});
  else if constexpr (tuple_size_v<S> == 1) return make_layout(get<0>(s), get<0>(d));
  else return make_layout(s, d);
}

// Mode k of a layout; an integral layout is its own mode 0.
template <int K, class L>
CUTE_DSL_HOST_DEVICE constexpr auto mode(L const& l) {
  if constexpr (is_tuple_v<typename L::shape_type>) return layout<K>(l);
  else return l;
}

// A tiler element as a layout: a layout unchanged, an integer n as n:1.
template <class T>
CUTE_DSL_HOST_DEVICE constexpr auto tiler_layout(T const& t) {
  if constexpr (is_layout_v<T>) return t;
  else return make_layout(t, Int<1>{});
}

// ---- encoding run-time values for the check ---------------------------------------------------------

template <class L>
CUTE_DSL_HOST_DEVICE constexpr tree::Tree value_tree(L const& l) {
  return to_tree(tiler_layout(l));
}

template <class... Ts, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr tree::Tiler value_tiler(tuple<Ts...> const& t, index_sequence<Is...>) {
  tree::Tiler r{};
  r.modes.push_tuple(int(sizeof...(Ts)));
  (r.modes.push_subtree(value_tree(get<Is>(t)), 0), ...);
  return r;
}
template <class... Ts>
CUTE_DSL_HOST_DEVICE constexpr tree::Tiler value_tiler(tuple<Ts...> const& t) {
  return value_tiler(t, index_sequence_for<Ts...>{});
}

// A layout, a tiler tuple or an integer, as the tree algebra takes it.
template <class T>
CUTE_DSL_HOST_DEVICE constexpr auto value_arg(T const& t) {
  if constexpr (is_tuple_v<T>) return value_tiler(t);
  else return value_tree(t);
}

inline constexpr bool typed_checks = bool(CUTE_DSL_LAYOUT_TYPED_CHECKS);

// Typed check shared by the dynamic algorithms: every run-time shape is positive.
struct positive_shape_fn {
  const char* function;
  template <class S>
  CUTE_DSL_HOST_DEVICE constexpr void operator()(S const& s) const {
    if constexpr (!is_C_v<S>) CUTE_DSL_CHECK_VALUES(s > 0, function, zero_shape, s, 0);
  }
};
template <class T>
CUTE_DSL_HOST_DEVICE constexpr void check_positive_shapes(const char* function, T const& shape) {
  if constexpr (typed_checks) for_each_leaf(shape, positive_shape_fn{function});
}

}  // namespace cute_dsl::detail

// Refuse a dynamic input exactly as the static path would (host): run the tree operation `call`
// (an expression producing a tree::Result) and fail with `function`'s name and the broken rule.
// Compiled out where the typed checks are used instead (device code).
#define CUTE_DSL_CHECK_BY_TREE(function, call)                               \
  do {                                                                       \
    if constexpr (bool(CUTE_DSL_LAYOUT_TREE_CHECKS))                            \
      ::cute_dsl::detail::check_result(function, call);                      \
  } while (0)

// The compile-time refusal of a dynamic input that no run-time value could make valid, or that
// the dynamic face does not support; `what` says which and why.
#define CUTE_DSL_UNSUPPORTED_DYNAMIC(cond, function, what) static_assert(cond, function ": " what)
