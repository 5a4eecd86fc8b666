// The shared-memory layouts the Hopper GEMM's epilogue reads and writes, checked on the host
// against the addresses the hardware side assumes: the per-warp stage (stmatrix writes, 16-byte
// row reads) and the ring's source stage (TMA boxes of 64 x 64 with the 128-byte swizzle, read
// back with ldmatrix; f32: 32 x 32 boxes, read in pairs). Static where the layouts are.
#include <cute_dsl/kernels/gemm_epilogue.hpp>
#include <cute_dsl/kernels/gemm_sm90_layouts.hpp>
#include <gtest/gtest.h>

namespace {

using namespace cute_dsl;
using namespace cute_dsl::kernels;
using Half = unsigned short;  // any 16-bit element: the layouts depend on the size only

// The stage: row r's 16-byte chunk k at byte r * 128 + (k ^ (r % 8)) * 16 (the 128-byte swizzle),
// each chunk's 8 elements in order.
TEST(GemmStageLayouts, EpilogueStageIsTheSwizzledRowMajorBlock) {
  constexpr auto stage = gemm_stage_layout<Half>();
  static_assert(decltype(size(stage))::value == 16 * 64, "gemm_stage_layout: 16 x 64 elements");
  static_assert(int(stage(0, 0)) == 0 && int(stage(1, 0)) == 64 + 8 && int(stage(8, 8)) == 8 * 64 + 8,
                "gemm_stage_layout: static offsets stay static");
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 64; ++c)
      EXPECT_EQ(int(stage(r, c)) * 2, r * 128 + (((c / 8) ^ (r % 8)) * 16) + 2 * (c % 8)) << "(" << r << ", " << c << ")";
}

// The source stage: 64 rows x TileN columns as column blocks of 64 x 64 (one TMA box each, 8 KiB
// apart), the same swizzle inside each block; its TMA view has one (64 columns, 64 rows) box
// repeated TileN / 64 times and fills exactly the stage.
template <int TileN>
void expect_source_stage() {
  using Source = GemmSm90Source<Half, TileN>;
  constexpr typename Source::Stage stage{};
  static_assert(Source::stage_bytes == 64u * TileN * 2u && Source::Atom::transaction_bytes == Source::stage_bytes,
                "GemmSm90Source: a stage is 64 rows x TileN 16-bit columns");
  using Math = TmaBoxMath<typename Source::TmaStage, 1>;
  static_assert(Math::box_extents().crd[0] == 64 && Math::box_extents().crd[1] == 64 && Math::box_extents().crd[2] == 1,
                "GemmSm90Source: 64 x 64 boxes");
  static_assert(Math::boxes_per_cta == TileN / 64, "GemmSm90Source: one box per 64 columns");
  for (int r = 0; r < 64; ++r)
    for (int c = 0; c < TileN; ++c)
      ASSERT_EQ(int(stage(r, c)) * 2, (c / 64) * 8192 + r * 128 + ((((c % 64) / 8) ^ (r % 8)) * 16) + 2 * (c % 8))
          << "TileN " << TileN << " (" << r << ", " << c << ")";
}

TEST(GemmStageLayouts, SourceStageIsSwizzledColumnBlocksOfTmaBoxes) {
  expect_source_stage<64>();
  expect_source_stage<128>();
  expect_source_stage<192>();
  expect_source_stage<256>();
}

// The f32 source stage (the plain GEMM's f32 C): the same bytes as a 16-bit stage -- 32 rows x
// TileN columns, column blocks of 32 x 32 (one 128-byte-wide TMA box each, 4 KiB apart), the
// 128-byte swizzle of 16-byte chunks inside each block -- so a thread's column pair (c, c + 1),
// c even, is one aligned 8-byte read.
template <int TileN>
void expect_f32_source_stage() {
  using Source = GemmSm90Source<float, TileN>;
  constexpr typename Source::Stage stage{};
  static_assert(Source::kRows == 32 && Source::stage_bytes == GemmSm90Source<Half, TileN>::stage_bytes &&
                    Source::Atom::transaction_bytes == Source::stage_bytes,
                "GemmSm90Source<float>: 32 rows x TileN f32 columns, a B stage's bytes");
  using Math = TmaBoxMath<typename Source::TmaStage, 1>;
  static_assert(Math::box_extents().crd[0] == 32 && Math::box_extents().crd[1] == 32 && Math::box_extents().crd[2] == 1,
                "GemmSm90Source<float>: 32 x 32 boxes");
  static_assert(Math::boxes_per_cta == TileN / 32, "GemmSm90Source<float>: one box per 32 columns");
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < TileN; ++c) {
      const int byte = int(stage(r, c)) * 4;
      ASSERT_EQ(byte, (c / 32) * 4096 + r * 128 + ((((c % 32) / 4) ^ (r % 8)) * 16) + 4 * (c % 4))
          << "TileN " << TileN << " (" << r << ", " << c << ")";
      if (c % 2 == 1) ASSERT_EQ(byte, int(stage(r, c - 1)) * 4 + 4) << "pair (" << r << ", " << c - 1 << ")";
    }
}

TEST(GemmStageLayouts, F32SourceStageHoldsABStageOfSwizzledPairs) {
  expect_f32_source_stage<64>();
  expect_f32_source_stage<128>();
  expect_f32_source_stage<192>();
  expect_f32_source_stage<256>();
}

}  // namespace
