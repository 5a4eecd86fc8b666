// layout/to_tree.hpp: a template layout's value form, for static and run-time leaves; the tree
// must answer size/rank/depth/evaluate exactly as the template does.
#include "cute_dsl/layout/to_tree.hpp"

#include <gtest/gtest.h>

namespace {
using namespace cute_dsl;

template <class L>
constexpr bool tree_agrees(L const& l) {
  tree::Tree t = to_tree(l);
  if (t.overflow || t.size() != size(l) || t.rank() != rank(l) || t.depth() != depth(l)) return false;
  // the offsets, walking the leaves in order (colexicographic split of each index)
  for (int i = 0; i < int(size(l)); ++i) {
    long long rest = i, offset = 0;
    int leaves = 0;
    for (int k = 0; k < t.count; ++k) if (t.is_leaf(k)) ++leaves;
    for (int k = 0, seen = 0; k < t.count; ++k) {
      if (!t.is_leaf(k)) continue;
      ++seen;
      long long s = t.nodes[k].shape;
      long long c = seen == leaves ? rest : rest % s;
      offset += c * t.nodes[k].stride;
      rest = seen == leaves ? 0 : rest / s;
    }
    if (offset != l(i)) return false;
  }
  return true;
}

constexpr bool test_to_tree(int n) {
  auto L = make_layout(make_shape(make_shape(_2{}, _2{}), n), make_stride(make_stride(_1{}, 4), _2{}));
  tree::Tree t = to_tree(L);
  bool structure = t.count == 5 && t.nodes[0].children == 2 && t.nodes[1].children == 2 && t.nodes[2].shape == 2 &&
                   t.nodes[3].stride == 4 && t.nodes[4].shape == n && t.nodes[4].stride == 2;
  tree::Tree leaf = to_tree(Layout<_4, _1>{});
  tree::Tree one = to_tree(Layout<Shape<_4>, Stride<_1>>{});  // (4):(1) differs from 4:1
  tree::Tree it = to_tree(make_shape(_3{}, make_shape(n)));
  bool forms = leaf.count == 1 && leaf.is_leaf(0) && leaf.depth() == 0 && one.count == 2 && one.depth() == 1 &&
               it.count == 4 && it.nodes[3].shape == n && it.nodes[3].stride == 0;
  return structure && forms && tree_agrees(L) && tree_agrees(make_layout(make_shape(n, _3{}, _2{}), LayoutRight{})) &&
         tree_agrees(Layout<Shape<Shape<_3, _1>, _4>, Stride<Stride<_4, _0>, _1>>{});
}
static_assert(test_to_tree(3));

// A static layout's tree is a constant usable as a template argument.
template <tree::Tree T> constexpr int leaves_of() {
  int c = 0;
  for (int i = 0; i < T.count; ++i) c += T.is_leaf(i);
  return c;
}
static_assert(leaves_of<tree_of_v<Layout<Shape<Shape<_2, _2>, _3>>>>() == 3);

TEST(ToTree, AgreesWithTheTemplate) { for (int n = 1; n < 8; ++n) EXPECT_TRUE(test_to_tree(n)) << n; }
}  // namespace
