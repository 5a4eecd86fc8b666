// Run-time inputs that break a rule throw LayoutError whose text is exactly the static_assert's
// (compile_fail tests check the static side).
#include "test_support.hpp"

#include <cstring>

namespace {

using namespace static_algebra_test;
using namespace cute_dsl;

// what() begins with the static_assert text of the same rule.
template <class F>
::testing::AssertionResult throws_with(F&& f, const char* static_text, tree::Error rule) {
  try {
    f();
  } catch (const LayoutError& e) {
    if (e.rule() != rule) return ::testing::AssertionFailure() << "wrong rule: " << e.what();
    if (std::strncmp(e.what(), static_text, std::strlen(static_text)) != 0)
      return ::testing::AssertionFailure() << "message\n  " << e.what() << "\ndoes not begin with\n  " << static_text;
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "no LayoutError";
}

// The names come from one table (layout/rule_text.hpp); each rule must also say why, in its own words.
TEST(Errors, EveryRuleSaysWhy) {
  for (int e = 1; e <= int(tree::Error::overflow); ++e)
    EXPECT_STRNE(detail::rule_why(tree::Error(e)), detail::rule_why(tree::Error::none)) << e;
}

TEST(Errors, CompositionStrideDivisibility) {
  // ((3,2)):((1,6)) o (2,2):(1,2): CuTe accepts it, yet A(B(1,1)) = A(3) = 6 != R(1,1)
  const auto a = make_layout(make_tuple(make_tuple(3, 2)), make_tuple(make_tuple(1, 6)));
  const auto b = make_layout(make_tuple(2, 2), make_tuple(1, 2));
  EXPECT_TRUE(throws_with([&] { composition(a, b); },
                          "composition: Stride Divisibility Condition: every stride of B must divide, or be a multiple of, "
                          "the extents of A it crosses",
                          tree::Error::stride_divisibility));
  // mixed: static B
  EXPECT_TRUE(throws_with([&] { composition(make_layout(make_shape(3, 4), make_stride(1, 5)), Layout<_2, _4>{}); },
                          "composition: " CUTE_DSL_RULE_TEXT(stride_divisibility), tree::Error::stride_divisibility));
}

TEST(Errors, CompositionShapeDivisibility) {
  EXPECT_TRUE(throws_with([&] { composition(make_layout(make_shape(4, 3), make_stride(1, 5)), make_layout(6, 1)); },
                          "composition: " CUTE_DSL_RULE_TEXT(shape_divisibility), tree::Error::shape_divisibility));
}

TEST(Errors, Complement) {
  EXPECT_TRUE(throws_with([&] { complement(make_layout(make_shape(3, 3), make_stride(_1{}, _2{}))); },
                          "complement: " CUTE_DSL_RULE_TEXT(complement_injective), tree::Error::complement_injective));
  EXPECT_TRUE(throws_with([&] { complement(make_layout(make_shape(3, 3), make_stride(_1{}, _4{}))); },
                          "complement: " CUTE_DSL_RULE_TEXT(complement_divisibility), tree::Error::complement_divisibility));
  EXPECT_TRUE(throws_with([&] { complement(Layout<_4, _2>{}, 0); }, "complement: " CUTE_DSL_RULE_TEXT(zero_shape),
                          tree::Error::zero_shape));
}

TEST(Errors, DividesAndProductsNameThemselves) {
  // logical_divide((6,4):(1,10), 4:1): CuTe answers (4,(2,4)):(1,(4,10)), which is not L∘(T,T*)
  EXPECT_TRUE(throws_with([&] { logical_divide(make_layout(make_shape(6, 4), make_stride(1, 10)), Layout<_4, _1>{}); },
                          "logical_divide: " CUTE_DSL_RULE_TEXT(stride_divisibility), tree::Error::stride_divisibility));
  EXPECT_TRUE(throws_with([&] { zipped_divide(make_layout(make_shape(6, 4), make_stride(1, 10)), Layout<_4, _1>{}); },
                          "zipped_divide: ", tree::Error::stride_divisibility));
  EXPECT_TRUE(throws_with([&] { blocked_product(make_layout(make_shape(2, 2), make_stride(_1{}, _3{})), make_layout(6, 8)); },
                          "blocked_product: " CUTE_DSL_RULE_TEXT(complement_divisibility), tree::Error::complement_divisibility));
  EXPECT_TRUE(throws_with([&] { logical_product(make_layout(make_shape(3, 3), make_stride(_1{}, _2{})), make_layout(2, 1)); },
                          "logical_product: " CUTE_DSL_RULE_TEXT(complement_injective), tree::Error::complement_injective));
}

TEST(Errors, NonPositiveShapes) {
  EXPECT_TRUE(throws_with([&] { coalesce(make_layout(make_shape(0, 2), make_stride(1, 2))); },
                          "coalesce: " CUTE_DSL_RULE_TEXT(zero_shape), tree::Error::zero_shape));
  EXPECT_TRUE(throws_with([&] { filter(make_layout(-3, 1)); }, "filter: " CUTE_DSL_RULE_TEXT(zero_shape), tree::Error::zero_shape));
}

TEST(Errors, ConstantEvaluationStopsAtABrokenRule) {
  // A run-time layout evaluated in a constant expression is checked there too; valid ones work.
  constexpr auto r = composition(make_layout(make_shape(6, 2), make_stride(8, 2)), make_layout(make_shape(4, 3), make_stride(3, 1)));
  static_assert(r(1) == 24 && r(11) == 42);
  constexpr auto c = complement(make_layout(4, _2{}), 24);
  static_assert(size(c) == 6 && c(1) == 1 && c(2) == 8);
  SUCCEED();
}

}  // namespace
