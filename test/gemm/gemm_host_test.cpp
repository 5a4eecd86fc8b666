// The persistent tile scheduler of the Hopper GEMM: every tile of every batch exactly once,
// whatever the raster band leaves over, and the CTAs of a cluster on vertically adjacent tiles.
#include <algorithm>
#include <cute_dsl/kernels/gemm_tile_scheduler.hpp>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>
#include <vector>

namespace {

using cute_dsl::kernels::GemmTile;
using cute_dsl::kernels::GemmTileScheduler;

template <int TileN, int ClusterM>
void expect_every_tile_once(int m, int n, int l) {
  const GemmTileScheduler<128, TileN, ClusterM> s(m, n, l);
  std::set<std::tuple<int, int, int>> seen;
  for (int t = 0; t < s.cluster_tiles(); ++t) {
    for (int r = 0; r < ClusterM; ++r) {
      const GemmTile tile = s.tile(t, r);
      EXPECT_EQ(tile.m_block % 128, 0);
      EXPECT_EQ(tile.n_block % TileN, 0);
      EXPECT_LT(tile.n_block, n);
      EXPECT_LT(tile.batch, l);
      EXPECT_TRUE(seen.insert({tile.m_block, tile.n_block, tile.batch}).second)
          << "tile visited twice: t=" << t << " rank=" << r;
      if (r > 0) {
        EXPECT_EQ(tile.m_block, s.tile(t, 0).m_block + 128 * r);
      }
    }
  }
  // Every tile of C that holds at least one row below M is covered.
  const int row_blocks = (m + 127) / 128, col_blocks = (n + TileN - 1) / TileN;
  for (int b = 0; b < l; ++b)
    for (int i = 0; i < row_blocks; ++i)
      for (int j = 0; j < col_blocks; ++j)
        EXPECT_TRUE(seen.count({128 * i, TileN * j, b})) << "missed tile " << i << "," << j << " of batch " << b;
}

TEST(GemmTileScheduler, CoversEveryTileOnce) {
  expect_every_tile_once<256, 2>(8192, 8192, 1);
  expect_every_tile_once<256, 2>(1000, 1030, 1);
  expect_every_tile_once<128, 2>(300, 2600, 3);  // a partial raster band (21 columns, band 8)
  expect_every_tile_once<128, 1>(128, 8192, 1);
  expect_every_tile_once<64, 1>(1, 8, 2);
}

TEST(GemmTileScheduler, ConsecutiveTilesStayInOneBand) {
  const GemmTileScheduler<128, 256, 2> s(8192, 8192, 1);
  // The first 8 cluster tiles sweep the first band's 8 columns of the first row block.
  for (int t = 0; t < 8; ++t) {
    EXPECT_EQ(s.tile(t, 0).m_block, 0);
    EXPECT_EQ(s.tile(t, 0).n_block, 256 * t);
  }
  EXPECT_EQ(s.tile(8, 0).m_block, 256);
  EXPECT_EQ(s.tile(8, 0).n_block, 0);
}

// An operand is streamed where each of its tiles is read by at most two CTA tiles: B at M <= two
// row blocks (CTA rows, clusters included), A at N <= two column blocks (decode's swapped view).
TEST(GemmTileScheduler, StreamsAnOperandWhereItsTilesAreReadAtMostTwice) {
  using cute_dsl::kernels::GemmTileScheduler;
  static_assert(GemmTileScheduler<64, 64, 1>(128, 4096, 1).streams_an_operand());    // 2 row blocks: B
  static_assert(GemmTileScheduler<128, 16, 1>(4096, 16, 1).streams_an_operand());    // 1 column block: A
  static_assert(GemmTileScheduler<128, 128, 1>(65536, 256, 1).streams_an_operand());  // 2 column blocks: A
  static_assert(GemmTileScheduler<128, 256, 2>(256, 8192, 1).streams_an_operand());   // one cluster row: 2 CTA rows
  EXPECT_FALSE((GemmTileScheduler<64, 64, 1>(192, 4096, 1).streams_an_operand()));    // 3 row blocks, 64 column blocks
  EXPECT_FALSE((GemmTileScheduler<128, 256, 2>(512, 8192, 1).streams_an_operand()));  // 2 cluster rows: 4 CTA rows
  EXPECT_FALSE((GemmTileScheduler<128, 192, 1>(3000, 3000, 1).streams_an_operand()));
  EXPECT_FALSE((GemmTileScheduler<128, 64, 1>(1024, 1024, 1).streams_an_operand()));
}

// The loads are hinted where an operand is streamed; in a split launch only where one operand is
// read by a single cluster tile and the other is at most kEvictFirstHotBytes.
TEST(GemmTileScheduler, LoadsEvictFirstUnsplitWhereStreamedSplitWhereTheOtherOperandIsSmall) {
  using cute_dsl::kernels::GemmTileScheduler;
  constexpr long long MiB = 1ll << 20;
  constexpr auto bytes = [](long long rows, long long k) { return rows * k * 2; };  // bf16
  // Unsplit: as streams_an_operand, whatever the bytes.
  static_assert(GemmTileScheduler<64, 64, 1>(128, 4096, 1).loads_evict_first(1, 1 * MiB, 32 * MiB));
  static_assert(GemmTileScheduler<128, 128, 1>(8192, 256, 1).loads_evict_first(1, 128 * MiB, 4 * MiB));
  static_assert(!GemmTileScheduler<128, 64, 1>(1024, 1024, 1).loads_evict_first(1, 2 * MiB, 2 * MiB));
  // Split: B read by every row tile is 0.5 MiB, A read once (one column block): hinted.
  static_assert(GemmTileScheduler<64, 64, 1>(4096, 64, 1).loads_evict_first(2, bytes(4096, 4096), bytes(64, 4096)));
  // Split: B read once (one row block), A 2 MiB: hinted; A 16, 32 or 64 MiB (re-read by two or four column blocks): not.
  static_assert(GemmTileScheduler<64, 64, 1>(64, 2048, 1).loads_evict_first(4, bytes(64, 16384), bytes(2048, 16384)));
  static_assert(!GemmTileScheduler<128, 64, 1>(128, 128, 1).loads_evict_first(32, bytes(128, 65536), bytes(128, 65536)));
  static_assert(!GemmTileScheduler<128, 128, 2>(256, 256, 1).loads_evict_first(32, bytes(256, 131072), bytes(256, 131072)));
  static_assert(!GemmTileScheduler<128, 128, 2>(256, 512, 1).loads_evict_first(16, bytes(256, 65536), bytes(512, 65536)));
  // Split, each operand read by two or more tiles: not hinted, however small.
  static_assert(!GemmTileScheduler<128, 128, 1>(256, 256, 1).loads_evict_first(32, bytes(256, 130000), bytes(256, 130000)));
  static_assert(!GemmTileScheduler<128, 128, 2>(2048, 256, 1).loads_evict_first(4, bytes(2048, 32768), bytes(256, 32768)));
  static_assert(!GemmTileScheduler<64, 64, 1>(128, 1536, 1).loads_evict_first(2, 1 * MiB, 1 * MiB));
  EXPECT_TRUE((GemmTileScheduler<64, 48, 1>(64, 64, 1).loads_evict_first(24, 8 * MiB, 8 * MiB)));
  EXPECT_FALSE((GemmTileScheduler<64, 48, 1>(64, 64, 1).loads_evict_first(24, 8 * MiB + 1, 8 * MiB + 1)));
}

// Another row order: segments of tile rows taken in turn, the raster (bands of 8 columns, rows
// inside a band) inside each; every tile still once, batches included. Appending ignores empty
// runs and flags an order that ran out of segments.
TEST(GemmTileScheduler, RowOrderSegmentsInTurnRasterInside) {
  cute_dsl::kernels::GemmRowOrder order;
  order.append(5, 8);  // tile rows 5..7 first (3 rows)
  order.append(3, 3);  // empty: ignored
  order.append(0, 5);  // then 0..4
  ASSERT_EQ(order.segments, 2);
  EXPECT_FALSE(order.overflow);
  GemmTileScheduler<128, 128, 1> s(8 * 128, 20 * 128, 2);  // 8 x 20 tiles (bands of 8, 8, 4), 2 batches
  s.rows = &order;
  std::set<std::tuple<int, int, int>> seen;
  for (int t = 0; t < s.cluster_tiles(); ++t) {
    const GemmTile tile = s.tile(t, 0);
    EXPECT_TRUE(seen.insert({tile.m_block, tile.n_block, tile.batch}).second) << "tile " << t << " twice";
    const int within = t % (8 * 20), row = tile.m_block / 128;
    EXPECT_EQ(row >= 5, within < 3 * 20) << "tile " << t << ": row " << row << " out of its segment";
  }
  EXPECT_EQ(int(seen.size()), s.cluster_tiles());
  // Segment 0 (rows 5..7), first band: row 5's 8 columns, then row 6's.
  EXPECT_EQ(s.tile(0, 0).m_block, 5 * 128);
  EXPECT_EQ(s.tile(7, 0).n_block, 7 * 128);
  EXPECT_EQ(s.tile(8, 0).m_block, 6 * 128);
  EXPECT_EQ(s.tile(3 * 20, 0).m_block, 0);  // segment 1 starts at row 0
  cute_dsl::kernels::GemmRowOrder full;
  for (int i = 0; i <= cute_dsl::kernels::GemmRowOrder::kMaxSegments; ++i) full.append(i, i + 1);
  EXPECT_TRUE(full.overflow);
  EXPECT_EQ(full.segments, cute_dsl::kernels::GemmRowOrder::kMaxSegments);
}

}  // namespace

namespace {
// Split-K: every (tile, k-block) exactly once over the units, ranges of nearly equal length
// (they differ by at most one k-block), none empty, split-major order within a tile; tiles
// before split_from whole (tail split-K), the rest split.
TEST(GemmTileScheduler, SplitKUnitsCoverEveryKBlockOnce) {
  for (int split_from : {0, 7, 1000})
    for (int splits : {1, 2, 3, 7, 16})
      for (int k_tiles : {16, 17, 63}) {
        GemmTileScheduler<64, 64, 1> s(100, 300, 2);  // 2 x 5 tiles x 2 batches
        s.split_from = split_from;
        const int whole = splits > 1 ? std::min(split_from, s.cluster_tiles()) : s.cluster_tiles();
        std::set<std::tuple<int, int, int, int>> seen;  // (m, n, batch, k-block)
        for (int u = 0; u < s.units(splits, k_tiles); ++u) {
          const auto w = s.work(u, 0, splits, k_tiles);
          if (u < whole) {
            EXPECT_EQ(w.splits, 1);
            EXPECT_EQ(w.k_end - w.k_begin, k_tiles);
          } else {
            EXPECT_EQ(w.splits, splits);
            EXPECT_EQ(w.tile_index, (u - whole) / splits);
            EXPECT_EQ(w.split, (u - whole) % splits);
            const int len = w.k_end - w.k_begin;
            EXPECT_TRUE(len == k_tiles / splits || len == k_tiles / splits + 1) << splits << " " << k_tiles;
            EXPECT_GE(len, 1);
          }
          for (int k = w.k_begin; k < w.k_end; ++k)
            EXPECT_TRUE(seen.insert({w.tile.m_block, w.tile.n_block, w.tile.batch, k}).second);
        }
        EXPECT_EQ(int(seen.size()), s.cluster_tiles() * k_tiles);
      }
}
}  // namespace

namespace {
// Stream-K: every (tile, k-block) of the streamed tiles exactly once; each cluster's range
// (units v with v % clusters == its index) holds almost the same number of k-blocks (they differ
// by at most one), its pieces in k order; a tile's pieces carry split indices 0..splits-1 in k
// order and the same `splits`, never more than the workspace's slots; tiles before split_from whole.
TEST(GemmTileScheduler, StreamKRangesCoverEveryKBlockOnceEvenly) {
  using cute_dsl::kernels::GemmStreamK;
  for (int split_from : {0, 3, 9})
    for (int clusters : {1, 4, 7, 66})
      for (int ranges_less : {0, 1, 3})
        for (int k_tiles : {1, 5, 16, 47}) {
          GemmTileScheduler<64, 64, 1> s(100, 300, 2);  // 2 x 5 tiles x 2 batches = 20 cluster tiles
          s.split_from = split_from;
          s.clusters = clusters;
          const int streamed = s.cluster_tiles() - split_from;
          s.stream_ranges = std::max(1, std::min<int>(clusters - ranges_less, streamed * k_tiles));
          const int splits = 2;  // marks the split path
          ASSERT_TRUE(s.streams(splits));
          const GemmStreamK sk = s.stream_k(splits, k_tiles);
          std::set<std::tuple<int, int, int, int>> seen;  // (m, n, batch, k-block)
          std::vector<long long> per_range(clusters, 0);
          std::vector<int> last_k(clusters, -1), last_tile(clusters, -1);
          std::map<int, std::vector<std::tuple<int, int, int>>> pieces;  // tile -> (k_begin, split, splits)
          for (int u = 0; u < s.units(splits, k_tiles); ++u) {
            const auto w = s.work(u, 0, splits, k_tiles);
            if (u < split_from) {
              EXPECT_EQ(w.splits, 1);
              EXPECT_EQ(w.k_end - w.k_begin, k_tiles);
            } else if (w.splits > 0) {
              const int g = (u - split_from) % clusters;
              EXPECT_LT(g, s.stream_ranges);
              EXPECT_LT(w.k_begin, w.k_end);
              EXPECT_LE(w.splits, w.slots);
              EXPECT_EQ(w.slots, sk.pieces_per_tile());
              EXPECT_LE((u - split_from) / clusters, sk.pieces_per_range() - 1);
              // Pieces of a range in order: later tiles, or later k-blocks of the same one.
              EXPECT_TRUE(w.tile_index > last_tile[g] || (w.tile_index == last_tile[g] && w.k_begin >= last_k[g]));
              last_tile[g] = w.tile_index, last_k[g] = w.k_end;
              per_range[g] += w.k_end - w.k_begin;
              pieces[w.tile_index].push_back({w.k_begin, w.split, w.splits});
            }
            if (w.splits == 0) continue;
            for (int k = w.k_begin; k < w.k_end; ++k)
              EXPECT_TRUE(seen.insert({w.tile.m_block, w.tile.n_block, w.tile.batch, k}).second);
          }
          EXPECT_EQ(int(seen.size()), s.cluster_tiles() * k_tiles);
          const long long shortest = sk.shortest();
          for (int g = 0; g < clusters; ++g)
            if (g < s.stream_ranges) EXPECT_TRUE(per_range[g] == shortest || per_range[g] == shortest + 1) << g;
            else EXPECT_EQ(per_range[g], 0);
          for (auto& [tile, list] : pieces) {
            std::sort(list.begin(), list.end());
            for (int i = 0; i < int(list.size()); ++i) {
              EXPECT_EQ(std::get<1>(list[i]), i) << tile;
              EXPECT_EQ(std::get<2>(list[i]), int(list.size())) << tile;
            }
          }
        }
}
}  // namespace
