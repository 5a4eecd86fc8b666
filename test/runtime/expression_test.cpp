// The tool's expression language: evaluation, dispatch, and every error class with its column.
#include "cute_dsl/runtime/expression.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using cute_dsl::ExpressionError;
using cute_dsl::LayoutError;
using cute_dsl::ParseError;
using cute_dsl::runtime::evaluate_expression;
using cute_dsl::runtime::to_string;
namespace tree = cute_dsl::tree;

std::string eval(const std::string& text) { return to_string(evaluate_expression(text)); }

TEST(Expression, Literals) {
  EXPECT_EQ(eval("4:1"), "4:1");
  EXPECT_EQ(eval("(4):(1)"), "(4):(1)");
  EXPECT_EQ(eval("((2,8)):((1,2))"), "((2,8)):((1,2))");
  EXPECT_EQ(eval("  42 "), "42");
  EXPECT_EQ(eval("_8"), "8");
  EXPECT_EQ(eval("-3"), "-3");
  EXPECT_EQ(eval("9223372036854775807"), "9223372036854775807");    // the int64 limits read exactly
  EXPECT_EQ(eval("-9223372036854775808"), "-9223372036854775808");
  EXPECT_THROW(evaluate_expression("9223372036854775808"), ParseError);
  EXPECT_THROW(evaluate_expression("-9223372036854775809"), ParseError);
  EXPECT_EQ(eval("[2:1,2]"), "[2:1,2:1]");
  EXPECT_EQ(eval("[(1):(4),(2,1):(2,16)]"), "[(1):(4),(2,1):(2,16)]");
  EXPECT_EQ(eval("[ 4 ]"), "[4:1]");
}

TEST(Expression, IntegerResults) {
  EXPECT_EQ(eval("size(((2,2),3):((1,4),2))"), "12");
  EXPECT_EQ(eval("cosize((2,3):(1,2))"), "6");  // 1 + 1*1 + 2*2
  EXPECT_EQ(eval("rank(4:1)"), "1");
  EXPECT_EQ(eval("depth(4:1)"), "0");
  EXPECT_EQ(eval("depth((4):(1))"), "1");
  EXPECT_EQ(eval("rank((2,(3,4)):(1,(2,6)))"), "2");
  EXPECT_EQ(eval("depth((2,(3,4)):(1,(2,6)))"), "2");
}

// Results from CuTe (rows of the conformance README); they pin down dispatch and argument order.
TEST(Expression, DispatchesToTheAlgebra) {
  EXPECT_EQ(eval("coalesce((2,(6,4)):(4,(8,1)))"), "(12,4):(4,1)");
  EXPECT_EQ(eval("filter((6,(3,8)):(1,(0,0)))"), "6:1");
  EXPECT_EQ(eval("flatten((2,(3,4)):(1,(2,6)))"), "(2,3,4):(1,2,6)");
  EXPECT_EQ(eval("composition(4:2,8:1)"), "8:2");
  EXPECT_EQ(eval("composition((4,2):(1,10),16:1)"), "(4,4):(1,10)");
  EXPECT_EQ(eval("composition((12,2):(4,144),[3:1])"), "(3):(4)");
  EXPECT_EQ(eval("complement(4:2,24)"), "(2,3):(1,8)");
  EXPECT_EQ(eval("complement((16,1,6):(4,256,1024))"), "(4,16):(1,64)");
  EXPECT_EQ(eval("right_inverse((2,2,8):(8,8,1))"), "(8,2):(4,2)");
  EXPECT_EQ(eval("left_inverse(((3,8)):((8,1)))"), "(8,3):(3,1)");
  EXPECT_EQ(eval("blocked_product(6:1,4:1)"), "((6,4)):((1,6))");
  EXPECT_EQ(eval("size(logical_divide(6:1,4:1))"), "8");
  EXPECT_EQ(eval("max_common_vector((4,2):(1,4),(4,2):(1,4))"), "8");
}

TEST(Expression, TileToShape) {
  EXPECT_EQ(eval("tile_to_shape((8,64):(64,1),[128,64,4])"), "(128,64,4):(64,1,8192)");
  EXPECT_EQ(eval("tile_to_shape((64,8):(1,64),[128,64,4],[2,1,3])"), "((64,2),64,4):((1,4096),64,8192)");
  EXPECT_EQ(eval("tile_to_shape((3,4):(1,3),[9,12])"), "((3,3),(4,3)):((1,12),(3,36))");
  EXPECT_EQ(eval("tile_to_shape(8:1,64)"), "64:1");
}

TEST(Expression, IntegerTileMeansNColonOne) {
  EXPECT_EQ(eval("composition((4,2):(2,8),2)"), eval("composition((4,2):(2,8),2:1)"));
  EXPECT_EQ(eval("logical_divide((8,4):(1,8),[2,2])"), eval("logical_divide((8,4):(1,8),[2:1,2:1])"));
}

TEST(Expression, Nesting) {
  EXPECT_EQ(eval("size(coalesce(composition((4,2):(1,4), 8:1)))"), "8");
  EXPECT_EQ(eval("composition(4:2,[coalesce((2,2):(1,2))])"), eval("composition(4:2,[4:1])"));
}

// Text, column, and a fragment of the message for each error class of the evaluator.
struct Bad {
  const char* text;
  int column;
  const char* part;
};

template <class E>
void expect_error(const Bad& b) {
  try {
    const auto v = evaluate_expression(b.text);
    FAIL() << b.text << " gave " << to_string(v);
  } catch (const E& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.column(), b.column) << what;
    EXPECT_NE(what.find(b.part), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

TEST(ExpressionErrors, Syntax) {
  for (const Bad& b : {
           Bad{"", 1, "expected an operation, a layout, an integer or '[', got end of input"},
           Bad{"size(4:1", 9, "expected ',' or ')', got end of input"},
           Bad{"size 4:1", 6, "expected '(' after 'size', got '4'"},
           Bad{"size(4:1))", 10, "expected end of input, got ')'"},
           Bad{"composition(4:1,,2)", 17, "got ','"},
           Bad{"[2:1,2", 7, "expected ',' or ']', got end of input"},
           Bad{"[]", 2, "got ']'"},
           Bad{"(2,2)", 6, "expected ':' between shape and stride"},
           Bad{"size((2,2):(1,(2,1)))", 15, "not congruent"},
           Bad{"size(0:1)", 6, "shape must be positive"},
           Bad{"4:1:2", 4, "expected end of input, got ':'"},
           Bad{"size(4:1)#", 10, "got '#'"},
           Bad{"composition(4:1, size(2:1), )", 29, "got ')'"},
       })
    expect_error<ParseError>(b);
}

TEST(ExpressionErrors, NestingIsBounded) {
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "size(";
  EXPECT_THROW(evaluate_expression(deep), ParseError);
  std::string tilers(100000, '[');
  EXPECT_THROW(evaluate_expression(tilers), ParseError);
}

TEST(ExpressionErrors, UnknownOperationArityAndKinds) {
  for (const Bad& b : {
           Bad{"frobnicate(4:1)", 1, "unknown operation 'frobnicate'"},
           Bad{"size(Coalesce(4:1))", 6, "unknown operation 'Coalesce'"},
           Bad{"composition(4:1)", 1, "composition at column 1: expects 2 arguments, got 1"},
           Bad{"size(4:1,2:1)", 1, "size at column 1: expects 1 argument, got 2"},
           Bad{"complement(4:1,2,3)", 1, "complement at column 1: expects 1 or 2 arguments, got 3"},
           Bad{"coalesce()", 1, "expects 1 argument, got 0"},
           Bad{"size(4)", 6, "size at column 6: the first argument must be a layout, got an integer"},
           Bad{"size( [2,2] )", 7, "must be a layout, got a tiler"},
           Bad{"composition(8:1,-2)", 17, "an integer tile must be a positive integer, got -2"},
           Bad{"complement(4:1,2:1)", 16, "the second argument must be an integer, got a layout"},
           Bad{"complement(4:1,0)", 16, "the cotarget must be a positive integer, got 0"},
           Bad{"blocked_product(4:1,[2])", 21, "must be a layout or an integer, got a tiler"},
           Bad{"max_common_vector(4:1,4)", 23, "must be a layout, got an integer"},
           Bad{"tile_to_shape(4:1,4:2)", 19, "must be an integer or a tiler of integers [n0,n1,...], got a layout"},
           Bad{"tile_to_shape(4:1,[8,2:2])", 19, "the target shape must be integers [n0,n1,...], got [8:1,2:2]"},
           Bad{"tile_to_shape((2,2):(1,2),[8])", 27, "the target shape has 1 modes, fewer than the block's 2"},
           Bad{"tile_to_shape((2,2):(1,2),[8,8],[1])", 33, "the order needs one entry per mode of the target shape (2), got 1"},
           Bad{"[2,[2]]", 4, "a tiler item must be a layout or an integer, got a tiler"},
           Bad{"[2,0]", 4, "an integer tile must be positive, got 0"},
       })
    expect_error<ExpressionError>(b);
}

// Rule failures name the operation the user called and the rule.
TEST(ExpressionErrors, AlgebraRulesNameTheOperation) {
  struct Case {
    const char* text;
    const char* prefix;
  };
  for (const Case& c : {
           Case{"composition(((3,2)):((1,6)),(2,2):(1,2))", "composition: "},
           Case{"complement(((2,2)):((12,5)),36)", "complement: "},
           Case{"left_inverse(((2,3)):((2,1)))", "left_inverse: "},
           Case{"logical_divide((6,4):(1,10),4:1)", "logical_divide: "},
           Case{"tile_to_shape((8,64):(64,1),[100,64,4])", "tile_to_shape: "},
       }) {
    try {
      const auto v = evaluate_expression(c.text);
      FAIL() << c.text << " gave " << to_string(v);
    } catch (const LayoutError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(c.prefix, 0), 0u) << what;
      EXPECT_NE(what.find("Condition"), std::string::npos) << what;
      EXPECT_NE(e.rule(), tree::Error::none);
    }
  }
}

}  // namespace
