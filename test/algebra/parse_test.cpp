// The constexpr reader of layout text (layout/tree_parse.hpp), in constant expressions: what it
// reads, where it stops, and the kind and column of each refusal. The one-line messages built
// on top of it are tested with the run-time face (test/runtime/parse_test.cpp).
#include <gtest/gtest.h>

#include "algebra_test_support.hpp"

namespace {

using namespace algebra_test;
using namespace cute_dsl::tree;

constexpr bool refuses(const char* text, ParseStatus status, int column) {
  const Parsed<Tree> r = parse_whole_layout(make_text(text));
  return r.status == status && r.column == column;
}

// What it reads: nesting, signs, CuTe's _N, whitespace.
static_assert(parse_whole_layout(make_text("((2,2),3):((1,4),2)")).value == [] {
  Tree t{};
  t.push_tuple(2);
  t.push_tuple(2);
  t.push_leaf(2, 1);
  t.push_leaf(2, 4);
  t.push_leaf(3, 2);
  return t;
}());
static_assert(parse_whole_layout(make_text(" ( _2 , _3 ) : ( +1 , -2 ) ")).value == L("(2,3):(1,-2)"));
static_assert(parse_whole_layout(make_text("4:1")).value == make_tree_leaf(4, 1));
static_assert(!(L("(4):(1)") == L("4:1")));  // a one-element tuple is not an integer
static_assert(parse_integer(make_text("-9223372036854775808")).value == detail::kIndexMin);
static_assert(parse_integer(make_text("  _17)")).end == 5);
static_assert(parse_whole_int_tuple(make_text("((2,2),3)")).value.count == 5);

// Where it stops: a layout inside a longer text, as the expression grammar reads it.
constexpr Text kExpression = make_text("size((4,2):(1,4) )");
static_assert(parse_layout(kExpression, 5).end == 16 && parse_layout(kExpression, 5).value == L("(4,2):(1,4)"));

// Each refusal, with its 1-based column.
static_assert(refuses("", ParseStatus::expected_integer_or_paren, 1));
static_assert(refuses("4", ParseStatus::expected_colon, 2));
static_assert(refuses("(4,2):(1,4", ParseStatus::expected_comma_or_paren, 11));
static_assert(refuses("(4,2):(1,4))", ParseStatus::expected_end, 12));
static_assert(refuses("-:1", ParseStatus::expected_integer_or_paren, 1));
static_assert(parse_integer(make_text(" _x")).status == ParseStatus::expected_integer && parse_integer(make_text(" _x")).column == 2);
static_assert(refuses("(2,3):(1,(2,3))", ParseStatus::not_congruent, 10));
static_assert(refuses("(2,3):1", ParseStatus::not_congruent, 7));
static_assert(refuses("(2,-3):(1,2)", ParseStatus::nonpositive_shape, 4));
static_assert(parse_whole_layout(make_text("(2,-3):(1,2)")).detail == -3);
static_assert(refuses("99999999999999999999:1", ParseStatus::integer_out_of_range, 1));
static_assert(refuses("4:9223372036854775808", ParseStatus::integer_out_of_range, 3));
static_assert(refuses("(4294967296,4294967296):(1,1)", ParseStatus::too_large, 13));

// Tilers: layouts or integers n (the layout n:1).
static_assert(parse_whole_tiler(make_text("[2:1, (2,2):(1,4) ,3]")).value.modes == [] {
  Tree t{};
  t.push_tuple(3);
  t.push_leaf(2, 1);
  t.push_tuple(2);
  t.push_leaf(2, 1);
  t.push_leaf(2, 4);
  t.push_leaf(3, 1);
  return t;
}());
static_assert(parse_whole_tiler(make_text("2:1")).status == ParseStatus::expected_bracket);
static_assert(parse_whole_tiler(make_text("[2:1;")).status == ParseStatus::expected_comma_or_bracket);
static_assert(parse_whole_tiler(make_text("[0]")).status == ParseStatus::nonpositive_shape);
static_assert(parse_whole_tiler(make_text("[2,]")).column == 4);

TEST(Parse, CapacityIsEnforcedNotTruncated) {
  std::string text = "(";
  for (int i = 0; i < kCapacity; ++i) text += i ? ",1" : "1";  // kCapacity leaves + the root: one too many
  const Parsed<Tree> r = parse_int_tuple(Text{text.data(), static_cast<int>(text.size())});
  EXPECT_EQ(r.status, ParseStatus::capacity);
  EXPECT_EQ(r.column, 2 * kCapacity);  // the leaf that did not fit
}

TEST(Parse, DeepNestingHitsCapacityNotTheStack) {
  const std::string deep(100000, '(');
  const Parsed<Tree> r = parse_layout(Text{deep.data(), static_cast<int>(deep.size())});
  EXPECT_EQ(r.status, ParseStatus::capacity);
  EXPECT_EQ(r.column, kCapacity + 1);
}

// Every prefix of a valid layout is refused, never read as something else, and never read past.
TEST(Parse, EveryPrefixIsRefused) {
  const std::string full = "((2,_2),3):((1,-4),+2)";
  for (std::size_t n = 0; n < full.size(); ++n) {
    const Parsed<Tree> r = parse_whole_layout(Text{full.data(), static_cast<int>(n)});
    EXPECT_FALSE(r.ok()) << full.substr(0, n);
    EXPECT_GE(r.column, 1);
    EXPECT_LE(r.column, static_cast<int>(n) + 1) << full.substr(0, n);
  }
  EXPECT_TRUE(parse_whole_layout(Text{full.data(), static_cast<int>(full.size())}).ok());
}

}  // namespace
