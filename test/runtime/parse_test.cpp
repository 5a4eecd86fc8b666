// The CuTe-notation reader: well-formed text gives the expected tree; every class of malformed
// text gives a ParseError whose one-line message names the right column.
#include "cute_dsl/runtime/parse.hpp"
#include "cute_dsl/runtime/print.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using cute_dsl::ParseError;
using cute_dsl::runtime::parse_int_tuple;
using cute_dsl::runtime::parse_layout;
using cute_dsl::runtime::to_string;
namespace tree = cute_dsl::tree;

TEST(Parse, IntegralLayoutIsOneLeaf) {
  const tree::Tree t = parse_layout("4:1");
  ASSERT_EQ(t.count, 1);
  EXPECT_TRUE(t.is_leaf(0));
  EXPECT_EQ(t.nodes[0].shape, 4);
  EXPECT_EQ(t.nodes[0].stride, 1);
}

TEST(Parse, OneElementTupleIsATupleNode) {
  const tree::Tree t = parse_layout("(4):(1)");
  ASSERT_EQ(t.count, 2);
  EXPECT_EQ(t.nodes[0].children, 1);
  EXPECT_EQ(t.nodes[1].shape, 4);
  EXPECT_EQ(t.nodes[1].stride, 1);
  EXPECT_EQ(t.rank(), 1);
  EXPECT_EQ(t.depth(), 1);
  EXPECT_FALSE(t == parse_layout("4:1"));
}

TEST(Parse, NestedLayoutInPreorder) {
  const tree::Tree t = parse_layout("((2,2),3):((1,4),2)");
  ASSERT_EQ(t.count, 5);
  EXPECT_EQ(t.nodes[0].children, 2);
  EXPECT_EQ(t.nodes[1].children, 2);
  EXPECT_EQ(t.nodes[2].shape, 2);
  EXPECT_EQ(t.nodes[2].stride, 1);
  EXPECT_EQ(t.nodes[3].shape, 2);
  EXPECT_EQ(t.nodes[3].stride, 4);
  EXPECT_EQ(t.nodes[4].shape, 3);
  EXPECT_EQ(t.nodes[4].stride, 2);
  EXPECT_EQ(t.depth(), 2);
  EXPECT_EQ(t.size(), 12);
}

TEST(Parse, StaticUnderscoreIntegersAndWhitespace) {
  EXPECT_TRUE(parse_layout(" ( _2 , _3 ) : ( _1 , _2 ) ") == parse_layout("(2,3):(1,2)"));
  EXPECT_TRUE(parse_layout("\t((2,8)):((1,2))\n") == parse_layout("((2,8)):((1,2))"));
}

TEST(Parse, SignedStrides) {
  const tree::Tree t = parse_layout("(2,3):(-1,+4)");
  EXPECT_EQ(t.nodes[1].stride, -1);
  EXPECT_EQ(t.nodes[2].stride, 4);
}

TEST(Parse, IntTuple) {
  const tree::Tree t = parse_int_tuple("((2,2),3)");
  ASSERT_EQ(t.count, 5);
  EXPECT_EQ(to_string(t), "((2,2),3):((0,0),0)");
  EXPECT_EQ(cute_dsl::runtime::int_tuple_to_string(t), "((2,2),3)");
  EXPECT_EQ(cute_dsl::runtime::int_tuple_to_string(parse_int_tuple("7")), "7");
}

// Every malformed class: the column and the expectation in the one-line message.
struct Malformed {
  const char* text;
  int column;
  const char* message_part;
};

class ParseMalformed : public ::testing::TestWithParam<Malformed> {};

TEST_P(ParseMalformed, ReportsColumnAndExpectation) {
  const Malformed m = GetParam();
  try {
    parse_layout(m.text);
    FAIL() << "accepted malformed text " << m.text;
  } catch (const ParseError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.column(), m.column) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_EQ(what.rfind("parse error at column " + std::to_string(m.column) + ": ", 0), 0u) << what;
    EXPECT_NE(what.find(m.message_part), std::string::npos) << what;
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllClasses, ParseMalformed,
    ::testing::Values(
        Malformed{"", 1, "expected an integer or '(', got end of input"},
        Malformed{"   ", 4, "got end of input"},
        Malformed{"4", 2, "expected ':' between shape and stride, got end of input"},
        Malformed{"4:", 3, "expected an integer or '('"},
        Malformed{"(4,2):(1,4", 11, "expected ',' or ')', got end of input"},
        Malformed{"(4,2]:(1,4)", 5, "expected ',' or ')', got ']'"},
        Malformed{"(4,):(1,4)", 4, "expected an integer or '(', got ')'"},
        Malformed{"():()", 2, "expected an integer or '(', got ')'"},
        Malformed{"(4,2):(1,4))", 12, "expected end of input, got ')'"},
        Malformed{"4:1 x", 5, "expected end of input, got 'x'"},
        Malformed{"a:1", 1, "got 'a'"},
        Malformed{"4;1", 2, "expected ':' between shape and stride, got ';'"},
        Malformed{"4:\x07", 3, "got byte 0x07"},
        Malformed{"-:1", 1, "expected an integer"},
        Malformed{"_:1", 1, "expected an integer"},
        Malformed{"(2,3):(1,(2,3))", 10, "not congruent"},
        Malformed{"(2,3):1", 7, "not congruent"},
        Malformed{"(2,3):(1,2,3)", 7, "not congruent"},
        Malformed{"(2,3):(1)", 7, "not congruent"},
        Malformed{"(2,0):(1,2)", 4, "shape must be positive, got 0"},
        Malformed{"(2,-3):(1,2)", 4, "shape must be positive, got -3"},
        Malformed{"99999999999999999999:1", 1, "integer out of range"},
        Malformed{"4:-9223372036854775809", 3, "integer out of range"},
        Malformed{"(4294967296,4294967296):(1,1)", 13, "does not fit in 64 bits"},
        Malformed{"4:9223372036854775807", 1, "does not fit in 64 bits"}));

TEST(Parse, CapacityIsEnforcedNotTruncated) {
  std::string shape = "(", stride = "(";
  for (int i = 0; i < tree::kCapacity; ++i) {  // kCapacity leaves + the root tuple: one too many
    shape += (i ? ",1" : "1");
    stride += (i ? ",0" : "0");
  }
  const std::string text = shape + "):" + stride + ")";
  try {
    parse_layout(text);
    FAIL() << "accepted a layout larger than the capacity";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("CUTE_DSL_TREE_CAPACITY"), std::string::npos) << e.what();
    EXPECT_EQ(e.column(), 2 * tree::kCapacity);  // the leaf that did not fit
  }
  // One leaf fewer fits exactly.
  std::string fits_shape = "(", fits_stride = "(";
  for (int i = 0; i + 1 < tree::kCapacity; ++i) {
    fits_shape += (i ? ",1" : "1");
    fits_stride += (i ? ",0" : "0");
  }
  EXPECT_EQ(parse_layout(fits_shape + "):" + fits_stride + ")").count, tree::kCapacity);
}

TEST(Parse, DeepNestingHitsCapacityNotTheStack) {
  const std::string deep = std::string(100000, '(');
  EXPECT_THROW(parse_layout(deep), ParseError);
}

TEST(Parse, ParseErrorIsAnInvalidArgument) {
  EXPECT_THROW(parse_layout("("), std::invalid_argument);
}

}  // namespace
