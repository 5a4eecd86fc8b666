// Printing CuTe notation, and parse(print(t)) == t over many random trees.
#include "cute_dsl/runtime/parse.hpp"
#include "cute_dsl/runtime/print.hpp"

#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>

namespace {

namespace tree = cute_dsl::tree;
using cute_dsl::runtime::int_tuple_to_string;
using cute_dsl::runtime::parse_layout;
using cute_dsl::runtime::to_string;

TEST(Print, Notation) {
  tree::Tree integral{};
  integral.push_leaf(4, 1);
  EXPECT_EQ(to_string(integral), "4:1");

  tree::Tree one{};
  one.push_tuple(1);
  one.push_leaf(4, 1);
  EXPECT_EQ(to_string(one), "(4):(1)");

  tree::Tree nested{};
  nested.push_tuple(2);
  nested.push_tuple(2);
  nested.push_leaf(2, 1);
  nested.push_leaf(2, 4);
  nested.push_leaf(3, 2);
  EXPECT_EQ(to_string(nested), "((2,2),3):((1,4),2)");
  EXPECT_EQ(int_tuple_to_string(nested), "((2,2),3)");
  EXPECT_EQ(to_string(nested, 1), "(2,2):(1,4)");  // a subtree
  EXPECT_EQ(to_string(nested, 4), "3:2");
}

TEST(Print, StaticIntegersLoseTheirUnderscore) {
  EXPECT_EQ(to_string(parse_layout("(_2,_3):(_1,_2)")), "(2,3):(1,2)");
  EXPECT_EQ(to_string(parse_layout(" ( 2 , 3 ) : ( +1 , -2 ) ")), "(2,3):(1,-2)");
}

TEST(Print, Tiler) {
  tree::Tiler t{};
  t.modes.push_tuple(2);
  t.modes.push_leaf(2, 1);
  t.modes.push_tuple(2);
  t.modes.push_leaf(2, 1);
  t.modes.push_leaf(1, 2);
  EXPECT_EQ(to_string(t), "[2:1,(2,1):(1,2)]");
}

TEST(Print, StreamOperator) {
  std::ostringstream os;
  os << parse_layout("((2,8)):((1,2))");
  EXPECT_EQ(os.str(), "((2,8)):((1,2))");
}

// A random well-formed tree: depth up to 3, up to 4 children per tuple, signed strides.
void random_subtree(std::mt19937_64& rng, tree::Tree& t, int depth_left) {
  const bool leaf = depth_left == 0 || rng() % 3 == 0;
  if (leaf) {
    t.push_leaf(static_cast<tree::index_t>(1 + rng() % 64), static_cast<tree::index_t>(rng() % 2001) - 1000);
    return;
  }
  const int n = 1 + static_cast<int>(rng() % 4);
  t.push_tuple(n);
  for (int k = 0; k < n; ++k) random_subtree(rng, t, depth_left - 1);
}

bool representable(const tree::Tree& t) {
  tree::index_t size = 1, cosize = 0;
  for (int i = 0; i < t.count; ++i) {
    if (!t.is_leaf(i)) continue;
    tree::index_t span = 0;
    const tree::index_t d = t.nodes[i].stride < 0 ? -t.nodes[i].stride : t.nodes[i].stride;
    if (__builtin_mul_overflow(size, t.nodes[i].shape, &size) ||
        __builtin_mul_overflow(t.nodes[i].shape - 1, d, &span) || __builtin_add_overflow(cosize, span, &cosize))
      return false;
  }
  return true;
}

TEST(Print, RoundTripOverRandomTrees) {
  std::mt19937_64 rng(12345);
  int checked = 0;
  for (int i = 0; i < 20000; ++i) {
    tree::Tree t{};
    random_subtree(rng, t, 3);
    if (t.overflow) continue;
    const std::string text = to_string(t);
    if (!representable(t)) {  // the reader refuses what it cannot size
      EXPECT_THROW(parse_layout(text), cute_dsl::ParseError) << text;
      continue;
    }
    const tree::Tree back = parse_layout(text);
    ASSERT_TRUE(back == t) << text << " came back as " << to_string(back);
    ASSERT_EQ(to_string(back), text);
    ++checked;
  }
  EXPECT_GT(checked, 10000);
}

}  // namespace
