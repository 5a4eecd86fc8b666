// runtime::Layout and runtime::Tiler: the host class over tree::Tree and its throwing algebra.
#include "cute_dsl/runtime/layout.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace {

using cute_dsl::LayoutError;
using cute_dsl::runtime::Layout;
using cute_dsl::runtime::Tiler;
namespace rt = cute_dsl::runtime;
namespace tree = cute_dsl::tree;

TEST(RuntimeLayout, QueriesAndEvaluation) {
  const Layout l = Layout::parse("((2,2),3):((1,4),2)");
  EXPECT_EQ(l.size(), 12);
  EXPECT_EQ(l.cosize(), 10);  // 1 + 1 + 4 + 2*2
  EXPECT_EQ(l.rank(), 2);
  EXPECT_EQ(l.depth(), 2);
  // Colexicographic: i = i0 + 2*i1 + 4*i2 -> i0*1 + i1*4 + i2*2.
  for (long long i = 0; i < 12; ++i) EXPECT_EQ(l(i), (i % 2) * 1 + (i / 2 % 2) * 4 + (i / 4) * 2) << i;
  EXPECT_EQ(l.mode(0).to_string(), "(2,2):(1,4)");
  EXPECT_EQ(l.mode(1).to_string(), "3:2");
  EXPECT_THROW(l.mode(2), LayoutError);
  EXPECT_EQ(Layout(8, 1).mode(0).to_string(), "8:1");  // an integral layout is its own mode 0
  EXPECT_EQ(Layout().to_string(), "1:0");
  std::ostringstream os;
  os << l;
  EXPECT_EQ(os.str(), "((2,2),3):((1,4),2)");
}

TEST(RuntimeLayout, EqualityIsStructural) {
  EXPECT_EQ(Layout::parse("(4,2):(1,4)"), Layout::parse(" ( _4 , _2 ) : ( 1 , 4 ) "));
  EXPECT_FALSE(Layout::parse("4:1") == Layout::parse("(4):(1)"));
}

TEST(RuntimeLayout, AlgebraAsFreeFunctions) {
  EXPECT_EQ(rt::coalesce(Layout::parse("(2,(6,4)):(4,(8,1))")).to_string(), "(12,4):(4,1)");
  EXPECT_EQ(rt::composition(Layout(4, 2), Layout(8, 1)).to_string(), "8:2");
  EXPECT_EQ(rt::composition(Layout::parse("(12,2):(4,144)"), Tiler{Layout(3, 1)}).to_string(), "(3):(4)");
  EXPECT_EQ(rt::complement(Layout(4, 2), 24).to_string(), "(2,3):(1,8)");
  EXPECT_EQ(rt::blocked_product(Layout(6, 1), Layout(4, 1)).to_string(), "((6,4)):((1,6))");
  EXPECT_EQ(rt::flatten(Layout::parse("(2,(3,4)):(1,(2,6))")).to_string(), "(2,3,4):(1,2,6)");
}

TEST(RuntimeLayout, RuleFailuresThrowNamingTheFunctionAndRule) {
  try {
    rt::complement(Layout::parse("(3,3):(1,4)"));
    FAIL() << "complement of an overlapping layout succeeded";
  } catch (const LayoutError& e) {
    EXPECT_EQ(e.function(), "complement");
    EXPECT_NE(e.rule(), tree::Error::none);
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("complement: ", 0), 0u) << what;
    EXPECT_NE(what.find("(3,3):(1,4)"), std::string::npos) << what;  // the input is echoed
  }
  try {
    rt::logical_divide(Layout::parse("(6,4):(1,10)"), Layout(4, 1));
    FAIL() << "logical_divide with a non-exact tile succeeded";
  } catch (const LayoutError& e) {
    EXPECT_EQ(e.function(), "logical_divide");
    EXPECT_NE(std::string(e.what()).find("that logical_divide performs"), std::string::npos) << e.what();
  }
}

// Results beyond 64 bits are errors, never wrapped-around layouts (found by fuzzing).
TEST(RuntimeLayout, UnrepresentableResultsAreOverflowErrors) {
  try {
    const Layout r = rt::blocked_product(Layout::parse("(3,3):(1,3)"), Layout::parse("(4,1424294967294967296):(2,0)"));
    FAIL() << "got " << r;
  } catch (const LayoutError& e) {
    EXPECT_EQ(e.rule(), tree::Error::overflow) << e.what();
    EXPECT_EQ(e.function(), "blocked_product");
  }
  try {  // the rest of the codomain would need stride 2 * 2^62
    const Layout r = rt::complement(Layout::parse("2:4611686018427387904"));
    FAIL() << "got " << r;
  } catch (const LayoutError& e) {
    EXPECT_EQ(e.rule(), tree::Error::overflow) << e.what();
  }
  // Once refused for a wrapped ceil_div; the exact answer fits.
  EXPECT_EQ(rt::complement(Layout::parse("3:2122437203685475807")).to_string(), "2122437203685475807:1");
}

TEST(RuntimeTiler, BuildAndPrint) {
  Tiler t{Layout(2, 1), Layout::parse("(2,1):(2,16)")};
  EXPECT_EQ(t.rank(), 2);
  EXPECT_EQ(t.to_string(), "[2:1,(2,1):(2,16)]");
  t.push_back(Layout::parse("(1):(4)"));
  EXPECT_EQ(t.to_string(), "[2:1,(2,1):(2,16),(1):(4)]");
  EXPECT_EQ(t.mode(2).to_string(), "(1):(4)");
  EXPECT_EQ(Tiler().to_string(), "[]");
}

TEST(RuntimeTiler, CapacityIsEnforced) {
  Tiler t;
  const Layout wide = Layout::parse("(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1):(0,0,0,0,0,0,0,0,0,0,0,0,0,0,0)");
  EXPECT_THROW(
      {
        for (int i = 0; i < 10; ++i) t.push_back(wide);
      },
      LayoutError);
}

}  // namespace
