// right_inverse and left_inverse.
#include <gtest/gtest.h>

#include "algebra_test_support.hpp"

namespace {

using namespace algebra_test;
using namespace cute_dsl::tree;

constexpr bool right_inverse_examples() {
  return gives(right_inverse(L("(4,2):(1,4)")), "8:1") && gives(right_inverse(L("(2,3):(3,1)")), "(3,2):(2,1)") &&
         gives(right_inverse(L("(4,2):(2,8)")), "1:0") &&  // no stride-1 mode
         // ties between equal strides follow CuTe's exchange sort, not the original order
         gives(right_inverse(L("(2,2,8):(8,8,1)")), "(8,2):(4,2)");
}
static_assert(right_inverse_examples());

constexpr bool left_inverse_examples() {
  return gives(left_inverse(L("((3,8)):((8,1))")), "(8,3):(3,1)") && gives(left_inverse(L("(2,2):(1,4)")), "(4,2):(1,2)") &&
         gives(left_inverse(L("(4,3):(0,4)")), "(4,3):(0,4)") &&
         // an overlapping input is fine when the postcondition still holds
         left_inverse(L("(4096,2):(1,1)")).ok();
}
static_assert(left_inverse_examples());

constexpr bool left_inverse_refusals() {
  return refuses(left_inverse(L("(2,3):(2,3)")), Error::left_inverse_divisibility) &&
         refuses(left_inverse(L("((2,3)):((2,1))")), Error::left_inverse_injective) &&
         refuses(left_inverse(L("((2,4),2):((1,1),5)")), Error::left_inverse_injective);
}
static_assert(left_inverse_refusals());

TEST(Inverse, Examples) {
  EXPECT_TRUE(right_inverse_examples());
  EXPECT_TRUE(left_inverse_examples());
  EXPECT_TRUE(left_inverse_refusals());
}

TEST(Inverse, RightInverseIsInvertedByTheLayout) {
  Generator g(30);
  for (int n = 0; n < 4000; ++n) {
    const Tree l = g.layout();
    const Result<Tree> r = right_inverse(l);
    ASSERT_TRUE(r.ok());
    for (index_t i = 0; i < size(r.value); ++i) ASSERT_EQ(evaluate(l, evaluate(r.value, i)), i) << to_string(l);
    // it is trivial exactly when the coalesced L has no stride-1 mode
    const Modes c = leaves(coalesce(l).value);
    bool has_stride_one = false;
    for (int j = 0; j < c.count; ++j) has_stride_one = has_stride_one || (c.stride[j] == 1 && c.shape[j] > 1);
    ASSERT_EQ(size(r.value) > 1, has_stride_one) << to_string(l);
  }
}

TEST(Inverse, LeftInverseRecoversEveryOffset) {
  Generator g(31);
  int accepted = 0;
  for (int n = 0; n < 4000; ++n) {
    const Tree l = g.layout();
    const Result<Tree> r = left_inverse(l);
    if (!r.ok()) {
      ASSERT_TRUE(r.error == Error::left_inverse_divisibility || r.error == Error::left_inverse_injective);
      continue;
    }
    ++accepted;
    for (index_t i = 0; i < size(l); ++i) {
      const index_t y = evaluate(l, i);
      ASSERT_EQ(evaluate(l, evaluate(r.value, y)), y) << to_string(l);
    }
  }
  EXPECT_GT(accepted, 3000);
}

// An injective layout whose sorted strides each divide the next always has a left inverse, and
// then R(L(i)) == i exactly.
TEST(Inverse, LeftInverseOfAnInjectiveLayoutIsExact) {
  Generator g(32);
  for (int n = 0; n < 3000; ++n) {
    const Tree l = g.layout();
    std::vector<index_t> seen;
    for (index_t i = 0; i < size(l); ++i) seen.push_back(evaluate(l, i));
    std::sort(seen.begin(), seen.end());
    if (std::adjacent_find(seen.begin(), seen.end()) != seen.end()) continue;
    const Result<Tree> r = left_inverse(l);
    if (r.error == Error::left_inverse_divisibility) continue;
    ASSERT_TRUE(r.ok()) << to_string(l);
    for (index_t i = 0; i < size(l); ++i) ASSERT_EQ(evaluate(r.value, evaluate(l, i)), i) << to_string(l);
  }
}

}  // namespace
