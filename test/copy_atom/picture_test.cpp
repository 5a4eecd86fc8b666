// Pictures of a TiledCopy: the text grids name, for each tile element, the thread and value
// that hold it on each side; the SVG has one labelled cell per element and side.
#include <gtest/gtest.h>

#include <string>

#include "cute_dsl/atom/copy_traits_sm75.hpp"
#include "cute_dsl/runtime/tiled_copy_picture.hpp"

using namespace cute_dsl;

namespace {
auto ldsm_x1() {
  return make_tiled_copy(Copy_Atom<SM75_U32x1_LDSM_N, unsigned short>{},
                         make_layout(make_shape(_8{}, _4{}), make_stride(_4{}, _1{})), make_layout(make_shape(_1{}, _2{})));
}
std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}
}  // namespace

// Source: row r is thread r's (values 0..7 along the row). Destination: (r, c) is thread
// 4r + c/2, value c%2 -- the ldmatrix fragment figure.
TEST(TiledCopyPicture, OwnerGridsOfLdmatrixX1) {
  using TC = decltype(ldsm_x1());
  auto src = runtime::copy_owner_grid<typename TC::ThrValSrc, typename TC::Tiler>();
  auto dst = runtime::copy_owner_grid<typename TC::ThrValDst, typename TC::Tiler>();
  ASSERT_EQ(src.rows, 8);
  ASSERT_EQ(src.cols, 8);
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) {
      EXPECT_EQ(src.at(r, c).thread, r) << r << "," << c;
      EXPECT_EQ(src.at(r, c).value, c);
      EXPECT_EQ(dst.at(r, c).thread, 4 * r + c / 2);
      EXPECT_EQ(dst.at(r, c).value, c % 2);
    }
}

TEST(TiledCopyPicture, TableText) {
  const std::string t = runtime::tiled_copy_table(ldsm_x1());
  EXPECT_EQ(t.rfind("source (thread, value)\n", 0), 0u) << t;
  EXPECT_NE(t.find("destination (thread, value)\n"), std::string::npos);
  // Row 1 of the destination: threads 4..7, two values each (cells as wide as "T31V1").
  EXPECT_NE(t.find(" 1  |  T4V0 |  T4V1 |  T5V0 |  T5V1 |  T6V0 |  T6V1 |  T7V0 |  T7V1 |"), std::string::npos) << t;
  // Row 1 of the source: thread 1's eight values.
  EXPECT_NE(t.find(" 1  | T1V0 | T1V1 | T1V2 | T1V3 | T1V4 | T1V5 | T1V6 | T1V7 |"), std::string::npos) << t;
}

TEST(TiledCopyPicture, Svg) {
  const std::string s = runtime::tiled_copy_svg(ldsm_x1());
  EXPECT_EQ(s.rfind("<?xml", 0), 0u);
  EXPECT_NE(s.find("</svg>"), std::string::npos);
  EXPECT_EQ(count(s, "<rect"), 1u + 2u * 64u);  // background + 64 cells per side
  EXPECT_EQ(count(s, ">T31<"), 2u);             // only in the destination (x1 rows come from threads 0..7)
}
