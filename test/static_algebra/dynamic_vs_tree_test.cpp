// Run-time (dynamic) and mixed inputs against the tree algebra on the same values, over many
// random inputs of fixed nestings: the template refuses exactly when the tree refuses, by the
// same rule, and otherwise returns the same function with the same size. Built twice: with the
// host's tree checks, and with the device's typed checks (CUTE_DSL_HOST_TYPED_LAYOUT_CHECKS=1).
#include "test_support.hpp"

namespace {

using namespace static_algebra_test;
using namespace cute_dsl;

using L1 = Layout<int, int>;
using L2 = Layout<tuple<int, int>, tuple<int, int>>;
using L3 = Layout<tuple<int, int, int>, tuple<int, int, int>>;
using L4 = Layout<tuple<tuple<int, int>, int>, tuple<tuple<int, int>, int>>;
using L5 = Layout<tuple<int, tuple<int, int>>, tuple<int, tuple<int, int>>>;
// Mixed: static strides, run-time shapes (what complement and the products' blocks need).
using M1 = Layout<tuple<int, int>, tuple<_1, _8>>;
using M2 = Layout<tuple<int, int, int>, tuple<_2, _16, _64>>;
using M3 = Layout<tuple<int, int>, tuple<_4, _1>>;
using M4 = Layout<tuple<int, int>, tuple<_3, _1>>;
using M5 = Layout<int, _2>;
using M6 = Layout<tuple<tuple<int, int>, int>, tuple<tuple<_1, _6>, _2>>;

constexpr int kIterations = 400;

// Counts both outcomes so that a generator that never (or always) produces valid inputs fails.
struct Tally {
  int accepted = 0, refused = 0;
  void add(const Outcome& o) { (o.ok ? accepted : refused) += 1; }
};

template <class F, class G>
void compare(const char* what, Tally& tally, F&& templ, G&& tree_answer) {
  const Outcome t = outcome_of(templ);
  const Outcome r = outcome_of_tree(tree_answer());
  tally.add(r);
  EXPECT_TRUE(agree(t, r, what));
}

Random rnd;

template <class L>
void coalesce_and_filter(Tally& tally) {
  for (int i = 0; i < kIterations; ++i) {
    const L l = rnd.layout<L>();
    compare("coalesce", tally, [&] { return to_tree(coalesce(l)); }, [&] { return tree::coalesce(to_tree(l)); });
    compare("filter", tally, [&] { return to_tree(filter(l)); }, [&] { return tree::filter(to_tree(l)); });
    // the continuation past the size must match too: compose the result with a longer tile
    const auto longer = make_layout(int(tree::size(to_tree(l))) * 2, _1{});
    compare("composition(coalesce)", tally, [&] { return to_tree(composition(coalesce(l), longer)); },
            [&] { return tree::composition(tree::coalesce(to_tree(l)).value, to_tree(longer)); });
  }
}

TEST(DynamicVsTree, CoalesceAndFilter) {
  Tally tally;
  coalesce_and_filter<L2>(tally);
  coalesce_and_filter<L3>(tally);
  coalesce_and_filter<L4>(tally);
  coalesce_and_filter<L5>(tally);
  EXPECT_GT(tally.accepted, 0);
}

template <class A, class B>
void compositions(Tally& tally, bool compact_a) {
  for (int i = 0; i < kIterations; ++i) {
    const A a = compact_a ? rnd.compact_layout<A>() : rnd.layout<A>();
    const B b = rnd.layout<B>();
    compare("composition", tally, [&] { return to_tree(composition(a, b)); },
            [&] { return tree::composition(to_tree(a), to_tree(b)); });
  }
}

TEST(DynamicVsTree, Composition) {
  Tally tally;
  compositions<L1, L1>(tally, true);
  compositions<L2, L1>(tally, true);
  compositions<L2, L2>(tally, true);
  compositions<L3, L2>(tally, true);
  compositions<L4, L5>(tally, true);
  compositions<L3, L4>(tally, false);
  compositions<M1, L2>(tally, false);
  compositions<L2, M3>(tally, false);
  EXPECT_GT(tally.accepted, 200);
  EXPECT_GT(tally.refused, 50);
}

TEST(DynamicVsTree, CompositionWithTiler) {
  Tally tally;
  for (int i = 0; i < kIterations; ++i) {
    const L4 a = rnd.compact_layout<L4>();
    const auto t = make_tile(rnd.layout<L1>(), rnd.shape());
    compare("composition tiler", tally, [&] { return to_tree(composition(a, t)); },
            [&] { return tree::composition(to_tree(a), detail::value_tiler(t)); });
    const auto ts = make_tile(Layout<_2, _1>{}, _2{});
    compare("composition static tiler", tally, [&] { return to_tree(composition(a, ts)); },
            [&] { return tree::composition(to_tree(a), detail::value_tiler(ts)); });
  }
  EXPECT_GT(tally.accepted, 100);
  EXPECT_GT(tally.refused, 10);
}

template <class L>
void complements(Tally& tally) {
  for (int i = 0; i < kIterations; ++i) {
    const L l = rnd.layout<L>();
    const int cotarget = 1 + int(rnd.rng() % 300);
    compare("complement", tally, [&] { return to_tree(complement(l, cotarget)); },
            [&] { return tree::complement(to_tree(l), index_t(cotarget)); });
    compare("complement default", tally, [&] { return to_tree(complement(l)); },
            [&] { return tree::complement(to_tree(l)); });
    const auto shape = make_shape(rnd.shape() * 3, rnd.shape());
    compare("complement tuple cotarget", tally, [&] { return to_tree(complement(l, shape)); },
            [&] { return tree::complement(to_tree(l), to_tree(shape)); });
    // the complement continues past its size as the static answer does
    compare("composition(complement)", tally, [&] { return to_tree(composition(complement(l, cotarget), make_layout(2 * cotarget, _1{}))); },
            [&] {
              const auto c = tree::complement(to_tree(l), index_t(cotarget));
              return c.ok() ? tree::composition(c.value, tree::make_tree_leaf(2 * cotarget, 1)) : c;
            });
  }
}

TEST(DynamicVsTree, ComplementWithRunTimeShapesAndCotarget) {
  Tally tally;
  complements<M1>(tally);
  complements<M2>(tally);
  complements<M3>(tally);
  complements<M4>(tally);
  complements<M5>(tally);
  complements<M6>(tally);
  EXPECT_GT(tally.accepted, 200);
  EXPECT_GT(tally.refused, 50);
  // A static layout with a run-time cotarget.
  for (int c = 1; c < 100; ++c) {
    const Outcome t = outcome_of([&] { return to_tree(complement(Layout<tuple<_2, _4>, tuple<_1, _6>>{}, c)); });
    EXPECT_TRUE(agree(t, outcome_of_tree(tree::complement(to_tree(Layout<tuple<_2, _4>, tuple<_1, _6>>{}), c)), "complement"));
  }
}

template <class L, class T>
void divides(Tally& tally, T const& tile) {
  for (int i = 0; i < kIterations / 4; ++i) {
    const L l = (i % 2) ? rnd.compact_layout<L>() : rnd.layout<L>();
    compare("logical_divide", tally, [&] { return to_tree(logical_divide(l, tile)); },
            [&] { return tree::logical_divide(to_tree(l), detail::value_arg(tile)); });
    compare("zipped_divide", tally, [&] { return to_tree(zipped_divide(l, tile)); },
            [&] { return tree::zipped_divide(to_tree(l), detail::value_arg(tile)); });
    compare("tiled_divide", tally, [&] { return to_tree(tiled_divide(l, tile)); },
            [&] { return tree::tiled_divide(to_tree(l), detail::value_arg(tile)); });
    compare("flat_divide", tally, [&] { return to_tree(flat_divide(l, tile)); },
            [&] { return tree::flat_divide(to_tree(l), detail::value_arg(tile)); });
  }
}

TEST(DynamicVsTree, DividesByStaticAndRunTimeTiles) {
  Tally tally;
  divides<L1>(tally, Layout<_4, _1>{});
  divides<L2>(tally, Layout<_4, _1>{});
  divides<L2>(tally, Layout<tuple<_2, _2>, tuple<_1, _4>>{});
  divides<L4>(tally, Layout<_3, _2>{});
  divides<L2>(tally, make_tile(_2{}, Layout<_2, _2>{}));
  divides<L4>(tally, make_tile(Layout<tuple<_2, _2>, tuple<_1, _4>>{}, _3{}));
  divides<L5>(tally, make_tile(_4{}));
  divides<L2>(tally, make_layout(3, _2{}));             // run-time tile shape, static stride
  divides<L4>(tally, make_tile(make_layout(4, _1{}), 2));
  EXPECT_GT(tally.accepted, 200);
  EXPECT_GT(tally.refused, 20);
}

template <class B, class T>
void products(Tally& tally) {
  for (int i = 0; i < kIterations / 4; ++i) {
    const B b = rnd.layout<B>();
    const T t = rnd.layout<T>();
    compare("logical_product", tally, [&] { return to_tree(logical_product(b, t)); },
            [&] { return tree::logical_product(to_tree(b), to_tree(t)); });
    compare("blocked_product", tally, [&] { return to_tree(blocked_product(b, t)); },
            [&] { return tree::blocked_product(to_tree(b), to_tree(t)); });
    compare("raked_product", tally, [&] { return to_tree(raked_product(b, t)); },
            [&] { return tree::raked_product(to_tree(b), to_tree(t)); });
    const auto tiler = make_tile(rnd.layout<L1>());
    compare("zipped_product", tally, [&] { return to_tree(zipped_product(b, tiler)); },
            [&] { return tree::zipped_product(to_tree(b), detail::value_tiler(tiler)); });
    compare("tiled_product", tally, [&] { return to_tree(tiled_product(b, tiler)); },
            [&] { return tree::tiled_product(to_tree(b), detail::value_tiler(tiler)); });
    compare("flat_product", tally, [&] { return to_tree(flat_product(b, tiler)); },
            [&] { return tree::flat_product(to_tree(b), detail::value_tiler(tiler)); });
  }
}

TEST(DynamicVsTree, ProductsWithRunTimeShapes) {
  Tally tally;
  products<M1, L1>(tally);
  products<M1, L2>(tally);
  products<M3, L2>(tally);
  products<M5, L1>(tally);
  products<M6, L5>(tally);
  products<M2, L3>(tally);
  EXPECT_GT(tally.accepted, 200);
  EXPECT_GT(tally.refused, 20);
}

}  // namespace
