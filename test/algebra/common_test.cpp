// max_common_vector and max_common_layout.
#include <gtest/gtest.h>

#include "algebra_test_support.hpp"

namespace {

using namespace algebra_test;
using namespace cute_dsl::tree;

constexpr bool common_examples() {
  return max_common_vector(L("(4,2):(1,4)"), L("(4,2):(1,4)")).value == 8 &&
         max_common_vector(L("(4,2):(1,4)"), L("(4,2):(2,1)")).value == 1 &&
         max_common_vector(L("(8,4):(1,8)"), L("(8,4):(1,16)")).value == 8 &&
         max_common_vector(L("(8,4):(0,8)"), L("(8,4):(1,8)")).value == 1 &&
         gives(max_common_layout(L("(8,4):(1,8)"), L("(8,4):(1,16)")), "8:1") &&
         gives(max_common_layout(L("(4,2):(1,4)"), L("(4,2):(2,1)")), "1:0");
}
static_assert(common_examples());

TEST(Common, Examples) { EXPECT_TRUE(common_examples()); }

// For n < max_common_vector(a, b), a and b both map b's n-th contiguous position to n.
TEST(Common, TheCommonVectorIsContiguousInBoth) {
  Generator g(60);
  for (int n = 0; n < 4000; ++n) {
    const Tree b = g.layout();
    Tree a = b;  // same shape, strides from another compact order or arbitrary
    Generator h(static_cast<std::uint64_t>(n));
    for (int i = 0; i < a.count; ++i)
      if (a.is_leaf(i)) a.nodes[i].stride = n % 3 == 0 ? h.between(0, 64) : a.nodes[i].stride * h.between(0, 2);
    for (const auto& [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
      const Result<index_t> v = max_common_vector(x, y);
      const Result<Tree> inv = right_inverse(y);
      const Result<Tree> common = max_common_layout(x, y);
      ASSERT_TRUE(v.ok() && inv.ok() && common.ok()) << to_string(x) << " " << to_string(y);
      ASSERT_GE(v.value, 1);
      ASSERT_EQ(size(common.value), v.value);
      for (index_t i = 0; i < v.value; ++i) {
        ASSERT_EQ(evaluate(x, evaluate(inv.value, i)), i) << to_string(x) << " " << to_string(y);
        ASSERT_EQ(evaluate(y, evaluate(inv.value, i)), i);
        if (v.value > 1) {
          ASSERT_EQ(evaluate(x, evaluate(common.value, i)), i);
        }
      }
    }
  }
}

}  // namespace
