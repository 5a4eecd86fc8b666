// One test per refusal rule (tree::Error): the input that breaks it, and the values reported.
#include <gtest/gtest.h>

#include "algebra_test_support.hpp"

namespace {

using namespace algebra_test;
using namespace cute_dsl::tree;

// blocked_product of a rank-48 layout with itself: each mode becomes a pair, 145 nodes in all.
Result<Tree> too_large_product() {
  Tree b{};
  b.push_tuple(48);
  for (int k = 0; k < 48; ++k) b.push_leaf(1, 0);
  return blocked_product(b, b);
}

TEST(Errors, Capacity) {
  const Result<Tree> r = too_large_product();
  EXPECT_EQ(r.error, Error::capacity);
  Tree overflowed = L("4:1");
  overflowed.overflow = true;  // a builder that ran out of nodes
  EXPECT_EQ(coalesce(overflowed).error, Error::capacity);
}

TEST(Errors, StrideDivisibility) {
  // CuTe's own check: stride 6 neither divides extent 4 nor is a multiple of it
  Result<Tree> r = composition(L("(4,8):(1,5)"), L("2:6"));
  EXPECT_EQ(r.error, Error::stride_divisibility);
  EXPECT_EQ(r.detail0, 6);
  EXPECT_EQ(r.detail1, 4);
  // ours: CuTe answers (2,2):(1,2), but A(B(1,1)) = A(3) = 6
  r = composition(L("((3,2)):((1,6))"), L("(2,2):(1,2)"));
  EXPECT_EQ(r.error, Error::stride_divisibility);
  EXPECT_EQ(r.detail0, 2);
  EXPECT_EQ(r.detail1, 3);
}

TEST(Errors, ShapeDivisibility) {
  const Result<Tree> r = composition(L("(4,8):(1,5)"), L("6:1"));
  EXPECT_EQ(r.error, Error::shape_divisibility);
  EXPECT_EQ(r.detail0, 6);
  EXPECT_EQ(r.detail1, 4);
}

TEST(Errors, ComplementInjective) {
  const Result<Tree> r = complement(L("(2,3):(1,1)"));
  EXPECT_EQ(r.error, Error::complement_injective);
  EXPECT_EQ(r.detail0, 1);  // the stride that overlaps
  EXPECT_EQ(r.detail1, 2);  // the extent it falls inside
}

TEST(Errors, ComplementDivisibility) {
  // CuTe answers (5,2):(1,24), truncating 12/5
  const Result<Tree> r = complement(L("((2,2)):((12,5))"), 36);
  EXPECT_EQ(r.error, Error::complement_divisibility);
  EXPECT_EQ(r.detail0, 12);
  EXPECT_EQ(r.detail1, 10);
}

TEST(Errors, LeftInverseDivisibility) {
  const Result<Tree> r = left_inverse(L("(2,3):(2,3)"));
  EXPECT_EQ(r.error, Error::left_inverse_divisibility);
  EXPECT_EQ(r.detail0, 3);
  EXPECT_EQ(r.detail1, 2);
}

TEST(Errors, LeftInverseInjective) {
  // CuTe answers (2,2):(2,1), which sends offset 4 to index 2, where L is 1
  const Result<Tree> r = left_inverse(L("((2,3)):((2,1))"));
  EXPECT_EQ(r.error, Error::left_inverse_injective);
  EXPECT_EQ(r.detail0, 4);
  EXPECT_EQ(r.detail1, 1);
}

TEST(Errors, RankMismatch) {
  EXPECT_EQ(composition(L("8:1"), T("[2,2]")).error, Error::rank_mismatch);
  EXPECT_EQ(logical_divide(L("(8,4):(1,8)"), T("[2,2,2]")).error, Error::rank_mismatch);
  EXPECT_EQ(logical_product(L("(8,4):(1,8)"), T("[2,2,2]")).error, Error::rank_mismatch);
  EXPECT_EQ(coalesce(L("(8,4):(1,8)"), L("(1,1,1):(0,0,0)")).error, Error::rank_mismatch);
}

TEST(Errors, Congruence) {
  EXPECT_EQ(size(Tree{}), 1);
  EXPECT_EQ(coalesce(Tree{}).error, Error::congruence);  // no nodes at all
  Tree broken = L("(2,3):(1,2)");
  broken.nodes[0].children = 3;  // claims a third mode it does not have
  EXPECT_EQ(composition(broken, L("2:1")).error, Error::congruence);
}

TEST(Errors, ZeroShape) {
  Tree zero{};  // built by hand: the reader refuses it as text
  zero.push_tuple(2);
  zero.push_leaf(2, 1);
  zero.push_leaf(0, 2);
  EXPECT_EQ(coalesce(zero).error, Error::zero_shape);
  EXPECT_EQ(parse_whole_layout(make_text("(2,0):(1,2)")).status, ParseStatus::nonpositive_shape);
  EXPECT_EQ(complement(L("4:1"), 0).error, Error::zero_shape);
}

TEST(Errors, NegativeStride) {
  EXPECT_EQ(complement(L("4:-1")).error, Error::negative_stride);
  EXPECT_EQ(right_inverse(L("(4,2):(1,-4)")).error, Error::negative_stride);
  EXPECT_EQ(composition(L("8:1"), L("4:-2")).error, Error::negative_stride);
  // a negative stride on the left of a composition is fine: it only scales
  EXPECT_TRUE(gives(composition(L("(4,2):(-1,10)"), L("2:2")), "2:-2"));
}

TEST(Errors, Overflow) {
  const index_t big = index_t(1) << 40;
  Tree huge{};
  huge.push_tuple(2);
  huge.push_leaf(big, 1);
  huge.push_leaf(big, big);
  EXPECT_EQ(coalesce(huge).error, Error::overflow);
  EXPECT_EQ(logical_product(make_tree_leaf(big, 1), make_tree_leaf(2, big)).error, Error::overflow);
}

// No operation reports division_by_zero: every divisor the algebra uses is a positive shape or
// a running product of them, and 0-strides are handled before any division by a stride.
TEST(Errors, EveryRuleHasAText) {
  for (int e = 0; e <= static_cast<int>(Error::overflow); ++e)
    EXPECT_STRNE(error_rule(static_cast<Error>(e)), "unknown error");
}

}  // namespace
