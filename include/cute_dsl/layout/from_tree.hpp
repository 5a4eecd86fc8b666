// From the value form tree::Tree back to a static Layout type: the decoding half of the bridge
// through which the compile-time algebra runs the tree algorithms (layout/static_bridge.hpp).
//
// Two ways in:
//   from_tree_t<T>       T a tree::Tree given directly as a template argument (class-type NTTP);
//   decode_layout_t<H>   H a type with `static constexpr tree::Tree tree`, e.g. a struct whose
//                        member is computed from other types. The algebra uses this one.
// Leaves become C<int> when the value fits in int, else C<long long>; tuple nodes become
// cute_dsl::tuple; a root leaf becomes an integral layout.
//
// Why a holder type rather than the Tree itself as the argument of every decoding step: a Tree
// is ~2.3 KB, and a template keyed on it makes the compiler compare and mangle the whole value
// for each of the per-node instantiations. Measured on 100 decodes of a 21-node tree: NVRTC
// 1.9 s with the Tree as the key, 0.95 s with a holder type, of which ~0.47 s is the cost of
// the resulting tuple types themselves (writing them out by hand costs the same). g++ is
// indifferent (~0.55 s either way). from_tree_t therefore wraps its argument in a holder once.
//
// Child positions are computed once per tree (one constant array), not walked per node.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/container/tuple.hpp"
#include "cute_dsl/layout/tree.hpp"
#include "cute_dsl/layout/layout.hpp"

namespace cute_dsl {

namespace detail {

// C<int> when v fits in int (the type users write as Int<N>), else C<long long>.
template <long long v, bool fits_int = (v >= -2147483647LL - 1 && v <= 2147483647LL)>
struct narrow_constant { using type = C<int(v)>; };
template <long long v>
struct narrow_constant<v, false> { using type = C<v>; };
template <long long v> using narrow_constant_t = typename narrow_constant<v>::type;

// For each tuple node i, its children are pos[first[i]], pos[first[i] + 1], ...
struct TreeIndex {
  int first[tree::kCapacity];
  int pos[tree::kCapacity];
};

CUTE_DSL_HOST_DEVICE constexpr TreeIndex index_tree(const tree::Tree& t) {
  TreeIndex x{};
  int n = 0;
  for (int i = 0; i < t.count; ++i) {
    x.first[i] = n;
    if (t.is_leaf(i)) continue;
    int c = i + 1;
    for (int k = 0; k < t.nodes[i].children; ++k) {
      x.pos[n++] = c;
      c = t.next(c);
    }
  }
  return x;
}

// H's `tree` plus its index. (Deriving, not a reference member: NVRTC treats a static
// reference member as a host variable and refuses it.)
template <class H>
struct IndexedTree : H {
  static constexpr TreeIndex index = index_tree(H::tree);
};

template <class X, int I, bool Leaf = (X::tree.nodes[I].children < 0)>
struct decode_node {
  using shape = narrow_constant_t<X::tree.nodes[I].shape>;
  using stride = narrow_constant_t<X::tree.nodes[I].stride>;
};

template <class X, class Positions>
struct decode_children;
template <class X, unsigned long... K>
struct decode_children<X, index_sequence<K...>> {
  using shape = tuple<typename decode_node<X, X::index.pos[K]>::shape...>;
  using stride = tuple<typename decode_node<X, X::index.pos[K]>::stride...>;
};

template <unsigned long First, class Seq>
struct offset_sequence;
template <unsigned long First, unsigned long... K>
struct offset_sequence<First, index_sequence<K...>> {
  using type = index_sequence<(First + K)...>;
};

template <class X, int I>
struct decode_node<X, I, false>
    : decode_children<X, typename offset_sequence<X::index.first[I],
                                                  make_index_sequence<X::tree.nodes[I].children>>::type> {};

template <class H>
struct decode_layout {
  static_assert(H::tree.count > 0 && !H::tree.overflow, "from_tree: the tree is empty or overflowed its capacity");
  using X = IndexedTree<H>;
  using type = Layout<typename decode_node<X, 0>::shape, typename decode_node<X, 0>::stride>;
  using shape = typename decode_node<X, 0>::shape;
};

template <tree::Tree T>
struct TreeHolder {
  static constexpr tree::Tree tree = T;
};

}  // namespace detail

// The static Layout type of the tree held by H (`static constexpr tree::Tree tree`).
template <class H> using decode_layout_t = typename detail::decode_layout<H>::type;
// The static int-tuple type of the shapes of the tree held by H (strides ignored).
template <class H> using decode_shape_t = typename detail::decode_layout<H>::shape;

// The static Layout type of a tree given as a template argument:
//   constexpr tree::Tree t = ...;  using L = from_tree_t<t>;
template <tree::Tree T> using from_tree_t = decode_layout_t<detail::TreeHolder<T>>;

}  // namespace cute_dsl
