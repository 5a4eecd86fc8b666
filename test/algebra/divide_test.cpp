// logical_divide, zipped_divide, tiled_divide, flat_divide.
#include <gtest/gtest.h>

#include <set>

#include "algebra_test_support.hpp"

namespace {

using namespace algebra_test;
using namespace cute_dsl::tree;

constexpr bool divide_examples() {
  return gives(logical_divide(L("(8,4):(1,8)"), L("(2,2):(1,8)")), "((2,2),(4,2)):((1,8),(2,16))") &&
         // tiles need not divide: 6 by 4 gives 8
         gives(logical_divide(L("6:1"), L("4:1")), "(4,2):(1,4)") &&
         // the cotarget is the coalesced shape, so a non-contiguous layout is divided mode by mode
         gives(logical_divide(L("(6,4):(1,10)"), L("2:1")), "(2,(3,4)):(1,(2,10))") &&
         gives(logical_divide(L("(8,4):(1,8)"), T("[2:1,2]")), "((2,4),(2,2)):((1,2),(8,16))") &&
         gives(logical_divide(L("(2,4,3):(1,10,80)"), T("[1]")), "((1,2),4,3):((0,1),10,80)") &&
         refuses(logical_divide(L("(6,4):(1,10)"), L("4:1")), Error::stride_divisibility) &&
         refuses(logical_divide(L("(8,4):(1,8)"), L("(2,2):(1,1)")), Error::complement_injective);
}
static_assert(divide_examples());

constexpr bool regroup_examples() {
  const Tree l = L("(8,4):(1,8)");
  const Tiler t = T("[2:1,2]");
  return gives(zipped_divide(l, t), "((2,2),(4,2)):((1,8),(2,16))") &&
         gives(tiled_divide(l, t), "((2,2),4,2):((1,8),2,16)") &&
         gives(flat_divide(l, t), "(2,2,4,2):(1,8,2,16)") &&
         gives(tiled_divide(L("(8,4):(1,8)"), L("(2,2):(1,8)")), "((2,2),4,2):((1,8),2,16)") &&
         gives(flat_divide(L("(8,4):(1,8)"), L("(2,2):(1,8)")), "(2,2,4,2):(1,8,2,16)") &&
         // a tiler shorter than the layout: the extra modes join the rest
         gives(zipped_divide(L("(8,4,3):(1,8,32)"), T("[4]")), "((4),(2,4,3)):((1),(4,8,32))");
}
static_assert(regroup_examples());

TEST(Divide, Examples) {
  EXPECT_TRUE(divide_examples());
  EXPECT_TRUE(regroup_examples());
}

TEST(Divide, IsTheTileThenTheTiles) {
  Generator g(40);
  int accepted = 0;
  for (int n = 0; n < 4000; ++n) {
    const Tree l = g.layout(), t = g.layout(n % 2 ? 16 : 128);
    const Result<Tree> r = logical_divide(l, t);
    if (!r.ok()) continue;
    ++accepted;
    // B = (T, complement(T, shape(coalesce(L)))) and the result is L∘B
    Tree shape = coalesce(l).value;
    const Result<Tree> rest = complement(t, shape);
    ASSERT_TRUE(rest.ok());
    const Tree b = make_tree_pair(t, rest.value);
    ASSERT_TRUE(composes(l, b, r.value)) << to_string(l) << " / " << to_string(t);
    ASSERT_GE(size(r.value), size(l));
    ASSERT_EQ(size(mode(r.value, 0)), size(t));
    // the first mode is the tile applied to L
    ASSERT_TRUE(same_function(mode(r.value, 0), composition(l, t).value, size(t)));
  }
  EXPECT_GT(accepted, 1000);
}

TEST(Divide, OfACompactLayoutByADividingTileIsAPermutation) {
  Generator g(41);
  for (int n = 0; n < 2000; ++n) {
    const index_t m = g.between(1, 5), k = g.between(1, 3);
    Tree l{};  // (2^m, 3^k) column-major
    l.push_tuple(2);
    l.push_leaf(index_t(1) << m, 1);
    index_t p = 1;
    for (int j = 0; j < k; ++j) p *= 3;
    l.push_leaf(p, index_t(1) << m);
    Tiler t{};
    t.modes.push_tuple(2);
    t.modes.push_leaf(index_t(1) << g.between(0, static_cast<int>(m)), 1);
    t.modes.push_leaf(3, 1);
    for (const Result<Tree>& r : {logical_divide(l, t), zipped_divide(l, t), tiled_divide(l, t), flat_divide(l, t)}) {
      ASSERT_TRUE(r.ok());
      ASSERT_EQ(size(r.value), size(l));
      std::set<index_t> image;
      for (index_t i = 0; i < size(r.value); ++i) image.insert(evaluate(r.value, i));
      ASSERT_EQ(static_cast<index_t>(image.size()), size(l));
      ASSERT_EQ(*image.rbegin(), size(l) - 1);
    }
  }
}

TEST(Divide, RegroupingsKeepTheLeaves) {
  Generator g(42);
  for (int n = 0; n < 3000; ++n) {
    const Tree l = g.layout();
    Tiler t{};
    const int tr = 1 + n % rank(l);
    t.modes.push_tuple(tr);
    for (int k = 0; k < tr; ++k) t.modes.push_subtree(g.layout(8), 0);
    const Result<Tree> logical = logical_divide(l, t);
    const Result<Tree> zipped = zipped_divide(l, t), tiled = tiled_divide(l, t), flat = flat_divide(l, t);
    ASSERT_EQ(logical.ok(), zipped.ok());
    ASSERT_EQ(logical.ok(), tiled.ok());
    ASSERT_EQ(logical.ok(), flat.ok());
    if (!logical.ok()) continue;
    ASSERT_EQ(rank(zipped.value), 2);
    ASSERT_EQ(rank(mode(zipped.value, 0)), tr);
    ASSERT_TRUE(mode(tiled.value, 0) == mode(zipped.value, 0));
    // flat_divide is the zipped result with both modes spliced: the same leaves in the same order
    const Modes z = leaves(zipped.value), f = leaves(flat.value);
    ASSERT_EQ(z.count, f.count);
    for (int k = 0; k < z.count; ++k) ASSERT_TRUE(z.shape[k] == f.shape[k] && z.stride[k] == f.stride[k]);
    ASSERT_EQ(size(flat.value), size(logical.value));
  }
}

}  // namespace
