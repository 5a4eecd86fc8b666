// util/print.hpp: CuTe's notation, exactly: static ints `_N`, run-time ints plain.
#include "cute_dsl/util/print.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace {
using namespace cute_dsl;

TEST(Print, Integers) {
  EXPECT_EQ(to_string(_4{}), "_4");
  EXPECT_EQ(to_string(_m2{}), "_-2");
  EXPECT_EQ(to_string(7), "7");
  EXPECT_EQ(to_string(true_type{}), "_true");
  EXPECT_EQ(to_string(static_cast<signed char>(5)), "5");
  EXPECT_EQ(to_string(_), "_");
}

TEST(Print, Tuples) {
  EXPECT_EQ(to_string(make_tuple(_2{}, 3)), "(_2,3)");
  EXPECT_EQ(to_string(make_tuple(make_tuple(_2{}, _2{}), 3)), "((_2,_2),3)");
  EXPECT_EQ(to_string(tuple<>{}), "()");
  EXPECT_EQ(to_string(make_tuple(_, 1)), "(_,1)");
}

TEST(Print, Layouts) {
  auto l = make_layout(make_shape(make_shape(_2{}, _2{}), 3), make_stride(make_stride(_1{}, 4), _2{}));
  EXPECT_EQ(to_string(l), "((_2,_2),3):((_1,4),_2)");
  EXPECT_EQ(to_string(make_layout(make_shape(_4{}, 8))), "(_4,8):(_1,_4)");
  EXPECT_EQ(to_string(make_layout(_1{})), "_1:_0");
  EXPECT_EQ(to_string(Layout<Shape<_4>, Stride<_1>>{}), "(_4):(_1)");
  EXPECT_EQ(to_string(make_layout(make_shape(_4{}, _8{}))(_, 2)), "(_4):(_1)");
  std::ostringstream os;
  os << make_layout(make_shape(2, 3), LayoutRight{});
  EXPECT_EQ(os.str(), "(2,3):(3,_1)");
}

TEST(Print, Swizzles) {
  EXPECT_EQ(to_string(Swizzle<3, 4, 3>{}), "Sw<3,4,3>");
  EXPECT_EQ(to_string(Swizzle<2, 0, -2>{}), "Sw<2,0,-2>");
  auto sl = composition(Swizzle<3, 4, 3>{}, make_layout(make_shape(_8{}, _64{}), LayoutRight{}));
  EXPECT_EQ(to_string(sl), "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)");
  EXPECT_EQ(to_string(sl(_2{}, _)), "Sw<3,4,3> o _128 o (_64):(_1)");
  EXPECT_EQ(to_string(sl(2, _)), "Sw<3,4,3> o 128 o (_64):(_1)");  // a run-time row gives a run-time offset
}
}  // namespace
