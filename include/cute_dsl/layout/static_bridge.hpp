// The compile-time face of the layout algebra: static template layouts are encoded into the value
// form tree::Tree, the tree algorithm runs in a constant expression, a refused input becomes a
// static_assert naming the function and the rule, and the answer is decoded back into a type.
//
// Why through the tree and not a template algebra of its own: the algebra is then written once
// (layout/tree_*.hpp), so compile-time and run-time answers agree by construction, including
// CuTe's corner cases (tie-breaking sorts, kept size-1 modes, the stricter divisibility rules).
// See docs/design/layout.md for the measured costs.
//
// Use:  using R = detail::StaticResult<Op>;   // Op::run() returns tree::Result<tree::Tree>
//       CUTE_DSL_STATIC_RESULT_CHECKS(R::result, "composition");
//       return decode_layout_t<R>{};
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/util/check.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/container/tuple.hpp"
#include "cute_dsl/layout/tree.hpp"
#include "cute_dsl/layout/tree_algebra.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/from_tree.hpp"

namespace cute_dsl {

namespace detail {

// ---- encoding static types ----------------------------------------------------------------------
// A class per node, no function templates over values: NVRTC pays per instantiation, and this
// costs less than half of the generic to_tree (0.19 s vs 0.45 s for 200 small layouts).

template <class S, class D>
struct static_encoder {
  CUTE_DSL_HOST_DEVICE static constexpr void push(tree::Tree& t) {
    t.push_leaf(tree::index_t(S::value), tree::index_t(D::value));
  }
};
template <class... S, class... D>
struct static_encoder<tuple<S...>, tuple<D...>> {
  CUTE_DSL_HOST_DEVICE static constexpr void push(tree::Tree& t) {
    t.push_tuple(int(sizeof...(S)));
    (static_encoder<S, D>::push(t), ...);
  }
};

// An int-tuple: the tree's convention is every stride 0.
template <class S>
struct static_shape_encoder {
  CUTE_DSL_HOST_DEVICE static constexpr void push(tree::Tree& t) { t.push_leaf(tree::index_t(S::value), 0); }
};
template <class... S>
struct static_shape_encoder<tuple<S...>> {
  CUTE_DSL_HOST_DEVICE static constexpr void push(tree::Tree& t) {
    t.push_tuple(int(sizeof...(S)));
    (static_shape_encoder<S>::push(t), ...);
  }
};

template <class L> struct static_layout_encoder;
template <class S, class D>
struct static_layout_encoder<Layout<S, D>> : static_encoder<S, D> {};
// A static integer n used where a layout is expected (a tiler element, a tile) means n:1.
template <auto v>
struct static_layout_encoder<C<v>> : static_encoder<C<v>, C<1>> {};

// A tiler [T0, T1, ...]: a tuple whose elements are layouts or integers.
template <class T> struct static_tiler_encoder;
template <class... Ts>
struct static_tiler_encoder<tuple<Ts...>> {
  CUTE_DSL_HOST_DEVICE static constexpr void push(tree::Tree& t) {
    t.push_tuple(int(sizeof...(Ts)));
    (static_layout_encoder<Ts>::push(t), ...);
  }
};

template <class L>
CUTE_DSL_HOST_DEVICE constexpr tree::Tree static_tree() {
  tree::Tree t{};
  static_layout_encoder<remove_cvref_t<L>>::push(t);
  return t;
}
template <class S>
CUTE_DSL_HOST_DEVICE constexpr tree::Tree static_shape_tree() {
  tree::Tree t{};
  static_shape_encoder<remove_cvref_t<S>>::push(t);
  return t;
}
template <class T>
CUTE_DSL_HOST_DEVICE constexpr tree::Tiler static_tiler() {
  tree::Tiler t{};
  static_tiler_encoder<remove_cvref_t<T>>::push(t.modes);
  return t;
}

// ---- the result holder ----------------------------------------------------------------------------

// Op: a type with `static constexpr tree::Result<tree::Tree> run()`. On error the decoded tree is
// `1:0`, so that the static_assert naming the rule is the only diagnostic.
template <class Op>
struct StaticResult {
  static constexpr tree::Result<tree::Tree> result = Op::run();
  static constexpr tree::Tree tree = result.ok() ? result.value : tree::make_tree_leaf(1, 0);
};

// Integer answers (max_common_vector).
template <class Op>
struct StaticIndexResult {
  static constexpr tree::Result<tree::index_t> result = Op::run();
};

// ---- what counts as what --------------------------------------------------------------------------

template <class T> inline constexpr bool is_static_layout_v = is_layout_v<T> && is_static_v<T>;
// A tiler in tuple form: [T0, T1, ...], each a layout or an integer.
template <class T> inline constexpr bool is_tiler_element_v = is_layout_v<T> || is_integral_v<T>;
template <class T> inline constexpr bool is_tuple_tiler_impl_v = false;
template <class... Ts> inline constexpr bool is_tuple_tiler_impl_v<tuple<Ts...>> = (is_tiler_element_v<Ts> && ...);
template <class T> inline constexpr bool is_tuple_tiler_v = is_tuple_tiler_impl_v<remove_cvref_t<T>>;

}  // namespace detail

// A layout, a tiler tuple [T0, T1, ...] of layouts and integers, or an integer n (meaning n:1):
// what composition, the divides and the products accept on their right.
template <class T>
concept Tiler = is_layout_v<T> || is_integral_v<T> || detail::is_tuple_tiler_v<T>;

}  // namespace cute_dsl

// One static_assert per rule of the tree algebra; only the broken one fires. `function` is the
// user-facing name, a string literal. The last line catches an Error added to tree.hpp later.
#define CUTE_DSL_STATIC_RESULT_RULE(result, function, rule) \
  static_assert((result).error != ::cute_dsl::tree::Error::rule, function ": " CUTE_DSL_RULE_TEXT(rule))
#define CUTE_DSL_STATIC_RESULT_CHECKS(result, function)                                   \
  CUTE_DSL_STATIC_RESULT_RULE(result, function, capacity);                                \
  CUTE_DSL_STATIC_RESULT_RULE(result, function, stride_divisibility);                     \
  CUTE_DSL_STATIC_RESULT_RULE(result, function, shape_divisibility);                      \
  CUTE_DSL_STATIC_RESULT_RULE(result, function, complement_injective);                    \
  CUTE_DSL_STATIC_RESULT_RULE(result, function, complement_divisibility);                 \
  CUTE_DSL_STATIC_RESULT_RULE(result, function, left_inverse_divisibility);               \
  CUTE_DSL_STATIC_RESULT_RULE(result, function, left_inverse_injective);                  \
  CUTE_DSL_STATIC_RESULT_RULE(result, function, rank_mismatch);                           \
  CUTE_DSL_STATIC_RESULT_RULE(result, function, congruence);                              \
  CUTE_DSL_STATIC_RESULT_RULE(result, function, zero_shape);                              \
  CUTE_DSL_STATIC_RESULT_RULE(result, function, negative_stride);                         \
  CUTE_DSL_STATIC_RESULT_RULE(result, function, division_by_zero);                        \
  CUTE_DSL_STATIC_RESULT_RULE(result, function, tile_divisibility);                       \
  CUTE_DSL_STATIC_RESULT_RULE(result, function, overflow);                                \
  static_assert((result).error <= ::cute_dsl::tree::Error::overflow, function ": the layout algebra refused the input")
