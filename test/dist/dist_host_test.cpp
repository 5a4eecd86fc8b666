// Host-side facts of the distributed GEMM: which rank owns which rows, the symmetric buffer's
// layout, and the order a rank's GEMM computes its tiles in (with the chunks the copy engines send).
#include <gtest/gtest.h>

#include <cute_dsl/dist/all_gather_layout.hpp>
#include <cute_dsl/dist/all_gather_order.hpp>
#include <cute_dsl/dist/reduce_scatter_layout.hpp>
#include <cute_dsl/dist/reduce_scatter_schedule.hpp>
#include <cute_dsl/kernels/gemm_tile_scheduler.hpp>
#include <cute_dsl/dist/row_owners.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace {

using cute_dsl::dist::AllGatherLayout;
using cute_dsl::dist::ReduceScatterLayout;
using cute_dsl::dist::ReduceScatterSchedule;
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
      for (int s = 0; s < cute_dsl::dist::kMaxRanks; ++s) EXPECT_LE(l.done_offset(s) + 4, l.counter_offset(0));
      EXPECT_LE(l.counter_offset(l.max_chunks() - 1) + 4, l.arrived_offset(0, 0));
      EXPECT_LE(l.arrived_offset(cute_dsl::dist::kMaxRanks - 1, l.max_chunks() - 1) + 4, l.received_offset());
      EXPECT_EQ(l.received_offset() % 256, 0);
      EXPECT_EQ(l.partial_offset() % 256, 0);
      EXPECT_GE(l.partial_offset(), l.received_offset() + (world - 1) * l.slot_elements() * 2);
      EXPECT_GE(l.bytes(), l.partial_offset() + (long long)m * n * 2);
      ReduceScatterLayout ar = l;  // the all-reduce's regions follow, disjoint
      ar.all_reduce = true;
      EXPECT_GE(ar.all_reduce_offset(), l.bytes());
      EXPECT_LE(ar.result_free_offset(cute_dsl::dist::kMaxRanks - 1) + 4, ar.result_sent_offset(0));
      EXPECT_LE(ar.result_sent_offset(cute_dsl::dist::kMaxRanks - 1) + 4, ar.reduced_offset(0));
      EXPECT_LE(ar.reduced_offset(ar.max_chunks() - 1) + 4, ar.result_offset());
      EXPECT_EQ(ar.result_offset() % 256, 0);
      EXPECT_GE(ar.bytes(), ar.result_offset() + (long long)m * n * 2);
      for (int receiver = 0; receiver < world; ++receiver) {  // each sender its own slot, below world - 1
        std::set<int> slots;
        for (int sender = 0; sender < world; ++sender)
          if (sender != receiver) slots.insert(ReduceScatterLayout::slot(sender, receiver));
        EXPECT_EQ(int(slots.size()), world - 1);
        if (!slots.empty()) {
          EXPECT_EQ(*slots.rbegin(), world - 2);
        }
      }
    }
}

// The scheduler's order for a rank (every variant's tile shape) against the schedule's account of
// it: every cluster tile once; groups one after the other; the tile rows holding the rank's own
// rows -- and only those -- in the last group; each chunk's tile count what the tiles add up to,
// inside the window's bounds.
template <int TileM, int TileN, int ClusterM>
void check_schedule(int m, int n, int world) {
  using Scheduler = cute_dsl::kernels::GemmTileScheduler<TileM, TileN, ClusterM>;
  const ReduceScatterLayout layout{m, n, world, 2};
  const RowOwners owners = layout.owners();
  for (int rank = 0; rank < world; ++rank) {
    SCOPED_TRACE(std::to_string(m) + " x " + std::to_string(n) + ", world " + std::to_string(world) + ", rank " + std::to_string(rank) +
                 ", tile " + std::to_string(TileM * ClusterM) + " x " + std::to_string(TileN));
    const ReduceScatterSchedule plan = ReduceScatterSchedule::make(layout, rank, TileM * ClusterM, TileN, Scheduler::kBand, ClusterM);
    Scheduler scheduler(m, n, 1);
    scheduler.rows = &plan.order;
    std::set<std::pair<int, int>> seen;
    std::vector<unsigned> tiles_per_chunk(std::size_t(layout.max_chunks()), 0);
    std::vector<unsigned> tiles_per_piece(std::size_t(layout.max_chunks()), 0);  // all-reduce result pieces
    int last_group = 0, last_piece = 0;
    for (int t = 0; t < scheduler.cluster_tiles(); ++t) {
      const auto tile = scheduler.tile(t, 0);
      const int row = tile.m_block / (TileM * ClusterM);
      EXPECT_TRUE(seen.insert({tile.m_block, tile.n_block}).second) << "tile " << t << " twice";
      const int group = plan.group_of(row);
      EXPECT_GE(group, last_group) << "tile " << t << " goes back to an earlier group";
      last_group = group;
      const bool own = owners.rows(rank) > 0 && tile.m_block < owners.begin(rank + 1) &&
                       tile.m_block + TileM * ClusterM > owners.begin(rank);
      EXPECT_EQ(own, group == plan.foreign_groups()) << "tile row " << row;
      const int chunk = plan.chunk(group, plan.band_of(tile.n_block));
      ASSERT_LT(chunk, layout.max_chunks());
      tiles_per_chunk[std::size_t(chunk)] += ClusterM;
      if (own) {
        const int piece = plan.result_piece(row, plan.band_of(tile.n_block));
        ASSERT_GE(piece, 0);
        ASSERT_LT(piece, layout.max_chunks());
        // Bands outer, slices inner, as the copy stream sends them.
        const int band = piece % plan.bands, slice = piece / plan.bands;
        EXPECT_GE(band * plan.result_slices() + slice, last_piece) << "tile " << t << " goes back to an earlier result piece";
        last_piece = band * plan.result_slices() + slice;
        EXPECT_GE(row, plan.result_row_begin(slice));
        EXPECT_LT(row, plan.result_row_begin(slice) + plan.result_slice_rows(slice));
        tiles_per_piece[std::size_t(piece)] += ClusterM;
      }
    }
    for (int sl = 0; sl < plan.result_slices(); ++sl)
      for (int b = 0; b < plan.bands; ++b)
        EXPECT_EQ(tiles_per_piece[std::size_t(sl * plan.bands + b)], plan.result_piece_tiles(sl, b)) << "piece " << sl << " " << b;
    if (plan.own_tile_rows() > 0 && plan.result_slice < plan.own_tile_rows()) {  // pieces of at least 4 MiB
      const long long band_cols = std::min(plan.band_tiles * plan.tile_n, n);
      EXPECT_GE(band_cols * plan.tile_rows * plan.result_slice * 2, ReduceScatterSchedule::kResultPieceBytes);
    }
    EXPECT_EQ(int(seen.size()), scheduler.cluster_tiles());
    EXPECT_LE(plan.groups(), layout.max_groups());
    EXPECT_LE(plan.bands, layout.max_bands());
    for (int g = 0; g < plan.groups(); ++g)
      for (int b = 0; b < plan.bands; ++b) EXPECT_EQ(tiles_per_chunk[std::size_t(plan.chunk(g, b))], plan.chunk_tiles(g, b)) << g << " " << b;
  }
}

TEST(ReduceScatterSchedule, OwnRowsLastEveryTileOnceChunkCountsAgree) {
  for (int world : {1, 2, 3, 4, 8})
    for (auto [m, n] : {std::pair{1, 1}, std::pair{200, 384}, std::pair{1000, 520}, std::pair{8192, 8192}, std::pair{300, 250},
                        std::pair{4096, 3000}}) {
      check_schedule<128, 256, 2>(m, n, world);
      check_schedule<128, 128, 1>(m, n, world);
      check_schedule<64, 64, 1>(m, n, world);
    }
}

TEST(ReduceScatterSchedule, AlignedOwnersGiveOneGroupPerOwnerNextRankFirst) {
  const ReduceScatterLayout layout{8192, 8192, 4, 2};
  const ReduceScatterSchedule plan = ReduceScatterSchedule::make(layout, 1, 256, 256, 8, 2);
  EXPECT_EQ(plan.groups(), 4);
  EXPECT_EQ(plan.group_of(4096 / 256), 0);  // rank 2's rows first
  EXPECT_EQ(plan.group_of(6144 / 256), 1);  // then rank 3's
  EXPECT_EQ(plan.group_of(0), 2);           // rank 0's
  EXPECT_EQ(plan.group_of(4095 / 256), 3);  // its own last
  EXPECT_EQ(plan.bands, 4);
  EXPECT_EQ(plan.chunk_tiles(0, 0), 8u * 2 * 8);
  // All-reduce pieces: 4 MiB = 4 tile rows of a 2048-column band; rank 1 owns tile rows 8..15.
  EXPECT_EQ(plan.result_slice, 4);
  EXPECT_EQ(plan.result_slices(), 2);
  EXPECT_EQ(plan.result_row_begin(1), 12);
  EXPECT_EQ(plan.result_piece(13, 3), 1 * 4 + 3);
  EXPECT_EQ(plan.result_piece_tiles(1, 3), 4u * 2 * 8);
}

// The all-gather's pieces: every row of every shard in exactly one piece of its owner, in order,
// piece_of agreeing with piece_begin; flags below the gathered rows; pieces of ~kPieceBytes.
TEST(AllGatherLayout, PiecesCoverEachShardOnceInOrder) {
  for (int world : {1, 2, 3, 4, 8})
    for (auto [m, k] : {std::pair{1, 8}, std::pair{6, 64}, std::pair{1000, 264}, std::pair{8192, 8192}, std::pair{16384, 8192},
                        std::pair{4096, 4096}}) {
      const AllGatherLayout l{m, k, world, 2};
      const RowOwners owners = l.owners();
      ASSERT_GE(l.pieces(), 1);
      ASSERT_LE(l.pieces(), AllGatherLayout::kMaxPieces);
      if (l.pieces() < AllGatherLayout::kMaxPieces) {  // fewer pieces only when each is small enough
        EXPECT_LE((long long)owners.max_rows() * l.row_bytes(), l.pieces() * AllGatherLayout::kPieceBytes);
      }
      for (int s = 0; s < world; ++s) {
        EXPECT_EQ(l.piece_begin(s, 0), owners.begin(s));
        EXPECT_EQ(l.piece_begin(s, l.pieces()), owners.begin(s + 1));
        for (int j = 0; j < l.pieces(); ++j) {
          EXPECT_LE(l.piece_begin(s, j), l.piece_begin(s, j + 1));
          for (int row = l.piece_begin(s, j); row < l.piece_begin(s, j + 1); ++row) ASSERT_EQ(l.piece_of(row), j) << m << " " << world << " " << row;
        }
      }
      EXPECT_EQ(AllGatherLayout::gathered_offset() % 256, 0);
      EXPECT_GE(l.bytes(), AllGatherLayout::gathered_offset() + (long long)m * k * 2);
      for (int s = 0; s < cute_dsl::dist::kMaxRanks; ++s) {
        EXPECT_LE(AllGatherLayout::ready_offset(s) + 4, AllGatherLayout::pulled_offset(0));
        EXPECT_LE(AllGatherLayout::pulled_offset(s) + 4, AllGatherLayout::arrived_offset(0, 0));
      }
    }
  EXPECT_EQ((AllGatherLayout{8192, 8192, 2, 2}.pieces()), 16);  // 64 MiB shards: 4 MiB pieces
  EXPECT_EQ((AllGatherLayout{8192, 8192, 4, 2}.pieces()), 8);
}

// A rank's GEMM order for the all-gather: every tile once; the rotated tile rows put the owners in
// the order its copy stream pulls them (its own first, then rank + 1, ...), with a tile row that
// straddles the previous owner and this rank last; the scheduler takes the groups of rotated rows
// one after the other; the first tile holds own rows only when the rank owns a whole tile row.
template <int TileM, int TileN, int ClusterM>
void check_all_gather_order(int m, int n, int world) {
  using Scheduler = cute_dsl::kernels::GemmTileScheduler<TileM, TileN, ClusterM>;
  constexpr int kRows = TileM * ClusterM;
  const AllGatherLayout layout{m, 64, world, 2};
  const RowOwners owners = layout.owners();
  const int tiles_m = (m + kRows - 1) / kRows;
  for (int rank = 0; rank < world; ++rank) {
    SCOPED_TRACE(std::to_string(m) + " x " + std::to_string(n) + ", world " + std::to_string(world) + ", rank " + std::to_string(rank) +
                 ", tile " + std::to_string(kRows) + " x " + std::to_string(TileN));
    const cute_dsl::kernels::GemmRowOrder order = cute_dsl::dist::all_gather_row_order(layout, rank, kRows);
    // Owners in pull order along the rotated rows (the distance of each row's first owner).
    int last_distance = 0;
    for (int q = 0; q < tiles_m; ++q) {
      const int row0 = (q + order.rotation) % tiles_m * kRows, row1 = std::min(row0 + kRows, m) - 1;
      const bool straddles_previous = row0 < owners.begin(rank) && row1 >= owners.begin(rank);
      if (straddles_previous) {
        EXPECT_EQ(q, tiles_m - 1) << "the tile row straddling the previous owner is not last";
        continue;
      }
      const int distance = (owners.owner(row0) - rank + world) % world;
      EXPECT_GE(distance, last_distance) << "rotated row " << q;
      last_distance = distance;
    }
    Scheduler scheduler(m, n, 1);
    scheduler.rows = &order;
    std::set<std::pair<int, int>> seen;
    int last_group = 0;
    for (int t = 0; t < scheduler.cluster_tiles(); ++t) {
      const auto tile = scheduler.tile(t, 0);
      EXPECT_TRUE(seen.insert({tile.m_block, tile.n_block}).second) << "tile " << t << " twice";
      const int q = (tile.m_block / kRows - order.rotation + tiles_m) % tiles_m;
      EXPECT_GE(q / order.group_rows, last_group) << "tile " << t << " goes back to an earlier group";
      last_group = q / order.group_rows;
    }
    EXPECT_EQ(int(seen.size()), scheduler.cluster_tiles());
    if (owners.rows(rank) >= 2 * kRows) {
      EXPECT_EQ(owners.owner(scheduler.tile(0, 0).m_block), rank);
    }
  }
}

TEST(AllGatherOrder, OwnRowsFirstThenPeersInPullOrderEveryTileOnce) {
  for (int world : {1, 2, 3, 4, 8})
    for (auto [m, n] : {std::pair{1, 1}, std::pair{6, 64}, std::pair{200, 384}, std::pair{1000, 520}, std::pair{8192, 8192},
                        std::pair{4096, 3000}}) {
      check_all_gather_order<128, 256, 2>(m, n, world);
      check_all_gather_order<128, 128, 1>(m, n, world);
    }
}

}  // namespace
