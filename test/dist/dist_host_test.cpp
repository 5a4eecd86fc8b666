// Host-side facts of the distributed GEMM: which rank owns which rows, the symmetric buffer's
// layout, and the tile scheduler's row groups (every tile once; a rank's own rows last).
#include <gtest/gtest.h>

#include <cute_dsl/dist/reduce_scatter_layout.hpp>
#include <cute_dsl/dist/row_owners.hpp>
#include <cute_dsl/kernels/gemm_tile_scheduler.hpp>

#include <set>
#include <tuple>
#include <vector>

namespace {

using cute_dsl::dist::ReduceScatterLayout;
using cute_dsl::dist::RowOwners;

TEST(RowOwners, EveryRowHasExactlyTheOwnerWhoseRangeHoldsIt) {
  for (int world = 1; world <= 8; ++world)
    for (int m = 1; m <= 300; ++m) {
      const RowOwners o{m, world};
      int rows = 0;
      for (int r = 0; r < world; ++r) {
        EXPECT_LE(o.rows(r), o.max_rows());
        EXPECT_GE(o.rows(r), m / world);
        for (int row = o.begin(r); row < o.begin(r + 1); ++row) EXPECT_EQ(o.owner(row), r) << m << " " << world << " " << row;
        rows += o.rows(r);
      }
      EXPECT_EQ(rows, m);
      EXPECT_EQ(o.begin(world), m);
    }
}

TEST(RowOwners, MatchesNcclReduceScatterLayoutWhenRanksDivideRows) {
  const RowOwners o{8192, 4};
  for (int r = 0; r < 4; ++r) EXPECT_EQ(o.begin(r), r * 2048);
  EXPECT_EQ((RowOwners{16384 * 3, 8}.owner(16384 * 3 - 1)), 7);  // large rows: no 32-bit overflow
  EXPECT_EQ((RowOwners{2000000000, 8}.owner(1999999999)), 7);
}

TEST(ReduceScatterLayout, RegionsAreDisjointAlignedAndInsideTheBuffer) {
  for (int world : {1, 2, 3, 8})
    for (auto [m, n] : {std::pair{1, 1}, std::pair{1000, 520}, std::pair{8192, 8192}, std::pair{130, 7}}) {
      const ReduceScatterLayout l{m, n, world, 2};
      EXPECT_GE(l.ready_offset(), l.counter_offset() + 4);
      EXPECT_GE(l.deferred_offset(), l.ready_offset() + 4 * l.tiles() * world);
      EXPECT_GE(l.partials_offset(), l.deferred_offset() + 4 * l.tiles());
      for (int s = 0; s < world; ++s) {
        EXPECT_EQ(l.slot_offset(s) % 256, 0);
        EXPECT_GE(l.slot_bytes(), (long long)l.owners().max_rows() * n * 2);
      }
      EXPECT_EQ(l.bytes(), l.slot_offset(world - 1) + l.slot_bytes());
    }
  static_assert(ReduceScatterLayout{128, 128, 2, 2}.tiles() == 4, "64 x 64 blocks");
}

// Every unit of work exactly once, for any group count and first group; with row groups the
// tiles of the first group come first and those of the group before it (a rank's own rows) last.
template <int TileM, int TileN, int ClusterM>
void check_row_groups(int m, int n, int groups) {
  using Scheduler = cute_dsl::kernels::GemmTileScheduler<TileM, TileN, ClusterM>;
  for (int first = 0; first < groups; ++first) {
    Scheduler s(m, n, 1);
    s.set_row_groups(groups, first);
    std::set<std::tuple<int, int>> seen;
    std::vector<int> group_of;
    for (int t = 0; t < s.cluster_tiles(); ++t) {
      const auto tile = s.tile(t, 0);
      EXPECT_TRUE(seen.insert({tile.m_block, tile.n_block}).second) << "tile " << t << " twice";
      const int tm = tile.m_block / (TileM * ClusterM);
      int g = 0;
      while (!(tm >= (long long)g * s.tiles_m / groups && tm < (long long)(g + 1) * s.tiles_m / groups)) ++g;
      group_of.push_back((g - first + groups) % groups);  // position of its group in the order
    }
    EXPECT_EQ(int(seen.size()), s.cluster_tiles());
    for (std::size_t i = 1; i < group_of.size(); ++i) EXPECT_LE(group_of[i - 1], group_of[i]) << "groups out of order at " << i;
  }
}

TEST(GemmTileSchedulerRowGroups, EveryTileOnceGroupsInRotatedOrder) {
  check_row_groups<128, 128, 1>(8192, 8192, 2);
  check_row_groups<128, 256, 2>(16384, 8192, 8);
  check_row_groups<128, 128, 1>(1000, 520, 4);
  check_row_groups<128, 64, 1>(200, 384, 8);  // fewer tile rows than groups: empty groups
  check_row_groups<64, 128, 1>(777, 1000, 3);
}

TEST(GemmTileSchedulerRowGroups, OneGroupIsThePlainOrder) {
  cute_dsl::kernels::GemmTileScheduler<128, 128, 1> plain(3000, 5000, 2), grouped(3000, 5000, 2);
  grouped.set_row_groups(1, 0);
  for (int t = 0; t < plain.cluster_tiles(); ++t) {
    EXPECT_EQ(plain.tile(t, 0).m_block, grouped.tile(t, 0).m_block);
    EXPECT_EQ(plain.tile(t, 0).n_block, grouped.tile(t, 0).n_block);
  }
}

}  // namespace
