// coalesce, coalesce by mode, filter.
#include <gtest/gtest.h>

#include <set>

#include "algebra_test_support.hpp"

namespace {

using namespace algebra_test;
using namespace cute_dsl::tree;

constexpr bool coalesce_examples() {
  return gives(coalesce(L("(2,(1,6)):(1,(7,2))")), "12:1") &&
         gives(coalesce(L("(8,2):(0,0)")), "16:0") &&            // 0-strides merge too
         gives(coalesce(L("(2,3):(3,1)")), "(2,3):(3,1)") &&     // never reordered
         gives(coalesce(L("(1,1):(5,7)")), "1:0") &&
         coalesce(L("(96):(1)")).value == L("96:1") &&           // one mode is integral
         gives(coalesce(L("((4,1),(1,2)):((1,9),(9,8))")), "(4,2):(1,8)");
}
static_assert(coalesce_examples());

constexpr bool coalesce_by_mode_examples() {
  // a tuple profile coalesces mode by mode and keeps the modes it does not name
  return gives(coalesce(L("((2,3),(4,5),7):((1,2),(6,24),120)"), L("(1,1):(0,0)")), "(6,20,7):(1,6,120)") &&
         gives(coalesce(L("((2,3),(4,5)):((1,2),(6,24))"), L("1:0")), "120:1") &&
         gives(coalesce(L("((2,1),(4,5)):((1,9),(6,24))"), L("((1,1),1):((0,0),0)")), "((2,1),20):((1,0),6)");
}
static_assert(coalesce_by_mode_examples());

constexpr bool filter_examples() {
  return gives(filter(L("(6,(3,8)):(1,(0,0))")), "6:1") && gives(filter(L("(2,4,3):(0,2,8)")), "12:2") &&
         gives(filter(L("(4,3):(0,0)")), "1:0");
}
static_assert(filter_examples());

TEST(Coalesce, Examples) {
  EXPECT_TRUE(coalesce_examples());
  EXPECT_TRUE(coalesce_by_mode_examples());
  EXPECT_TRUE(filter_examples());
}

TEST(Coalesce, KeepsTheFunctionAndLeavesNothingToMerge) {
  Generator g(3);
  for (int n = 0; n < 3000; ++n) {
    const Tree l = g.layout();
    const Result<Tree> c = coalesce(l);
    ASSERT_TRUE(c.ok());
    ASSERT_EQ(size(c.value), size(l));
    ASSERT_TRUE(same_function(l, c.value, size(l))) << to_string(l);
    ASSERT_LE(depth(c.value), 1);
    const Modes m = leaves(c.value);
    ASSERT_TRUE(c.value.is_leaf(0) == (m.count == 1)) << "one mode must print as an integral layout";
    for (int k = 0; k < m.count; ++k) {
      if (m.count > 1) {
        ASSERT_NE(m.shape[k], 1) << to_string(c.value);
      }
      if (k + 1 < m.count) {
        ASSERT_NE(m.shape[k] * m.stride[k], m.stride[k + 1]) << to_string(c.value);
      }
    }
  }
}

TEST(Coalesce, ByModeKeepsEachModesFunction) {
  Generator g(4);
  for (int n = 0; n < 2000; ++n) {
    const Tree l = g.layout();
    Tree profile{};
    profile.push_tuple(rank(l));
    for (int k = 0; k < rank(l); ++k) profile.push_leaf(1, 0);
    const Result<Tree> c = coalesce(l, profile);
    ASSERT_TRUE(c.ok());
    ASSERT_EQ(rank(c.value), rank(l));
    for (int k = 0; k < rank(l); ++k) {
      const Tree before = mode(l, k), after = mode(c.value, k);
      ASSERT_EQ(size(before), size(after));
      ASSERT_TRUE(same_function(before, after, size(before))) << to_string(l);
    }
  }
}

TEST(Filter, KeepsTheImageWithoutBroadcasts) {
  Generator g(5);
  for (int n = 0; n < 3000; ++n) {
    const Tree l = g.layout();
    const Result<Tree> f = filter(l);
    ASSERT_TRUE(f.ok());
    std::set<index_t> image, filtered;
    for (index_t i = 0; i < size(l); ++i) image.insert(evaluate(l, i));
    for (index_t i = 0; i < size(f.value); ++i) filtered.insert(evaluate(f.value, i));
    ASSERT_EQ(image, filtered) << to_string(l);
    const Modes m = leaves(f.value);
    if (m.count == 1 && m.shape[0] == 1) continue;  // nothing left: 1:0
    for (int k = 0; k < m.count; ++k) {
      ASSERT_TRUE(m.stride[k] != 0 && m.shape[k] != 1) << to_string(f.value);
    }
  }
}

}  // namespace
