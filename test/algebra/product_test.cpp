// logical_product, zipped/tiled/flat_product, blocked_product, raked_product.
#include <gtest/gtest.h>

#include <set>

#include "algebra_test_support.hpp"

namespace {

using namespace algebra_test;
using namespace cute_dsl::tree;

constexpr bool product_examples() {
  return gives(logical_product(L("(2,2):(1,2)"), L("3:1")), "((2,2),3):((1,2),4)") &&
         gives(logical_product(L("(2,2):(1,4)"), L("2:1")), "((2,2),2):((1,4),2)") &&
         gives(logical_product(L("(2,5):(1,2)"), T("[3:1]")), "((2,3),5):((1,2),2)") &&
         gives(zipped_product(L("(2,5):(1,2)"), T("[3:1,2:1]")), "((2,5),(3,2)):((1,2),(2,1))") &&
         gives(tiled_product(L("(2,5):(1,2)"), T("[3:1,2:1]")), "((2,5),3,2):((1,2),2,1)") &&
         gives(flat_product(L("(2,5):(1,2)"), T("[3:1,2:1]")), "(2,5,3,2):(1,2,2,1)") &&
         // the block's complement must be exact, and the copies must compose exactly
         refuses(logical_product(L("(2,2):(1,3)"), L("6:8")), Error::complement_divisibility) &&
         refuses(logical_product(L("(3,4):(16,4)"), L("6:3")), Error::stride_divisibility);
}
static_assert(product_examples());

constexpr bool rank_product_examples() {
  return gives(blocked_product(L("6:1"), L("4:1")), "((6,4)):((1,6))") &&
         gives(blocked_product(L("(2,2):(1,2)"), L("(3,3):(1,3)")), "((2,3),(2,3)):((1,4),(2,12))") &&
         gives(raked_product(L("(2,2):(1,2)"), L("(3,3):(1,3)")), "((3,2),(3,2)):((4,1),(12,2))") &&
         // the lower-rank argument is padded with 1:0 modes
         gives(blocked_product(L("4:1"), L("(2,3):(1,2)")), "((4,2),(1,3)):((1,4),(0,8))");
}
static_assert(rank_product_examples());

TEST(Product, Examples) {
  EXPECT_TRUE(product_examples());
  EXPECT_TRUE(rank_product_examples());
}

TEST(Product, IsTheBlockThenItsCopies) {
  Generator g(50);
  int accepted = 0;
  for (int n = 0; n < 4000; ++n) {
    const Tree b = g.layout(64), t = g.layout(n % 2 ? 16 : 64);
    const Result<Tree> r = logical_product(b, t);
    if (!r.ok()) continue;
    ++accepted;
    ASSERT_TRUE(mode(r.value, 0) == b);
    ASSERT_EQ(size(r.value), size(b) * size(t));
    const Result<Tree> rest = complement(b, size(b) * cosize(t));
    ASSERT_TRUE(rest.ok());
    ASSERT_TRUE(composes(rest.value, t, mode(r.value, 1))) << to_string(b) << " x " << to_string(t);
  }
  EXPECT_GT(accepted, 1000);
}

TEST(Product, OfInjectiveLayoutsIsInjective) {
  Generator g(51);
  int checked = 0;
  for (int n = 0; n < 3000; ++n) {
    const Tree b = g.layout(64), t = g.layout(32);
    const Result<Tree> r = logical_product(b, t);
    if (!r.ok()) continue;
    auto injective = [](const Tree& x) {
      std::set<index_t> s;
      for (index_t i = 0; i < size(x); ++i)
        if (!s.insert(evaluate(x, i)).second) return false;
      return true;
    };
    if (!injective(b) || !injective(t)) continue;
    ++checked;
    ASSERT_TRUE(injective(r.value)) << to_string(b) << " x " << to_string(t);
  }
  EXPECT_GT(checked, 300);
}

TEST(Product, BlockedAndRakedZipTheModes) {
  Generator g(52);
  for (int n = 0; n < 3000; ++n) {
    const Tree b = g.layout(64), t = g.layout(32);
    const Result<Tree> blocked = blocked_product(b, t), raked = raked_product(b, t);
    ASSERT_EQ(blocked.ok(), raked.ok());
    if (!blocked.ok()) continue;
    const int r = std::max(rank(b), rank(t));
    ASSERT_EQ(rank(blocked.value), r);
    ASSERT_EQ(size(blocked.value), size(b) * size(t));
    for (int k = 0; k < r; ++k) {
      const Tree bk = mode(blocked.value, k), rk = mode(raked.value, k);
      ASSERT_TRUE(mode(bk, 0) == mode(rk, 1) && mode(bk, 1) == mode(rk, 0));
      if (k < rank(b)) {
        ASSERT_TRUE(mode(bk, 0) == mode(b, k));
      }
    }
  }
}

}  // namespace
