// From a template layout (or int-tuple) to its value form, tree::Tree.
//
// Works for static and run-time leaves alike: the tree holds the layout's current values.
// The compile-time algebra (layout/algebra.hpp) encodes its static operands this way, runs the
// tree algorithms in a constant expression and decodes the answer; the run-time tools use it to
// print and draw template layouts.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/container/tuple.hpp"
#include "cute_dsl/container/tuple_algorithms.hpp"
#include "cute_dsl/layout/tree.hpp"
#include "cute_dsl/layout/layout.hpp"

namespace cute_dsl {

namespace detail {
template <class S, class D>
CUTE_DSL_HOST_DEVICE constexpr void push_layout(tree::Tree& t, S const& s, D const& d);

template <class S, class D, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr void push_layout_modes(tree::Tree& t, S const& s, D const& d, index_sequence<Is...>) {
  (push_layout(t, get<Is>(s), get<Is>(d)), ...);
}

// Preorder: a tuple node with its child count, then each child's subtree.
template <class S, class D>
CUTE_DSL_HOST_DEVICE constexpr void push_layout(tree::Tree& t, S const& s, D const& d) {
  if constexpr (is_tuple_v<S>) {
    t.push_tuple(int(tuple_size_v<S>));
    push_layout_modes(t, s, d, tuple_seq<S>{});
  } else {
    static_assert(is_integral_v<S> && is_integral_v<D>, "to_tree: shape and stride leaves must be integers");
    t.push_leaf(tree::index_t(s), tree::index_t(d));
  }
}
}  // namespace detail

// The layout as a tree: leaves (shape, stride), nesting kept; an integral layout is a root leaf.
template <class S, class D>
CUTE_DSL_HOST_DEVICE constexpr tree::Tree to_tree(Layout<S, D> const& layout) {
  tree::Tree t{};
  detail::push_layout(t, layout.shape(), layout.stride());
  return t;
}

// An int-tuple as a tree with every stride 0 (the tree's convention for int-tuples).
template <class T>
  requires is_int_tuple_v<T>
CUTE_DSL_HOST_DEVICE constexpr tree::Tree to_tree(T const& int_tuple) {
  tree::Tree t{};
  detail::push_layout(t, int_tuple, repeat_like(int_tuple, Int<0>{}));
  return t;
}

// The tree of a static layout type, as a constant (usable as a template argument).
template <class L>
inline constexpr tree::Tree tree_of_v = to_tree(L{});

}  // namespace cute_dsl
