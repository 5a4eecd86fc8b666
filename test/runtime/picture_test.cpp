// The print_layout table and the SVG picture of rank-2 layouts.
#include "cute_dsl/runtime/svg.hpp"
#include "cute_dsl/runtime/table.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using cute_dsl::LayoutError;
using cute_dsl::runtime::Layout;
using cute_dsl::runtime::layout_svg;
using cute_dsl::runtime::layout_table;
using cute_dsl::runtime::offset_grid;

TEST(Table, RowMajorTwoByThree) {
  EXPECT_EQ(layout_table(Layout::parse("(2,3):(3,1)")),
            "(2,3):(3,1)\n"
            "      0   1   2 \n"
            "    +---+---+---+\n"
            " 0  | 0 | 1 | 2 |\n"
            "    +---+---+---+\n"
            " 1  | 3 | 4 | 5 |\n"
            "    +---+---+---+\n");
}

TEST(Table, HierarchicalModesAndWideCells) {
  // Mode 0 is (2,2):(1,8), mode 1 is 3:2; cosize 12 gives two-digit cells.
  EXPECT_EQ(layout_table(Layout::parse("((2,2),3):((1,8),2)")),
            "((2,2),3):((1,8),2)\n"
            "       0    1    2 \n"
            "    +----+----+----+\n"
            " 0  |  0 |  2 |  4 |\n"
            "    +----+----+----+\n"
            " 1  |  1 |  3 |  5 |\n"
            "    +----+----+----+\n"
            " 2  |  8 | 10 | 12 |\n"
            "    +----+----+----+\n"
            " 3  |  9 | 11 | 13 |\n"
            "    +----+----+----+\n");
}

TEST(Table, EveryCellIsTheOffsetOfItsCoordinate) {
  const Layout l = Layout::parse("((2,3),(2,2)):((12,1),(3,6))");
  const auto grid = offset_grid(l, "table");
  ASSERT_EQ(grid.size(), 6u);
  for (long long r = 0; r < 6; ++r)
    for (long long c = 0; c < 4; ++c) EXPECT_EQ(grid[r][c], l(r + 6 * c)) << r << "," << c;
}

TEST(Table, ManyRowsWidenTheLabel) {
  const std::string t = layout_table(Layout::parse("(101,1):(1,0)"));
  EXPECT_NE(t.find("\n100  | 100 |\n"), std::string::npos) << t;
  EXPECT_NE(t.find("\n  0  |   0 |\n"), std::string::npos) << t;
}

TEST(Table, RankOtherThanTwoIsRefused) {
  for (const char* text : {"8:1", "(8):(1)", "(2,2,2):(1,2,4)"}) {
    try {
      layout_table(Layout::parse(text));
      FAIL() << text;
    } catch (const LayoutError& e) {
      EXPECT_NE(std::string(e.what()).find("rank-2"), std::string::npos) << e.what();
      EXPECT_EQ(e.function(), "table");
    }
  }
  EXPECT_THROW(layout_svg(Layout::parse("8:1")), LayoutError);
}

TEST(Table, HugeLayoutsAreRefused) {
  EXPECT_THROW(layout_table(Layout::parse("(100000,100000):(1,100000)")), LayoutError);
}

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(Svg, OneLabelledColouredCellPerCoordinate) {
  const std::string svg = layout_svg(Layout::parse("(2,3):(3,1)"));
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_NE(svg.find("<title>(2,3):(3,1)</title>"), std::string::npos);
  EXPECT_EQ(count(svg, "stroke=\"black\""), 6);  // one rect per cell
  EXPECT_EQ(count(svg, "class=\"col-index\""), 3);
  EXPECT_EQ(count(svg, "class=\"row-index\""), 2);
  for (int v = 0; v < 6; ++v) EXPECT_NE(svg.find(">" + std::to_string(v) + "</text>"), std::string::npos) << v;
  // Six distinct offsets, six distinct colours.
  for (int v = 0; v < 6; ++v)
    EXPECT_EQ(count(svg, "hsl(" + std::to_string(cute_dsl::runtime::detail::offset_hue(v)) + ","), 1) << v;
}

TEST(Svg, AliasingCellsShareAColour) {
  const std::string svg = layout_svg(Layout::parse("(2,2):(1,0)"));
  EXPECT_EQ(count(svg, "hsl(" + std::to_string(cute_dsl::runtime::detail::offset_hue(1)) + ","), 2);
  EXPECT_NE(cute_dsl::runtime::detail::offset_hue(0), cute_dsl::runtime::detail::offset_hue(1));
}

TEST(Svg, IsDeterministic) {
  const Layout l = Layout::parse("((2,2),(2,4)):((1,4),(2,8))");
  EXPECT_EQ(layout_svg(l), layout_svg(l));
}

}  // namespace
