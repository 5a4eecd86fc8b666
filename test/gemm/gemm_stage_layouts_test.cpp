// The shared-memory layouts the Hopper GEMM's epilogue reads and writes, checked on the host
// against the addresses the hardware side assumes: the per-warp stage (stmatrix writes, 16-byte
// row reads) and the ring's source stage (TMA boxes of 64 x 64 with the 128-byte swizzle, read
// back with ldmatrix; f32: 32 x 32 boxes, read in pairs). Static where the layouts are.
#include <cute_dsl/kernels/gemm_epilogue.hpp>
#include <cute_dsl/kernels/gemm_sm90_configs.hpp>
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

// The source stage of element T: 128 / sizeof(T) rows x TileN columns -- the bytes of a 16-bit B
// stage (64 rows of 16-bit data, 32 of f32) -- as column blocks of 128 bytes x those rows (one TMA
// box each, rows x 128 bytes apart), the 128-byte swizzle of 16-byte chunks inside each block; its TMA view
// has one box per block and fills exactly the stage. Two adjacent columns (c, c + 1), c even, are
// adjacent bytes: one aligned pair read (the f32 C's 8-byte reads).
template <class T, int TileN>
void expect_source_stage() {
  constexpr int kBytes = int(sizeof(T)), kWide = 128 / kBytes, kChunk = 16 / kBytes;  // elements per row and per chunk
  using Source = GemmSm90Source<T, TileN>;
  constexpr typename Source::Stage stage{};
  static_assert(Source::kRows == kWide && Source::stage_bytes == 64u * TileN * 2u && Source::Atom::transaction_bytes == Source::stage_bytes,
                "GemmSm90Source: 128 / sizeof(T) rows x TileN columns, a 16-bit B stage's bytes");
  using Math = TmaBoxMath<typename Source::TmaStage, 1>;
  static_assert(Math::box_extents().crd[0] == kWide && Math::box_extents().crd[1] == kWide && Math::box_extents().crd[2] == 1,
                "GemmSm90Source: boxes of 128 bytes x the stage's rows");
  static_assert(Math::boxes_per_cta == TileN / kWide, "GemmSm90Source: one box per 128 bytes of columns");
  for (int r = 0; r < kWide; ++r)
    for (int c = 0; c < TileN; ++c) {
      const int byte = int(stage(r, c)) * kBytes;
      ASSERT_EQ(byte, (c / kWide) * (kWide * 128) + r * 128 + ((((c % kWide) / kChunk) ^ (r % 8)) * 16) + kBytes * (c % kChunk))
          << "element bytes " << kBytes << ", TileN " << TileN << " (" << r << ", " << c << ")";
      if (c % 2 == 1) ASSERT_EQ(byte, int(stage(r, c - 1)) * kBytes + kBytes) << "pair (" << r << ", " << c - 1 << ")";
    }
}

TEST(GemmStageLayouts, SourceStageIsSwizzledColumnBlocksOfTmaBoxes) {
  expect_source_stage<Half, 64>();
  expect_source_stage<Half, 128>();
  expect_source_stage<Half, 192>();
  expect_source_stage<Half, 256>();
}

// The f32 source stage (the plain GEMM's f32 C): 32 rows, 32 x 32 boxes 4 KiB apart.
TEST(GemmStageLayouts, F32SourceStageHoldsABStageOfSwizzledPairs) {
  expect_source_stage<float, 64>();
  expect_source_stage<float, 128>();
  expect_source_stage<float, 192>();
  expect_source_stage<float, 256>();
}

// The GEMM's A in boxes of 32 rows (gemm_sm90_box_rows_a): the TMA view cuts a stage's rows into
// TileM / 32 boxes that follow each other along the rows and in shared memory, covering exactly
// the bytes of the one-box view (the wgmma view is unchanged); a last row block loads the boxes
// that hold its rows.
template <int TileM>
void expect_a_in_row_boxes() {
  constexpr int kStages = 2, kBox = gemm_sm90_box_rows_a(TileM);
  using Boxed = GemmSm90Operand<Half, GmmaMajor::K, TileM, kStages, 1, kBox>;
  using Whole = GemmSm90Operand<Half, GmmaMajor::K, TileM, kStages>;
  using Math = typename Boxed::Atom::Math;
  static_assert(kBox == 32 && Boxed::box_rows == 32 && Whole::box_rows == TileM);
  static_assert(Math::boxes_per_cta == TileM / 32 && Math::box_extents().crd[0] == 64 && Math::box_extents().crd[1] == 32);
  static_assert(Math::box_smem_offset(1) == 32 * 64 && Math::box_coord_offset(1) == 32 && Math::step_mode() == 1);
  static_assert(Boxed::Atom::transaction_bytes == Whole::Atom::transaction_bytes && Boxed::Atom::transaction_bytes_of(1) == 32 * 128);
  static_assert(Boxed::boxes_for_rows(-5) == 0 && Boxed::boxes_for_rows(0) == 0 && Boxed::boxes_for_rows(1) == 1 &&
                Boxed::boxes_for_rows(32) == 1 && Boxed::boxes_for_rows(33) == 2 && Boxed::boxes_for_rows(TileM) == TileM / 32 &&
                Boxed::boxes_for_rows(100000) == TileM / 32);
  static_assert(Whole::boxes_for_rows(1) == 1 && Whole::boxes_for_rows(TileM + 1) == 1);
  constexpr auto boxed = typename Boxed::TmaRing{};
  constexpr auto whole = typename Whole::TmaRing{};
  for (int s = 0; s < kStages; ++s)
    for (int r = 0; r < TileM; ++r)
      for (int k = 0; k < 64; ++k)
        ASSERT_EQ(int(boxed(k, r, 0, s)), int(whole(k, r, 0, s))) << "stage " << s << " (" << k << ", " << r << ")";
}

TEST(GemmStageLayouts, OperandAInBoxesOf32RowsCoversTheOneBoxStage) {
  expect_a_in_row_boxes<64>();
  expect_a_in_row_boxes<128>();
  static_assert(gemm_sm90_box_rows_a(16) == 16, "a tile of fewer rows is one box");
}

}  // namespace
