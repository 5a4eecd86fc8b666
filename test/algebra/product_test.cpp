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

// "(128,64,4)" -> the int-tuple tree (every stride 0).
constexpr Tree S(const char* text) {
  const Parsed<Tree> r = parse_whole_int_tuple(make_text(text));
  Tree t = r.value;
  if (!r.ok()) t.overflow = true;
  return t;
}

// Small enough for the constant evaluator (gives() enumerates the whole domain).
constexpr bool tile_to_shape_examples() {
  // K-major and MN-major atoms over (M, K, PIPE): the stage mode repeats the whole block
  return gives(tile_to_shape(L("(8,16):(16,1)"), S("(32,16,2)")), "(32,16,2):(16,1,512)") &&
         gives(tile_to_shape(L("(16,8):(1,16)"), S("(32,16,2)"), S("(2,1,3)")), "((16,2),16,2):((1,256),16,512)") &&
         // column-major: the MN-major copies go down mode 0 first, so K rows are 256 apart
         gives(tile_to_shape(L("(16,8):(1,16)"), S("(32,16,2)")), "((16,2),(8,2),2):((1,128),(16,256),512)") &&
         gives(tile_to_shape(L("(3,4):(1,3)"), S("(9,12)")), "((3,3),(4,3)):((1,12),(3,36))") &&
         // an integer target gives an integral result; equal orders keep the modes' order
         gives(tile_to_shape(L("8:1"), S("64")), "64:1") &&
         gives(tile_to_shape(L("(2,2):(1,2)"), S("(4,4)"), S("(1,1)")), "((2,2),(2,2)):((1,4),(2,8))") &&
         refuses(tile_to_shape(L("(8,64):(64,1)"), S("(100,64,4)")), Error::tile_divisibility) &&
         refuses(tile_to_shape(L("(8,64):(64,1)"), S("(128,32,4)")), Error::tile_divisibility) &&
         refuses(tile_to_shape(L("(2,2,2):(1,2,4)"), S("(4,4)")), Error::rank_mismatch) &&
         refuses(tile_to_shape(L("(2,2):(1,2)"), S("(4,4)"), S("(1,2,3)")), Error::rank_mismatch) &&
         refuses(tile_to_shape(L("(2,2):(1,2)"), S("(4,4)"), S("((1,2),3)")), Error::congruence);
}
static_assert(tile_to_shape_examples());

TEST(Product, TileToShapeExamples) {
  EXPECT_TRUE(tile_to_shape_examples());
  // the bf16 128B-swizzle atoms (unswizzled) over a 128 x 64 tile of 4 stages
  EXPECT_TRUE(gives(tile_to_shape(L("(8,64):(64,1)"), S("(128,64,4)")), "(128,64,4):(64,1,8192)"));
  EXPECT_TRUE(gives(tile_to_shape(L("(64,8):(1,64)"), S("(128,64,4)"), S("(2,1,3)")), "((64,2),64,4):((1,4096),64,8192)"));
}

// Every order of three modes: the result has the target's mode sizes, is a bijection onto
// [0, cosize), and each copy of the block sits at block offset + (copy index in `order`) * 8.
TEST(Product, TileToShapeLaysCopiesOutInOrder) {
  const Tree block = L("(2,4):(4,1)");
  const char* orders[] = {"(1,2,3)", "(1,3,2)", "(2,1,3)", "(2,3,1)", "(3,1,2)", "(3,2,1)"};
  for (const char* o : orders) {
    const Tree order = S(o);
    const auto r = tile_to_shape(block, S("(6,8,2)"), order);
    ASSERT_TRUE(r.ok()) << o;
    const Tree& t = r.value;
    ASSERT_EQ(rank(t), 3);
    EXPECT_EQ(t.size(t.child(0, 0)), 6);
    EXPECT_EQ(t.size(t.child(0, 1)), 8);
    EXPECT_EQ(t.size(t.child(0, 2)), 2);
    EXPECT_EQ(cosize(t), 96);
    const index_t copies[3] = {3, 2, 2};
    std::set<index_t> seen;
    for (index_t m = 0; m < 6; ++m)
      for (index_t k = 0; k < 8; ++k)
        for (index_t s = 0; s < 2; ++s) {
          const index_t c[3] = {m / 2, k / 4, s};
          index_t copy = 0;  // the copy's index, its modes weighted in `order`
          for (int d = 0; d < 3; ++d) {
            index_t w = 1;
            for (int j = 0; j < 3; ++j)
              if (j != d && (order.nodes[1 + j].shape < order.nodes[1 + d].shape)) w *= copies[j];
            copy += c[d] * w;
          }
          const index_t want = (m % 2) * 4 + (k % 4) + 8 * copy;
          EXPECT_EQ(evaluate(t, m + 6 * (k + 8 * s)), want) << o << " at (" << m << "," << k << "," << s << ")";
          seen.insert(want);
        }
    EXPECT_EQ(seen.size(), 96u) << o;
  }
}

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
