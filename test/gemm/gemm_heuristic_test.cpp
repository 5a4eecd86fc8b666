// The Hopper GEMM's choice of variant and split-K (kernels/gemm_sm90_heuristic.hpp), on the host:
// the compute model's waves and clusters, split-K's plans, and the stream model for decode.
#include <cute_dsl/kernels/gemm_sm90_heuristic.hpp>
#include <cute_dsl/kernels/gemm_tile_scheduler.hpp>
#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace cute_dsl;
using namespace cute_dsl::kernels;

TEST(GemmHeuristic, ClustersOnlyWithSeveralWaves) {
  EXPECT_EQ(gemm_sm90_heuristic({2048, 2048, 2048, 1}, 132).cluster_m, 1);  // 128 tiles of 128 x 256: one wave
  EXPECT_EQ(gemm_sm90_heuristic({4096, 4096, 4096, 1}, 132).cluster_m, 2);
  EXPECT_EQ(gemm_sm90_heuristic({4096, 4096, 4096, 1}, 132).tile_n, 256);
  // 256 tiles of 128 x 192 (2 waves) beat 384 of 128 x 128 (3 waves) and 192 of 128 x 256 (2 waves
  // of bigger tiles); no cluster for the narrower tiles.
  const GemmSm90Config narrow = gemm_sm90_heuristic({4096, 1536, 4096, 1}, 132);
  EXPECT_EQ(narrow.tile_n, 192);
  EXPECT_EQ(narrow.cluster_m, 1);
  // 21 waves of 128 x 192 against 16 of 128 x 256 -- where 128 x 256 in clusters of 2 does not
  // divide M and N (8192^3 itself takes it: WholeTilesOf128x256InClustersOf2BeatEdgeTiles).
  EXPECT_EQ(gemm_sm90_heuristic({8064, 8192, 8192, 1}, 132).tile_n, 192);
  EXPECT_EQ(gemm_sm90_heuristic({2048, 2048, 2048, 1}, 132).tile_n, 256);  // one wave against two
  EXPECT_EQ(gemm_sm90_heuristic({1024, 1536, 4096, 1}, 132).tile_n, 96);    // 64 tiles of 192: split-K's regime; 128 of 96 fill the wave
  // Rows off 128-byte lines (3000 bf16 = 6000 bytes): a wide tile with B multicast, 128 x 256,
  // 128 x 192 or 192 x 192 by the area of their cluster waves: 6000^2 takes 9 waves of 128 x 256,
  // 12 of 128 x 192, 8 of 192 x 192 (ties in area: 128 x 256); 3000^2 3, 3 and 2 (192 x 192);
  // 1796 x 6168 4 waves of 128 x 192 against 3 of 192 x 192 (0.75 of the area: 128 x 192). An
  // MN-major B only 128 x 256 (128 x 192's three 64-column blocks do not split over a cluster of
  // 2, the 192-row tile's consumers take 96 columns each); an epilogue tree or C through the ring
  // not 192 x 192 (not run with them).
  const GemmSm90Config misaligned = gemm_sm90_heuristic({3000, 3000, 3000, 1}, 132, {.rows_128b_aligned = false});
  EXPECT_EQ(misaligned.tile_m, 192);
  EXPECT_EQ(misaligned.tile_n, 192);
  EXPECT_EQ(misaligned.cluster_m, 2);
  // Below kGemmTile192MinK of K the 192-row tile is not chosen (its epilogue weighs more there).
  EXPECT_EQ(gemm_sm90_heuristic({3000, 3000, 1000, 1}, 132, {.rows_128b_aligned = false}).tile_m, 128);
  const GemmSm90Config misaligned_128 = gemm_sm90_heuristic({1796, 6168, 2776, 1}, 132, {.rows_128b_aligned = false});
  EXPECT_EQ(misaligned_128.tile_m, 128);
  EXPECT_EQ(misaligned_128.tile_n, 192);
  EXPECT_EQ(misaligned_128.cluster_m, 2);
  for (const GemmLaunchFacts facts : {GemmLaunchFacts{.rows_128b_aligned = false, .ring_c = true},
                                      GemmLaunchFacts{.rows_128b_aligned = false, .may_swap_ab = false, .fused = true}}) {
    const GemmSm90Config c = gemm_sm90_heuristic({3000, 3000, 3000, 1}, 132, facts);
    EXPECT_EQ(c.tile_m, 128);
    EXPECT_EQ(c.cluster_m, 2);
  }
  const GemmSm90Config misaligned_wide = gemm_sm90_heuristic({6000, 6000, 3000, 1}, 132, {.rows_128b_aligned = false});
  EXPECT_EQ(misaligned_wide.tile_n, 256);
  EXPECT_EQ(misaligned_wide.cluster_m, 2);
  const GemmSm90Config misaligned_mn = gemm_sm90_heuristic({3000, 3000, 3000, 1}, 132, {.major_b = GmmaMajor::MN, .rows_128b_aligned = false});
  EXPECT_EQ(misaligned_mn.tile_n, 256);
  EXPECT_EQ(misaligned_mn.cluster_m, 2);
  for (const GemmSm90Config c : {GemmSm90Config{192, 4, 2}, GemmSm90Config{192, 4, 2, false, 192}}) {
    EXPECT_FALSE(gemm_sm90_config_supports(c, GmmaMajor::MN));
    EXPECT_TRUE(gemm_sm90_config_supports(c, GmmaMajor::K, GmmaMajor::MN));
  }
  EXPECT_TRUE(gemm_sm90_config_supports({256, 4, 2}, GmmaMajor::MN));
  EXPECT_TRUE(gemm_sm90_config_supports({64, 8, 2}, GmmaMajor::MN));  // one 64-column block: the multicast slices it
  EXPECT_EQ(gemm_sm90_heuristic({3000, 3000, 3000, 1}, 132).cluster_m, 1);  // the same shape, aligned rows
  EXPECT_EQ(gemm_sm90_heuristic({20000, 64, 3000, 1}, 132, {.rows_128b_aligned = false}).tile_n, 64);  // narrow N stays narrow
}

// Split-K by the compute model (M > 64): only where the tiles leave SMs idle, into ranges of at
// least 4 k-blocks.
TEST(GemmHeuristic, SplitKWhereTilesLeaveSmsIdle) {
  // A huge K: 128-row tiles whose splits share the reduction (reduce_split), so the count is the
  // cap (1/s + 3 tiles read back / K); without sharing (64-row tiles) the count that minimises
  // 1/s + s x (partials read back) / K.
  const GemmSm90Config huge_k = gemm_sm90_heuristic({128, 128, 65536, 1}, 132);
  EXPECT_EQ(huge_k.tile_m, 128);
  EXPECT_EQ(huge_k.splits, 32);
  EXPECT_EQ(gemm_sm90_split_plan(4, 65536, 132, 32, 1.0, false).splits, 12);
  EXPECT_EQ(gemm_sm90_split_plan(4, 65536, 132, 32, 1.0, true).splits, 32);
  EXPECT_EQ(gemm_sm90_split_plan(4, 65536, 132, 32, 0.5, true).splits, 17);  // rows past M: the last split reads them
  EXPECT_TRUE(gemm_sm90_shares_split_reduction({128, 6, 1}));
  EXPECT_FALSE(gemm_sm90_shares_split_reduction({64, 12, 1, false, 64}));
  EXPECT_FALSE(gemm_sm90_shares_split_reduction({128, 6, 2, true}));
  EXPECT_FALSE(gemm_sm90_shares_split_reduction({16, 10, 1, false, 128, 0, true}));  // swapped: 8 values per thread
  EXPECT_FALSE(gemm_sm90_shares_split_reduction({32, 10, 1, false, 128, 0, true}));
  EXPECT_LE(gemm_sm90_heuristic({8192, 8192, 8192, 1}, 132).splits, 1);  // whole waves: no split
  EXPECT_EQ(gemm_sm90_heuristic({256, 1536, 4096, 1}, 132).splits, 1);  // 128 tiles of 64 x 48: more than half a wave
}

// The heuristic's choice at `s` (132 SMs) is a one-wave tile: 128 x `tile_n`, alone, unsplit.
void expect_one_wave_tile(GemmShape s, int tile_n) {
  const GemmSm90Config c = gemm_sm90_heuristic(s, 132);
  EXPECT_EQ(c.tile_m, 128) << s.m << "x" << s.n << "x" << s.k;
  EXPECT_EQ(c.tile_n, tile_n) << s.m << "x" << s.n << "x" << s.k;
  EXPECT_EQ(c.cluster_m, 1) << s.m << "x" << s.n << "x" << s.k;
  EXPECT_LE(c.splits, 1) << s.m << "x" << s.n << "x" << s.k;
}

// The 128 x 96 tile: one wave, more than half full, where 128 x 128 tiles leave SMs idle.
TEST(GemmHeuristic, Tile128x96FillsOneWave) {
  expect_one_wave_tile({1024, 1536, 4096, 1}, 96);  // 128 tiles against 96 of 128 x 128
  EXPECT_EQ(gemm_sm90_heuristic({256, 6144, 4096, 1}, 132).tile_n, 96);           // 2 x 64 tiles
  // Not over an MN-major B (64-column swizzle blocks), nor rows off 128-byte lines (line requests
  // per flop), nor past one wave (2048 x 3072: 352 tiles) or below half of one (256 x 3072: 64).
  EXPECT_NE(gemm_sm90_heuristic({1024, 1536, 4096, 1}, 132, {.major_b = GmmaMajor::MN}).tile_n, 96);
  EXPECT_NE(gemm_sm90_heuristic({1024, 1536, 4096, 1}, 132, {.rows_128b_aligned = false}).tile_n, 96);
  EXPECT_NE(gemm_sm90_heuristic({2048, 3072, 4096, 1}, 132).tile_n, 96);
  EXPECT_NE(gemm_sm90_heuristic({256, 3072, 4096, 1}, 132).tile_n, 96);
  // Nor where beta's C comes through the operand ring (the tile has no ring C path).
  EXPECT_NE(gemm_sm90_heuristic({1024, 1536, 4096, 1}, 132, {.ring_c = true}).tile_n, 96);
  // Nor for a fused epilogue tree (not run with one on a GPU).
  EXPECT_NE(gemm_sm90_heuristic({1024, 1536, 4096, 1}, 132, {.may_swap_ab = false, .fused = true}).tile_n, 96);
  // Nor for decode (the stream model's candidates leave it out).
  EXPECT_NE(gemm_sm90_heuristic({64, 12288, 4096, 1}, 132, {.may_swap_ab = false}).tile_n, 96);
  EXPECT_FALSE(gemm_sm90_config_supports({96, 7, 1}, GmmaMajor::MN));
  EXPECT_TRUE(gemm_sm90_config_supports({96, 7, 1}, GmmaMajor::K, GmmaMajor::MN));
}

// The 128 x 160 and 128 x 224 tiles: one wave, more than half full, that holds more tiles than
// the 192- and 256-column tiles' (the 36 one-wave shapes of session 21, H200 2026-11-28).
TEST(GemmHeuristic, Tiles128x160And128x224FillOneWave) {
  expect_one_wave_tile({534, 3584, 8192, 1}, 160);  // 115 tiles against 95 of 128 x 192
  expect_one_wave_tile({778, 2816, 4096, 1}, 160);  // 126 tiles; 128 x 128 needs two waves
  expect_one_wave_tile({330, 9472, 8192, 1}, 224);  // 129 tiles against 111 of 128 x 256
  expect_one_wave_tile({599, 5632, 1024, 1}, 224);  // 130 tiles against 110
  // Where they would need a second wave, the old choices stay (712 x 3584: 138 tiles of 160;
  // 998 x 3840: 144 of 224), and where a narrower tile fills one wave it wins (630 x 2560: 100
  // tiles of 128 x 128 against 80 of 160).
  EXPECT_EQ(gemm_sm90_heuristic({712, 3584, 8192, 1}, 132).tile_n, 192);
  EXPECT_EQ(gemm_sm90_heuristic({998, 3840, 8192, 1}, 132).tile_n, 256);
  EXPECT_EQ(gemm_sm90_heuristic({630, 2560, 2048, 1}, 132).tile_n, 128);
  // They refine a wider tile's wave, never a narrower tile's two (6638 x 304: 260 tiles of 128 x 64
  // ran faster than 104 of 128 x 160).
  EXPECT_EQ(gemm_sm90_heuristic({6638, 304, 256, 1}, 132).tile_n, 64);
  // The 128 x 96 tile's rule otherwise: K-major B, rows on 128-byte lines, C not through the ring,
  // no fused tree, not for decode.
  for (const GemmShape s : {GemmShape{534, 3584, 8192, 1}, GemmShape{330, 9472, 8192, 1}}) {
    EXPECT_EQ(gemm_sm90_heuristic(s, 132, {.major_b = GmmaMajor::MN}).tile_n % 64, 0);
    EXPECT_EQ(gemm_sm90_heuristic(s, 132, {.rows_128b_aligned = false}).tile_n % 64, 0);
    EXPECT_EQ(gemm_sm90_heuristic(s, 132, {.ring_c = true}).tile_n % 64, 0);
    EXPECT_EQ(gemm_sm90_heuristic(s, 132, {.may_swap_ab = false, .fused = true}).tile_n % 64, 0);
  }
  EXPECT_EQ(gemm_sm90_heuristic({64, 9472, 4096, 1}, 132, {.may_swap_ab = false}).tile_n % 64, 0);
  for (const GemmSm90Config c : {GemmSm90Config{160, 5, 1}, GemmSm90Config{224, 4, 1}}) {
    EXPECT_FALSE(gemm_sm90_config_supports(c, GmmaMajor::MN));
    EXPECT_TRUE(gemm_sm90_config_supports(c, GmmaMajor::K, GmmaMajor::MN));
  }
}

// The 64 x 48 tile: where 64 x 64 tiles leave SMs idle and each CTA's stream is the bound.
TEST(GemmHeuristic, NarrowTileFillsIdleSms) {
  // 256 x 1536: 128 tiles of 64 x 48 against 96 of 64 x 64 on 132 SMs.
  const GemmSm90Config prefill = gemm_sm90_heuristic({256, 1536, 4096, 1}, 132);
  EXPECT_EQ(prefill.tile_m, 64);
  EXPECT_EQ(prefill.tile_n, 48);
  EXPECT_EQ(gemm_sm90_heuristic({128, 768, 4096, 1}, 132).tile_n, 48);
  // Not for MN-major B (each consumer's 24 columns are not a 64-column block).
  EXPECT_NE(gemm_sm90_heuristic({256, 1536, 4096, 1}, 132, {.major_b = GmmaMajor::MN}).tile_n, 48);
  // Full waves of wide tiles keep them.
  EXPECT_EQ(gemm_sm90_heuristic({4096, 4096, 4096, 1}, 132).tile_n, 256);
  EXPECT_EQ(gemm_sm90_heuristic({1024, 1536, 4096, 1}, 132).tile_m, 128);
  // Decode: where the 64 x 64 tiles would be split (each CTA's ring the bound), the narrow tile;
  // where they run whole (the HBM the bound: 32 x 4096 x 4096), not.
  const auto no_swap = [](GemmShape s) { return gemm_sm90_heuristic(s, 132, {.may_swap_ab = false}); };
  EXPECT_EQ(no_swap({64, 1536, 4096, 1}).tile_n, 48);
  EXPECT_GT(no_swap({64, 1536, 4096, 1}).splits, 1);
  EXPECT_EQ(no_swap({32, 4096, 4096, 1}).tile_n, 64);
  EXPECT_EQ(no_swap({64, 6144, 4096, 1}).tile_n, 64);
}

// Rows past M cost their fill (the last row block's TMA writes zeros), and 64-row tiles are
// taken in one wave only.
TEST(GemmHeuristic, RowsPastMAndSingleWave64RowTiles) {
  // 320 rows: five 64-row blocks fill 120 SMs with 64 x 128 tiles (64 x 64: 240 tiles, two waves).
  const GemmSm90Config five_blocks = gemm_sm90_heuristic({320, 3072, 4096, 1}, 132);
  EXPECT_EQ(five_blocks.tile_m, 64);
  EXPECT_EQ(five_blocks.tile_n, 128);
  // 160 rows: the second block of 128 x 64 tiles loads one 32-row box of A (no zeros), and its
  // 128 tiles fill more SMs than 96 of 64 x 128 (H200: 23.0-23.3 us against 24.3-24.4).
  const GemmSm90Config two_blocks = gemm_sm90_heuristic({160, 4096, 4096, 1}, 132);
  EXPECT_EQ(two_blocks.tile_m, 128);
  EXPECT_EQ(two_blocks.tile_n, 64);
  // A few rows past whole blocks no longer push a wide tile into splits (the fill was priced at
  // up to 127 rows, per split): 129 x 8192 x 8192 runs 128 x 128 tiles whole, not 128 x 256 tiles
  // split 2 ways in clusters.
  const GemmSm90Config whole = gemm_sm90_heuristic({129, 8192, 8192, 1}, 132);
  EXPECT_EQ(whole.tile_n, 128);
  EXPECT_EQ(whole.splits, 1);
  // Over several waves 64-row tiles are not taken (320 x 12288: 480 tiles of 64 x 128, 960 of
  // 64 x 64; 160 x 8192: 384 tiles of 64 x 64).
  EXPECT_EQ(gemm_sm90_heuristic({320, 12288, 4096, 1}, 132).tile_m, 128);
  EXPECT_EQ(gemm_sm90_heuristic({160, 8192, 4096, 1}, 132).tile_m, 128);
  // 200 rows over K = 8192: a 128 x 64 tile's last row block is 56 rows of 128; 128 x 128 tiles
  // split 2 ways (clusters of 2) fill the SMs with half the fill per split instead.
  const GemmSm90Config split = gemm_sm90_heuristic({200, 4096, 8192, 1}, 132);
  EXPECT_EQ(split.tile_n, 128);
  EXPECT_EQ(split.tile_m, 128);
  EXPECT_EQ(split.splits, 2);
  // Whole 128-row blocks pay no fill: unchanged.
  EXPECT_EQ(gemm_sm90_heuristic({256, 1536, 4096, 1}, 132).tile_n, 48);
  EXPECT_FALSE(gemm_sm90_heuristic({256, 1536, 4096, 1}, 132).swap_ab);
}

// The swapped 128 x 48 tile takes M in steps of 48 where a 64-row tile would be chosen: 129 rows
// in three of its column blocks (144) instead of three 64-row blocks (192, the last holding one
// row), split over the kernel's view. Not where A and B may not be swapped, not in place of a
// 128-row tile, and not over more than one wave.
TEST(GemmHeuristic, SwappedTile48StepsMBy48InPlaceOf64RowTiles) {
  const GemmSm90Config c = gemm_sm90_heuristic({129, 1024, 8192, 1}, 132);
  EXPECT_TRUE(c.swap_ab);
  EXPECT_EQ(c.tile_m, 128);
  EXPECT_EQ(c.tile_n, 48);
  EXPECT_EQ(c.cluster_m, 1);
  EXPECT_EQ(c.splits, gemm_sm90_split_k({129, 1024, 8192, 1}, c, 132));
  EXPECT_GT(c.splits, 1);  // 24 tiles: the stream model's plan fills the SMs
  EXPECT_EQ(gemm_sm90_heuristic({288, 1024, 8192, 1}, 132).swap_ab, true);  // 6 column blocks of 48, exactly
  const GemmSm90Config unswapped = gemm_sm90_heuristic({129, 1024, 8192, 1}, 132, {.may_swap_ab = false});
  EXPECT_FALSE(unswapped.swap_ab);
  EXPECT_EQ(unswapped.tile_m, 64);
  EXPECT_FALSE(gemm_sm90_heuristic({1024, 1024, 8192, 1}, 132).swap_ab);   // 128-row tiles
  EXPECT_FALSE(gemm_sm90_heuristic({320, 12288, 4096, 1}, 132).swap_ab);  // several waves
  // Not where it would split fewer ways than the 64-row tile (64 x 128 split 3 ways; swapped: 2).
  const GemmSm90Config fewer = gemm_sm90_heuristic({170, 1472, 9288, 1}, 132);
  EXPECT_FALSE(fewer.swap_ab);
  EXPECT_EQ(fewer.tile_m, 64);
  EXPECT_EQ(fewer.splits, 3);
  // It is a compiled variant of the launcher's table.
  bool listed = false;
  for (const GemmSm90Config& v : kGemmSm90Configs) listed |= v.swap_ab && v.tile_n == 48 && v.tile_m == 128 && v.stages == c.stages;
  EXPECT_TRUE(listed);
}

// Short K over 2..16 waves of 128 x 128 tiles: that tile, its fixed costs per tile measured lower
// than the wider tiles'. Not at K above 1536, not in one wave, not over more than 16 waves.
TEST(GemmHeuristic, ShortKOverAFewWavesTakes128x128Tiles) {
  EXPECT_TRUE(gemm_sm90_short_k_waves(512, 2 * 132, 132));
  EXPECT_TRUE(gemm_sm90_short_k_waves(1536, 16 * 132, 132));
  EXPECT_FALSE(gemm_sm90_short_k_waves(1537, 4 * 132, 132));
  EXPECT_FALSE(gemm_sm90_short_k_waves(512, 2 * 132 - 1, 132));
  EXPECT_FALSE(gemm_sm90_short_k_waves(512, 16 * 132 + 1, 132));
  for (const GemmShape s : {GemmShape{2494, 4352, 512, 1}, GemmShape{1951, 8128, 1088, 1}, GemmShape{11332, 2888, 256, 1}}) {
    const GemmSm90Config c = gemm_sm90_heuristic(s, 132);
    EXPECT_EQ(c.tile_m, 128) << s.m << "x" << s.n << "x" << s.k;
    EXPECT_EQ(c.tile_n, 128) << s.m << "x" << s.n << "x" << s.k;
    EXPECT_EQ(c.cluster_m, 1) << s.m << "x" << s.n << "x" << s.k;
  }
  EXPECT_NE(gemm_sm90_heuristic({240, 28672, 2048, 1}, 132).tile_n, 128);  // K = 2048
  EXPECT_NE(gemm_sm90_heuristic({8192, 8192, 1024, 1}, 132).tile_n, 128);  // 31 waves
  EXPECT_NE(gemm_sm90_heuristic({1024, 1536, 1024, 1}, 132).tile_n, 128);  // one wave: 128 x 96
}

// The launcher dispatches on gemm_sm90_variant_key: one key per compiled variant, and none for a
// configuration it does not compile (tile_n 49 with 4 stages once encoded like 48 with 14).
TEST(GemmSm90Config, VariantKeysAreDistinctAndRefuseWhatIsOutOfRange) {
  for (int i = 0; i < kGemmSm90ConfigCount; ++i) {
    EXPECT_GT(gemm_sm90_variant_key(kGemmSm90Configs[i]), 0) << i;
    for (int j = 0; j < i; ++j) EXPECT_NE(gemm_sm90_variant_key(kGemmSm90Configs[i]), gemm_sm90_variant_key(kGemmSm90Configs[j])) << i << " " << j;
  }
  const GemmSm90Config narrow{48, 14, 1, false, 64};
  for (const GemmSm90Config other : {GemmSm90Config{49, 4, 1, false, 64}, GemmSm90Config{48, 13, 11, false, 64}, GemmSm90Config{48, 14, 1, true, 64}})
    EXPECT_NE(gemm_sm90_variant_key(other), gemm_sm90_variant_key(narrow));
  EXPECT_EQ(gemm_sm90_variant_key({48, 140, 1, false, 64}), -1);
  EXPECT_EQ(gemm_sm90_variant_key({48, 14, 10, false, 64}), -1);
  EXPECT_EQ(gemm_sm90_variant_key({48, 14, 0, false, 64}), -1);
  static_assert(gemm_sm90_variant_key({256, 4, 2}) > 0, "a compile-time key: usable as a case label");
}

// Tail split-K: only the last, partial wave's tiles are split.
TEST(GemmHeuristic, TailSplitPlan) {
  // 144 tiles on 132 slots: 132 whole, the 12 left split 3 ways (1/3 + 3 x 480 / 4096 < 0.9).
  const GemmSplitPlan tail = gemm_sm90_split_plan(144, 4096, 132);
  EXPECT_EQ(tail.splits, 3);
  EXPECT_EQ(tail.split_from, 132);
  EXPECT_EQ(gemm_sm90_split_plan(144, 4096, 132, 2).splits, 2);  // the caller's bound
  EXPECT_EQ(gemm_sm90_split_plan(144, 2048, 132).splits, 1);     // K too short to pay the read-back
  EXPECT_EQ(gemm_sm90_split_plan(132, 4096, 132).splits, 1);     // whole waves
  EXPECT_EQ(gemm_sm90_split_plan(200, 4096, 132).splits, 1);     // the last wave more than half full
  EXPECT_EQ(gemm_sm90_split_plan(68, 1024, 66).splits, 1);       // short K: the read-back eats the gain
  const GemmSplitPlan few = gemm_sm90_split_plan(16, 4096, 132);  // few tiles: every one split
  EXPECT_EQ(few.splits, 3);
  EXPECT_EQ(few.split_from, 0);
  // The scheduler's units: 132 whole tiles, then 12 x 3 (tile, split) pairs in tile order.
  GemmTileScheduler<128, 128, 1> scheduler(128 * 12, 128 * 12, 1);  // 144 tiles
  scheduler.split_from = 132;
  EXPECT_EQ(scheduler.units(3, 32), 132 + 12 * 3);
  const GemmWork whole = scheduler.work(131, 0, 3, 32);
  EXPECT_EQ(whole.splits, 1);
  EXPECT_EQ(whole.k_end - whole.k_begin, 32);
  const GemmWork last = scheduler.work(132 + 12 * 3 - 1, 0, 3, 32);
  EXPECT_EQ(last.splits, 3);
  EXPECT_EQ(last.split, 2);
  EXPECT_EQ(last.tile_index, 11);
  EXPECT_EQ(last.k_begin, 22);  // 32 k-blocks: 11, 11, 10
  EXPECT_EQ(last.k_end, 32);
}

// The 4-norm that combines the stream model's bounds.
TEST(GemmHeuristic, Norm4) {
  EXPECT_DOUBLE_EQ(gemm_sm90_norm4(3, 0), 3);
  EXPECT_DOUBLE_EQ(gemm_sm90_norm4(0, 0), 0);
  EXPECT_NEAR(gemm_sm90_norm4(2, 2), 2 * std::pow(2.0, 0.25), 1e-12);
  EXPECT_NEAR(gemm_sm90_norm4(1, 2), std::pow(17.0, 0.25), 1e-12);
}

// The stream model's costs, each visible on its own.
TEST(GemmHeuristic, StreamModelCosts) {
  const GemmSm90Config m64{64, 12, 1, false, 64}, wide_m64{128, 8, 1, false, 64}, tall{64, 8, 1, false, 128};
  // HBM: 1 x 28672 x 4096 moves 235 MB; no choice beats the HBM's rate.
  const GemmShape wide{1, 28672, 4096, 1};
  const double hbm_us = (28672.0 * 4096 + 4096 + 28672) * 2 / GemmStreamModel::kHbmBytesPerUs;
  for (const GemmSm90Config& c : kGemmSm90Configs) EXPECT_GE(gemm_sm90_stream_time(wide, c, 1, 132), hbm_us);
  // Fill: a 128-row tile writes 127 rows of zeros per k-block at M = 1 (measured slowest); at
  // M = 64 the 64-row tile fills nothing.
  EXPECT_GT(gemm_sm90_stream_time(wide, tall, 1, 132), gemm_sm90_stream_time(wide, m64, 1, 132));
  EXPECT_LT(gemm_sm90_stream_time({64, 4096, 4096, 1}, m64, 1, 132), gemm_sm90_stream_time({1, 4096, 4096, 1}, m64, 1, 132));
  // Ring: 24 CTAs of 64 x 64 at 1 x 1536 x 4096 leave the HBM mostly idle; the 64 x 128 tile's
  // longer stages do not make up for half as many CTAs.
  const GemmShape narrow{1, 1536, 4096, 1};
  EXPECT_LT(gemm_sm90_stream_time(narrow, m64, 1, 132), gemm_sm90_stream_time(narrow, wide_m64, 1, 132));
  // A split shortens each CTA's stream and costs a fixed amount plus its read-back.
  EXPECT_LT(gemm_sm90_stream_time(narrow, m64, 4, 132), gemm_sm90_stream_time(narrow, m64, 1, 132));
  EXPECT_GT(gemm_sm90_stream_time({1, 1536, 512, 1}, m64, 2, 132), gemm_sm90_stream_time({1, 1536, 512, 1}, m64, 1, 132));
}

// Decode (M <= 64) by the stream model: the choices it makes on the probed shapes, and where the
// compute model went wrong. (M <= 16 runs swapped where it may: these ask as a fused GEMM or an
// MN-major A would, may_swap_ab = false, which the stream model decides.)
TEST(GemmHeuristic, DecodeByStreamModel) {
  auto gemm_sm90_heuristic = [](GemmShape s, int sm_count, GmmaMajor major_b = GmmaMajor::K) {
    return kernels::gemm_sm90_heuristic(s, sm_count, {.major_b = major_b, .may_swap_ab = false});
  };
  // The compute model put 1 x 6144 x 4096 on 128 x 256 tiles split 5 ways (54 us on an H100;
  // 30 us in 64-row tiles whole): every 64-row candidate is better there.
  for (const GemmShape s : {GemmShape{1, 6144, 4096, 1}, GemmShape{1, 3072, 4096, 1}, GemmShape{1, 11008, 4096, 1}}) {
    const GemmSm90Config c = gemm_sm90_heuristic(s, 132);
    EXPECT_EQ(c.tile_m, 64) << s.n;
    EXPECT_LE(c.splits, 2) << s.n;
  }
  // 64 tiles of 64 x 64 at M = 64 stream as fast whole (21.7-22.1 us against 24.4-24.5 split 2
  // ways). (At M = 1 the split was 5% faster, 23.8 against 25.0-25.3; the model keeps them whole.)
  EXPECT_EQ(gemm_sm90_heuristic({64, 4096, 4096, 1}, 132).splits, 1);
  // 24 tiles of 64 x 64 at M = 64: each CTA's ring is the bound; split (3 ways: 14.9 us against
  // 21.4 whole).
  EXPECT_GE(gemm_sm90_heuristic({64, 1536, 4096, 1}, 132).splits, 3);
  // Wide N: 64-row tiles (the GPU tests' skinny case relies on it).
  EXPECT_EQ(gemm_sm90_heuristic({64, 8192, 8192, 1}, 132).tile_m, 64);
  EXPECT_EQ(gemm_sm90_heuristic({1, 28672, 4096, 1}, 132).tile_m, 64);
  // A long K over the same 64 tiles: the split pays (2 x 4096 x 11008: 47.2 us split 2 ways, 55.8
  // whole, H100 2026-11-27).
  EXPECT_GT(gemm_sm90_heuristic({2, 4096, 11008, 1}, 132).splits, 1);
  // 24 tiles: split, but short K keeps them whole (a split costs more than the stream it saves).
  EXPECT_GT(gemm_sm90_heuristic({1, 1536, 4096, 1}, 132).splits, 1);
  EXPECT_EQ(gemm_sm90_heuristic({1, 1536, 1024, 1}, 132).splits, 1);
  EXPECT_EQ(gemm_sm90_heuristic({64, 1000, 520, 1}, 132).splits, 1);
  // MN-major B: the 64 x 64 tile cannot split B at 32 columns; the model picks among the others.
  for (const GemmShape s : {GemmShape{1, 4096, 4096, 1}, GemmShape{64, 8192, 8192, 1}, GemmShape{7, 333, 4444, 3}})
    EXPECT_TRUE(gemm_sm90_config_supports(gemm_sm90_heuristic(s, 132, GmmaMajor::MN), GmmaMajor::MN));
  // A 128 x 256 tile at 1 x 4096 x 4096 (16 tiles): split 2-4 ways. Measured on an H100 with the
  // split capped at 1, 2, 4, 8: 47.2, 42.0, 42.7, 56.6 us (the compute model split it 8 ways).
  const int wide_splits = gemm_sm90_split_k({1, 4096, 4096, 1}, {256, 4, 1}, 132);
  EXPECT_GE(wide_splits, 2);
  EXPECT_LE(wide_splits, 4);
}

// Decode with every row of A in one 16-column tile runs swapped (swap_ab: D^T = B A^T), split by
// the stream model over the kernel's N x M view, and up to 32 rows where N is wide enough; more
// rows, or a GEMM that may not swap, do not.
TEST(GemmHeuristic, FewRowsRunSwapped) {
  for (const GemmShape s : {GemmShape{1, 4096, 4096, 1}, GemmShape{16, 1536, 4096, 1}, GemmShape{1, 28672, 4096, 1}, GemmShape{7, 333, 4444, 3}}) {
    const GemmSm90Config c = gemm_sm90_heuristic(s, 132);
    EXPECT_TRUE(c.swap_ab) << s.m << " x " << s.n;
    EXPECT_EQ(c.tile_n, 16) << s.m << " x " << s.n;
    EXPECT_EQ(c.splits, gemm_sm90_plan_splits(s, c, 132).splits);
    EXPECT_FALSE(gemm_sm90_heuristic(s, 132, {.may_swap_ab = false}).swap_ab);
  }
  // 17..32 rows: the 32-column swapped tile, where its tiles split at most 4 ways fill more than
  // half of the SMs (N > 2048 on 132 SMs); fewer columns keep the stream model's 64-row tiles.
  for (const GemmShape s : {GemmShape{17, 4096, 4096, 1}, GemmShape{32, 28672, 2048, 1}, GemmShape{24, 1100, 8192, 2},
                            GemmShape{17, 3072, 4096, 1}}) {
    const GemmSm90Config c = gemm_sm90_heuristic(s, 132);
    EXPECT_TRUE(c.swap_ab) << s.m << " x " << s.n << " x " << s.l;
    EXPECT_EQ(c.tile_n, 32) << s.m << " x " << s.n;
    EXPECT_EQ(c.splits, gemm_sm90_plan_splits(s, c, 132).splits);
    EXPECT_FALSE(gemm_sm90_heuristic(s, 132, {.may_swap_ab = false}).swap_ab);
  }
  EXPECT_FALSE(gemm_sm90_heuristic({17, 2048, 4096, 1}, 132).swap_ab);
  EXPECT_FALSE(gemm_sm90_heuristic({32, 1536, 14336, 1}, 132).swap_ab);
  EXPECT_FALSE(gemm_sm90_heuristic({33, 4096, 4096, 1}, 132).swap_ab);
  EXPECT_FALSE(gemm_sm90_heuristic({64, 4096, 4096, 1}, 132).swap_ab);
  // The counts that measured fastest on an H100 (bench/results/gemm_swapped_splits_h100_2026-11-27.txt):
  // B's 1536 rows (12 tiles) split 4 ways (13.7 us, 14.0-14.1 at the 11 of the tile-time model;
  // 14.2 whole on an H200), 6144 whole (28.5-28.8 us, 30.6-30.9 split 2 ways); 224 tiles of 28672
  // rows fill more than a wave: whole.
  EXPECT_EQ(gemm_sm90_heuristic({1, 1536, 4096, 1}, 132).splits, 4);
  EXPECT_LE(gemm_sm90_heuristic({1, 28672, 4096, 1}, 132).splits, 1);
  EXPECT_EQ(gemm_sm90_heuristic({16, 1536, 4096, 1}, 132).splits, 4);
  EXPECT_LE(gemm_sm90_heuristic({1, 6144, 4096, 1}, 132).splits, 1);
  EXPECT_LE(gemm_sm90_heuristic({16, 6144, 4096, 1}, 132).splits, 1);
  // 4096 rows (32 tiles) whole too: their rings already ask more than the HBM's 2.6 TB/s (22.3-22.6
  // us whole against 23.2-23.9 split 4 ways, H100 2026-11-28; bench/results/gemm_decode_hbm_rate_h100_2026-11-28.txt).
  EXPECT_LE(gemm_sm90_heuristic({1, 4096, 4096, 1}, 132).splits, 1);
  EXPECT_LE(gemm_sm90_heuristic({16, 4096, 4096, 1}, 132).splits, 1);
  // The plan of a swapped config is the plan of the kernel's view (what the launcher asks).
  const GemmSm90Config swapped{16, 10, 1, false, 128, 0, true}, view{16, 10, 1, false, 128};
  EXPECT_EQ(gemm_sm90_plan_splits({1, 1536, 4096, 1}, swapped, 132).splits, gemm_sm90_plan_splits({1536, 1, 4096, 1}, view, 132).splits);
  // Swapped variants read A as their B: K-major A only.
  EXPECT_FALSE(gemm_sm90_config_supports(swapped, GmmaMajor::K, GmmaMajor::MN));
  EXPECT_TRUE(gemm_sm90_config_supports(swapped, GmmaMajor::MN, GmmaMajor::K));
}

// A few tiles split over a huge K run in clusters of 2 (B multicast: each split streams a long K
// range through L2), where there are two row blocks to pair and each split keeps >= 4096 of K
// (bench/results/gemm_huge_k_clusters_h100_2026-11-27.txt: 1024 x 1024 x 32768 571 -> 631 TFLOP/s).
TEST(GemmHeuristic, HugeKSplitsRunInClustersOfTwo) {
  for (const GemmShape s : {GemmShape{1024, 1024, 32768, 1}, GemmShape{256, 256, 131072, 1}, GemmShape{512, 1024, 32768, 1}}) {
    const GemmSm90Config c = gemm_sm90_heuristic(s, 132);
    EXPECT_EQ(c.cluster_m, 2) << s.m << " x " << s.n << " x " << s.k;
    EXPECT_GT(c.splits, 1) << s.m << " x " << s.n << " x " << s.k;
    EXPECT_GE(s.k / c.splits, kGemmClusteredSplitMinK);
  }
  EXPECT_EQ(gemm_sm90_heuristic({128, 128, 65536, 1}, 132).cluster_m, 1);   // one row block: no pair
  EXPECT_EQ(gemm_sm90_heuristic({2048, 1024, 16384, 1}, 132).cluster_m, 1);  // not split
  EXPECT_EQ(gemm_sm90_heuristic({256, 4096, 4096, 1}, 132).cluster_m, 1);    // splits shorter than 4096
}

// Shorter splits (32..63 k-blocks each) pair up in clusters of 2 too, where the row blocks pair
// exactly and N spans 4 or more tiles (bench/results/gemm_session26_h200_2026-11-29.txt).
TEST(GemmHeuristic, PairedRowBlocksClusterShorterSplits) {
  for (const GemmShape s : {GemmShape{486, 960, 15272, 1}, GemmShape{129, 1992, 13176, 1}}) {
    const GemmSm90Config c = gemm_sm90_heuristic(s, 132);
    EXPECT_EQ(c.cluster_m, 2) << s.m << " x " << s.n << " x " << s.k;
    EXPECT_GT(c.splits, 1) << s.m << " x " << s.n << " x " << s.k;
    EXPECT_LT(s.k / c.splits, kGemmClusteredSplitMinK) << s.m << " x " << s.n << " x " << s.k;
    EXPECT_GE(s.k / c.splits, kGemmClusteredSplitMinKPaired) << s.m << " x " << s.n << " x " << s.k;
  }
  const GemmSm90Config odd = gemm_sm90_heuristic({261, 1800, 15824, 1}, 132);  // 3 row blocks
  EXPECT_EQ(odd.cluster_m, 1);
  EXPECT_LT(15824 / odd.splits, kGemmClusteredSplitMinK);
  const GemmSm90Config narrow = gemm_sm90_heuristic({1698, 368, 9120, 1}, 132);  // 3 column tiles
  EXPECT_EQ(narrow.cluster_m, 1);
  EXPECT_GT(narrow.splits, 1);
}

// The GPU test's 7-way split (DecodeSplitsMatchTheReference): a cap of 7 is taken whole.
TEST(GemmHeuristic, DecodeSplitCapIsTaken) {
  EXPECT_EQ(gemm_sm90_plan_splits({1, 64, 65536, 1}, {64, 12, 1, false, 64}, 132, 7).splits, 7);
  EXPECT_EQ(gemm_sm90_plan_splits({1, 64, 65536, 1}, {64, 12, 1, false, 64}, 132, 7).split_from, 0);
}

// The launcher plans the split again with the chosen count as its cap: it must launch exactly the
// split the heuristic chose, for decode and for the compute model alike.
TEST(GemmHeuristic, LauncherKeepsTheChosenSplit) {
  for (int m : {1, 3, 16, 64, 65, 128, 1000})
    for (int n : {64, 1000, 1536, 4096, 28672})
      for (int k : {64, 520, 4096, 65536}) {
        const GemmShape s{m, n, k, 1};
        const GemmSm90Config c = gemm_sm90_heuristic(s, 132);
        const int cluster = c.cluster_m > 0 ? c.cluster_m : 1;
        EXPECT_EQ(gemm_sm90_plan_splits(s, c, 132 / cluster * cluster, c.splits > 1 ? c.splits : 1).splits, c.splits > 1 ? c.splits : 1)
            << m << " x " << n << " x " << k;
      }
}

// Stream-K's plan: the tail's k-blocks over every cluster, ranges of at least 4 k-blocks; none
// where the waves are full or each range would hold a whole tile anyway.
TEST(GemmHeuristic, StreamKPlanEvensOutTheTail) {
  const GemmSplitPlan all = gemm_sm90_stream_plan(96, 4096, 132);  // 256 x 1536 in 64 x 64 tiles
  EXPECT_EQ(all.split_from, 0);
  EXPECT_EQ(all.stream_ranges, 132);
  EXPECT_EQ(all.splits, (GemmStreamK{96 * 64, 132, 64}.pieces_per_tile()));
  EXPECT_EQ(all.splits, 3);  // ranges of 46-47 k-blocks cut a 64-block tile at most twice
  const GemmSplitPlan tail = gemm_sm90_stream_plan(144, 3000, 66);  // 3000^3 in 256 x 256 cluster tiles
  EXPECT_EQ(tail.split_from, 132);
  EXPECT_EQ(tail.stream_ranges, 66);
  EXPECT_EQ(gemm_sm90_stream_plan(132, 4096, 132).stream_ranges, 0);  // whole waves
  EXPECT_EQ(gemm_sm90_stream_plan(130, 256, 132).stream_ranges, 0);   // 4 k-blocks a tile: a range per tile at best
  EXPECT_EQ(gemm_sm90_stream_plan(10, 256, 132).stream_ranges, 0);    // 40 k-blocks make 10 ranges: one per tile
  EXPECT_EQ(gemm_sm90_stream_plan(10, 1024, 132).stream_ranges, 40);  // 160 k-blocks: 40 ranges of 4
}

// The rows past M that a last row block's TMA boxes of A hold: up to the next 32-row box (K-major
// A), 64-row box (MN-major), none where the block is whole.
TEST(GemmHeuristic, FillRowsStopAtTheNextBoxOfA) {
  EXPECT_EQ(gemm_sm90_fill_rows(129, 128, 32), 31);
  EXPECT_EQ(gemm_sm90_fill_rows(160, 128, 32), 0);
  EXPECT_EQ(gemm_sm90_fill_rows(161, 128, 32), 31);
  EXPECT_EQ(gemm_sm90_fill_rows(256, 128, 32), 0);
  EXPECT_EQ(gemm_sm90_fill_rows(255, 128, 32), 1);
  EXPECT_EQ(gemm_sm90_fill_rows(200, 64, 32), 24);
  EXPECT_EQ(gemm_sm90_fill_rows(129, 128, gemm_sm90_box_rows_a(128, GmmaMajor::MN)), 63);
  EXPECT_EQ(gemm_sm90_box_rows_a(128, GmmaMajor::K), 32);
  EXPECT_EQ(gemm_sm90_box_rows_a(16, GmmaMajor::K), 16);
  EXPECT_EQ(gemm_sm90_fill_rows(1, 16, 16), 15);
}

// Clusters of 2 pair 128-row blocks: where the cluster tiles take one more wave than the CTA tiles
// (an odd row block count, or a wave the CTA tiles fill exactly), the 128 x 256 tile runs alone.
TEST(GemmHeuristic, ClustersOnlyWhereTheyAddNoWave) {
  // 3 row blocks x 112 columns: 336 tiles, 3 waves on 132 SMs; 2 x 112 = 224 cluster tiles, 4 on 66.
  const GemmSm90Config odd = gemm_sm90_heuristic({325, 28672, 4096, 1}, 132);
  EXPECT_EQ(odd.tile_n, 256);
  EXPECT_EQ(odd.cluster_m, 1);
  // 33 x 16 = 528 tiles, exactly 4 waves; 17 x 16 = 272 cluster tiles, 5 waves on 66.
  EXPECT_EQ(gemm_sm90_heuristic({4097, 4096, 4096, 1}, 132).cluster_m, 1);
  // Even row blocks that fill the same waves keep their clusters.
  EXPECT_EQ(gemm_sm90_heuristic({4096, 4096, 4096, 1}, 132).cluster_m, 2);
}

}  // namespace

// Where the 128 x 256 tile in clusters of 2 divides M and N, tiles that do not count at
// kGemmEdgeTileEfficiency: 8192-, 14336-, 16384- and 28672-wide N take 128 x 256 c2 instead of
// 128 x 192 (a mostly empty last column of tiles; H200, 2026-11-29: plain 23 shapes, none slower,
// 0.97x; JIT bias + GELU 9 shapes 0.953x, where the whole tiles also drop the edge paths).
TEST(GemmHeuristic, WholeTilesOf128x256InClustersOf2BeatEdgeTiles) {
  static_assert(gemm_sm90_whole_tiles(8192, 8192, 256, 256) && !gemm_sm90_whole_tiles(8192, 8192, 128, 192));
  static_assert(!gemm_sm90_whole_tiles(640, 14336, 256, 256) && gemm_sm90_whole_tiles(640, 14336, 128, 256));
  static_assert(!gemm_sm90_whole_tiles(256, 256, 0, 256));  // no tile: not whole
  const GemmLaunchFacts fused{.may_swap_ab = false, .fused = true};
  for (const GemmShape s : {GemmShape{8192, 8192, 8192, 1}, GemmShape{8192, 8192, 1024, 1}, GemmShape{16384, 14336, 2048, 1},
                            GemmShape{4096, 28672, 4096, 1}, GemmShape{4096, 16384, 512, 1}}) {
    for (const GemmLaunchFacts& facts : {GemmLaunchFacts{}, fused}) {
      const GemmSm90Config c = gemm_sm90_heuristic(s, 132, facts);
      EXPECT_EQ(c.tile_n, 256) << s.m << "x" << s.n << "x" << s.k;
      EXPECT_EQ(c.cluster_m, 2) << s.m << "x" << s.n << "x" << s.k;
    }
  }
  // Only against the 128 x 256 tile in clusters of 2 pairing every row block: 640 rows (five row
  // blocks) keep 128 x 192, where the rule's first form took 128 x 128 and ran 10% slower; 448 x
  // 1024 (a 64 x 64 tile whole, 128-row tiles not) keeps 128 x 64 split (64 x 64: +5%).
  EXPECT_EQ(gemm_sm90_heuristic({640, 14336, 1024, 1}, 132).tile_n, 192);
  EXPECT_EQ(gemm_sm90_heuristic({640, 14336, 1024, 1}, 132, fused).tile_n, 192);
  EXPECT_EQ(gemm_sm90_heuristic({448, 1024, 8192, 1}, 132).tile_m, 128);
  // Nor with an f32 D or C read (both ways there): the wave model's 128 x 192 stays.
  EXPECT_EQ(gemm_sm90_heuristic({8192, 8192, 8192, 1}, 132, {.d_bytes = 4}).tile_n, 192);
  EXPECT_EQ(gemm_sm90_heuristic({8192, 8192, 8192, 1}, 132, {.reads_c = true}).tile_n, 192);
  // Where no tile divides M and N the choices stay (checked with heuristic_choices against the
  // tree without the rule: 0 of the 1440-shape grid and of 16000 random shapes move).
  EXPECT_EQ(gemm_sm90_heuristic({3000, 5000, 1024, 1}, 132, fused).tile_n, 128);
  EXPECT_EQ(gemm_sm90_heuristic({4097, 6000, 4096, 1}, 132, fused).tile_n, 256);
  EXPECT_EQ(gemm_sm90_heuristic({1000, 1030, 520, 1}, 132, fused).tile_n, 128);
}
