// size, cosize, rank, depth, evaluate, flatten.
#include <gtest/gtest.h>

#include "algebra_test_support.hpp"

namespace {

using namespace algebra_test;
using namespace cute_dsl::tree;

constexpr bool query_examples() {
  return rank(L("4:1")) == 1 && depth(L("4:1")) == 0 && depth(L("(4):(1)")) == 1 && rank(L("(4):(1)")) == 1 &&
         depth(L("((2,8)):((1,2))")) == 2 && rank(L("(2,(3,4),5):(1,(2,6),24)")) == 3 &&
         size(L("(2,(3,4),5):(1,(2,6),24)")) == 120 &&
         // cosize is the last offset plus one, not the number of distinct offsets
         cosize(L("(4,3):(1,2)")) == 1 + 3 * 1 + 2 * 2 && cosize(L("(8,2):(0,0)")) == 1 &&
         cosize(L("(2,3):(7,1)")) == 10;
}
static_assert(query_examples());

constexpr bool evaluate_examples() {
  // colexicographic: the leftmost leaf is fastest
  const Tree l = L("((2,3),4):((12,1),3)");
  return evaluate(l, 0) == 0 && evaluate(l, 1) == 12 && evaluate(l, 2) == 1 && evaluate(l, 6) == 3 &&
         evaluate(l, 23) == 12 + 2 + 9 &&
         // past the size, the layout continues through its last mode
         evaluate(l, 24) == 12 && evaluate(L("(4,1):(1,0)"), 9) == 1 && evaluate(L("(4,2):(1,10)"), 13) == 1 + 30;
}
static_assert(evaluate_examples());

constexpr bool flatten_examples() {
  return equivalent(flatten(L("((2,3),(4,(5,6))):((1,2),(6,(24,120)))")), L("(2,3,4,5,6):(1,2,6,24,120)")) &&
         flatten(L("7:3")) == L("7:3") &&          // an integral layout stays integral
         flatten(L("(7):(3)")) == L("(7):(3)") &&  // a rank-1 tuple stays a tuple
         flatten(L("((2,8)):((1,2))")) == L("(2,8):(1,2)");
}
static_assert(flatten_examples());

TEST(Basics, Examples) {
  EXPECT_TRUE(query_examples());
  EXPECT_TRUE(evaluate_examples());
  EXPECT_TRUE(flatten_examples());
}

TEST(Basics, FlattenKeepsTheFunctionAndTheLeaves) {
  Generator g(1);
  for (int n = 0; n < 2000; ++n) {
    const Tree l = g.layout();
    const Tree f = flatten(l);
    ASSERT_LE(depth(f), 1) << to_string(l);
    ASSERT_TRUE(same_function(l, f, size(l))) << to_string(l);
    const Modes a = leaves(l), b = leaves(f);
    ASSERT_EQ(a.count, b.count);
    for (int k = 0; k < a.count; ++k) ASSERT_TRUE(a.shape[k] == b.shape[k] && a.stride[k] == b.stride[k]);
  }
}

TEST(Basics, CosizeIsOnePastTheLargestOffset) {
  Generator g(2);
  for (int n = 0; n < 2000; ++n) {
    const Tree l = g.layout();
    index_t largest = 0;
    for (index_t i = 0; i < size(l); ++i) largest = std::max(largest, evaluate(l, i));
    ASSERT_EQ(cosize(l), largest + 1) << to_string(l);
  }
}

}  // namespace
