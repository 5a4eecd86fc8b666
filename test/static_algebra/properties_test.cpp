// The postconditions of the algebra over whole domains, on static results (whose values come
// from the tree algebra through the bridge) and on dynamic results of the same inputs.
#include "test_support.hpp"

#include <set>

namespace {

using namespace static_algebra_test;
using namespace cute_dsl;

template <class... Ts> struct List {};

// A few static layouts of different ranks, depths, strides (compact, padded, broadcast).
using Layouts = List<Layout<_8, _1>, Layout<tuple<_4, _6>, tuple<_1, _4>>, Layout<tuple<_4, _6>, tuple<_6, _1>>,
                     Layout<tuple<tuple<_2, _4>, _3>, tuple<tuple<_1, _2>, _16>>, Layout<tuple<_2, _3, _4>, tuple<_12, _4, _1>>,
                     Layout<tuple<_4, _2>, tuple<_2, _0>>, Layout<tuple<_2, tuple<_3, _2>>, tuple<_3, tuple<_1, _24>>>>;
using Tiles = List<Layout<_2, _1>, Layout<_4, _2>, Layout<tuple<_2, _2>, tuple<_1, _4>>, Layout<tuple<_3, _2>, tuple<_2, _1>>>;

template <class A, class B>
void composition_postcondition() {
  if constexpr (decltype(size(B{}))::value <= decltype(size(A{}))::value) {
    // Only valid pairs are instantiated statically: ask the tree first.
    constexpr auto r = tree::composition(detail::static_tree<A>(), detail::static_tree<B>());
    if constexpr (r.ok()) {
      const auto c = composition(A{}, B{});
      static_assert(is_static_v<decltype(c)>);
      for (int i = 0; i < int(size(B{})); ++i) EXPECT_EQ(int(c(i)), int(A{}(int(B{}(i))))) << i;
      // the dynamic form of the same inputs, as a function
      EXPECT_TRUE(same_function(to_tree(composition(dynamic_copy(A{}), B{})), to_tree(c)));
      EXPECT_TRUE(same_function(to_tree(composition(dynamic_copy(A{}), dynamic_copy(B{}))), to_tree(c)));
    }
  }
}

template <class A, class... Bs>
void composition_with_all(List<Bs...>) {
  (composition_postcondition<A, Bs>(), ...);
}

template <class... As, class Bs>
void composition_all(List<As...>, Bs bs) {
  (composition_with_all<As>(bs), ...);
}

TEST(Properties, CompositionIsFunctionComposition) { composition_all(Layouts{}, Tiles{}); }

template <class L>
void complement_postcondition() {
  constexpr auto r = tree::complement(detail::static_tree<L>(), index_t(64));
  if constexpr (r.ok()) {
    const auto c = complement(L{}, _64{});
    static_assert(is_static_v<decltype(c)>);
    // (filter(L), c) is injective and c reaches at least cotarget / size(filter(L)) copies
    const auto f = filter(L{});
    std::set<int> seen;
    for (int j = 0; j < int(size(c)); ++j)
      for (int i = 0; i < int(size(f)); ++i) EXPECT_TRUE(seen.insert(int(f(i)) + int(c(j))).second);
    EXPECT_GE(int(size(c)) * int(size(f)), 64);
  }
}

template <class... Ls>
void complement_all(List<Ls...>) {
  (complement_postcondition<Ls>(), ...);
}

TEST(Properties, ComplementIsDisjointAndCovers) { complement_all(Layouts{}); }

template <class L>
void inverse_postconditions() {
  const auto r = right_inverse(L{});
  for (int i = 0; i < int(size(r)); ++i) EXPECT_EQ(int(L{}(int(r(i)))), i);
  constexpr auto li = tree::left_inverse(detail::static_tree<L>());
  if constexpr (li.ok()) {
    const auto l = left_inverse(L{});
    for (int i = 0; i < int(size(L{})); ++i) EXPECT_EQ(int(L{}(int(l(int(L{}(i)))))), int(L{}(i)));
  }
}

template <class... Ls>
void inverse_all(List<Ls...>) {
  (inverse_postconditions<Ls>(), ...);
}

TEST(Properties, Inverses) { inverse_all(Layouts{}); }

template <class L, class T>
void divide_postcondition() {
  constexpr auto r = tree::logical_divide(detail::static_tree<L>(), detail::static_tree<T>());
  if constexpr (r.ok()) {
    // logical_divide(L, T) is L composed with (T, complement): its first mode is L∘T
    const auto d = logical_divide(L{}, T{});
    const auto first = layout<0>(d);
    for (int i = 0; i < int(size(T{})); ++i) EXPECT_EQ(int(first(i)), int(L{}(int(T{}(i)))));
    // and the dynamic L gives the same function
    EXPECT_TRUE(same_function(to_tree(logical_divide(dynamic_copy(L{}), T{})), to_tree(d)));
  }
}

template <class L, class... Ts>
void divide_with_all(List<Ts...>) {
  (divide_postcondition<L, Ts>(), ...);
}
template <class... Ls, class Ts>
void divide_all(List<Ls...>, Ts ts) {
  (divide_with_all<Ls>(ts), ...);
}

TEST(Properties, LogicalDivideStartsWithTheTile) { divide_all(Layouts{}, Tiles{}); }

}  // namespace
