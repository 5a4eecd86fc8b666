// Pictures of TiledMMAs: the text table's cells match the partitions, and the SVG has one cell
// per element of A, B and C.
#include <gtest/gtest.h>

#include <string>

#include "cute_dsl/runtime/mma_picture.hpp"

using namespace cute_dsl;

namespace {
std::size_t count(std::string const& s, std::string const& what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}
}  // namespace

TEST(Picture, Sm80TableRows) {
  auto mma = make_tiled_mma(MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>{}, make_layout(make_shape(Int<2>{}, Int<2>{}, Int<1>{})));
  auto grid = runtime::mma_grid(mma, MmaOperand::C);
  ASSERT_EQ(grid.rows, 32);
  ASSERT_EQ(grid.cols, 16);
  // From the PTX figure: (g, 2q) is lane 4g + q's c0; (g + 8, 2q + 1) its c3; atom (1, 1) is warp 3.
  EXPECT_EQ(grid.at(1, 2).thread, 5);
  EXPECT_EQ(grid.at(1, 2).value, 0);
  EXPECT_EQ(grid.at(9, 3).thread, 5);
  EXPECT_EQ(grid.at(9, 3).value, 3);
  EXPECT_EQ(grid.at(16 + 9, 8 + 3).thread, 96 + 5);
  for (auto const& c : grid.cells) EXPECT_EQ(c.holders, 1);
  std::string table = runtime::mma_table(mma, MmaOperand::C);
  EXPECT_NE(table.find("C (M x N)"), std::string::npos);
  EXPECT_EQ(count(table, "T"), 32u * 16u);
  // A is shared by the two atoms along N: every element held twice.
  auto ga = runtime::mma_grid(mma, MmaOperand::A);
  for (auto const& c : ga.cells) EXPECT_EQ(c.holders, 2);
  // Registers, not shared memory: a cell held twice names its lowest thread (warp 0 before warp 1).
  EXPECT_FALSE(ga.smem);
  EXPECT_EQ(ga.at(0, 0).thread, 0);
  std::string ta = runtime::mma_table(mma, MmaOperand::A);
  EXPECT_EQ(count(ta, "smem"), 0u);
  EXPECT_EQ(count(ta, "T"), 32u * 16u);
}

TEST(Picture, WgmmaSvg) {
  auto mma = make_tiled_mma(SM90_64xNx16_F32F16F16_RS<16>{});
  std::string svg = runtime::mma_svg(mma);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  // A 64x16 + B 16x16 + C 64x16 cells.
  EXPECT_EQ(count(svg, "<rect"), 64u * 16 + 16 * 16 + 64 * 16);
  EXPECT_EQ(count(svg, ">smem<"), 16u * 16u);  // B through the descriptor
  auto gc = runtime::mma_grid(mma, MmaOperand::C);
  EXPECT_EQ(gc.at(16 * 2 + 8 + 1, 8 + 2 * 3 + 1).thread, 64 + 4 * 1 + 3);  // warp 2, g = 1, q = 3
  EXPECT_EQ(gc.at(16 * 2 + 8 + 1, 8 + 2 * 3 + 1).value, 4 + 3);
}
