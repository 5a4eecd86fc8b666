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

// Which segment of `order` holds tile row `row` (-1: none).
int segment_of(const cute_dsl::kernels::GemmRowOrder& order, int row) {
  for (int i = 0; i < order.segments; ++i)
    if (order.first[i] <= row && row < order.first[i] + order.height[i]) return i;
  return -1;
}

// The scheduler's order for a rank (every variant's tile shape, every round count) against the
// schedule's account of it: every cluster tile once, segment after segment; each segment all held
// or all foreign rows, one chunk per segment and run of bands, numbered as every other rank
// numbers it (the receiver's side); tile counts what the tiles add up to, inside the window's
// bounds; and the rounds' order that rules out a cycle: before a foreign segment of round s, held
// rows of rounds <= s - 2 only (a held segment of round s after every foreign one of rounds <= s + 1).
template <int TileM, int TileN, int ClusterM>
void check_schedule(int m, int n, int world, bool all_reduce, int rounds, long long chunk_bytes = 0) {
  using Scheduler = cute_dsl::kernels::GemmTileScheduler<TileM, TileN, ClusterM>;
  const ReduceScatterLayout layout{m, n, world, 2, all_reduce, rounds, chunk_bytes};
  const RowOwners owners = layout.owners();
  std::vector<ReduceScatterSchedule> plans;
  for (int rank = 0; rank < world; ++rank)
    plans.push_back(ReduceScatterSchedule::make(layout, rank, TileM * ClusterM, TileN, Scheduler::kBand, ClusterM));
  for (int rank = 0; rank < world; ++rank) {
    SCOPED_TRACE(std::to_string(m) + " x " + std::to_string(n) + ", world " + std::to_string(world) + ", rank " + std::to_string(rank) +
                 ", tile " + std::to_string(TileM * ClusterM) + " x " + std::to_string(TileN) + ", rounds " + std::to_string(rounds) +
                 (all_reduce ? ", all-reduce" : ""));
    const ReduceScatterSchedule& plan = plans[std::size_t(rank)];
    ASSERT_FALSE(plan.order.overflow);
    ASSERT_LE(plan.order.segments, cute_dsl::kernels::GemmRowOrder::kMaxSegments);
    EXPECT_GE(plan.rounds, 1);
    EXPECT_LE(plan.rounds, ReduceScatterLayout::kMaxRounds);
    if (rounds > 0) {
      EXPECT_EQ(plan.rounds, std::max(1, std::min({rounds, ReduceScatterLayout::kMaxRounds, (owners.max_rows() + plan.tile_rows - 1) / plan.tile_rows})));
    }
    ASSERT_LE(plan.chunks(), layout.max_chunks());
    // Segments: the tile rows once, each all held or all foreign, of one key.
    std::vector<int> cover(std::size_t(plan.tiles_m), 0);
    std::set<int> segment_chunks;
    for (int i = 0; i < plan.order.segments; ++i) {
      ASSERT_GT(plan.order.height[i], 0);
      for (int t = plan.order.first[i]; t < plan.order.first[i] + plan.order.height[i]; ++t) {
        ASSERT_GE(t, 0);
        ASSERT_LT(t, plan.tiles_m);
        ++cover[std::size_t(t)];
        EXPECT_EQ(plan.holds(rank, t), plan.segment_held(i)) << "segment " << i << " row " << t;
        EXPECT_EQ(plan.key(t), plan.key(plan.order.first[i])) << "segment " << i << " row " << t;
        const bool has_own = owners.rows(rank) > 0 && t * plan.tile_rows < owners.begin(rank + 1) &&
                             std::min(m, (t + 1) * plan.tile_rows) > owners.begin(rank);
        EXPECT_EQ(has_own, plan.holds(rank, t)) << "row " << t;
      }
      for (int c = 0; c < plan.chunk_cols(); ++c) EXPECT_TRUE(segment_chunks.insert(plan.segment_chunk(i, c)).second) << "chunk twice";
    }
    for (int t = 0; t < plan.tiles_m; ++t) EXPECT_EQ(cover[std::size_t(t)], 1) << "tile row " << t;
    // Rounds' order.
    for (int i = 0; i < plan.order.segments; ++i) {
      const int round_i = plan.key(plan.order.first[i]) % plan.rounds;
      for (int j = 0; j < i; ++j) {
        const int round_j = plan.key(plan.order.first[j]) % plan.rounds;
        if (plan.segment_held(j) && !plan.segment_held(i)) {
          EXPECT_GE(round_i, round_j + 2) << "foreign " << i << " after held " << j;
        }
      }
    }
    // The scheduler, segment by segment; chunk numbers and counts.
    Scheduler scheduler(m, n, 1);
    scheduler.rows = &plan.order;
    std::set<std::pair<int, int>> seen;
    std::vector<unsigned> tiles_per_chunk(std::size_t(layout.max_chunks()), 0);
    int last_segment = 0;
    for (int t = 0; t < scheduler.cluster_tiles(); ++t) {
      const auto tile = scheduler.tile(t, 0);
      const int row = tile.m_block / (TileM * ClusterM), band = plan.band_of(tile.n_block);
      EXPECT_TRUE(seen.insert({tile.m_block, tile.n_block}).second) << "tile " << t << " twice";
      const int segment = segment_of(plan.order, row);
      ASSERT_GE(segment, last_segment) << "tile " << t << " goes back to an earlier segment";
      last_segment = segment;
      const int chunk = plan.chunk(row, band, rank);
      EXPECT_EQ(chunk, plan.segment_chunk(segment, band / plan.chunk_bands));
      ASSERT_LT(chunk, plan.chunks());
      tiles_per_chunk[std::size_t(chunk)] += ClusterM;
      // Every receiver numbers the sender's chunk alike (its own plan, the sender's rank).
      for (int receiver = 0; receiver < world; ++receiver) EXPECT_EQ(plans[std::size_t(receiver)].chunk(row, band, rank), chunk);
      // A tile row this rank alone holds: every sender's chunk of it is own_row_chunk's number
      // (the kernel acquires a chunk's flags once for all the tiles that share it).
      bool alone = plan.holds(rank, row);
      for (int q = 0; q < world; ++q) alone = alone && (q == rank || !plan.holds(q, row));
      for (int sender = 0; sender < world && alone; ++sender) {
        if (sender == rank) continue;
        EXPECT_EQ(plan.chunk(row, band, sender), plan.own_row_chunk(row, band)) << "row " << row << " band " << band;
      }
    }
    EXPECT_EQ(int(seen.size()), scheduler.cluster_tiles());
    for (int i = 0; i < plan.order.segments; ++i)
      for (int c = 0; c < plan.chunk_cols(); ++c)
        EXPECT_EQ(tiles_per_chunk[std::size_t(plan.segment_chunk(i, c))], plan.chunk_tiles(i, c)) << i << " " << c;
  }
}

TEST(ReduceScatterSchedule, EveryTileOnceInRoundsChunkCountsAgreeOnEveryRank) {
  for (int world : {1, 2, 3, 4, 8})
    for (auto [m, n] : {std::pair{1, 1}, std::pair{200, 384}, std::pair{1000, 520}, std::pair{8192, 8192}, std::pair{300, 250},
                        std::pair{4096, 3000}, std::pair{16384, 1024}})
      for (auto [all_reduce, rounds] : {std::pair{false, 0}, std::pair{true, 0}, std::pair{true, 3}, std::pair{false, 2}, std::pair{true, 4}}) {
        check_schedule<128, 256, 2>(m, n, world, all_reduce, rounds);
        check_schedule<128, 128, 1>(m, n, world, all_reduce, rounds);
        check_schedule<64, 64, 1>(m, n, world, all_reduce, rounds);
        check_schedule<128, 256, 2>(m, n, world, all_reduce, rounds, 1);  // chunks of one band
      }
}

// 8192 x 8192 over 4 ranks in tiles of 256 x 256: every owner 8 tile rows.
TEST(ReduceScatterSchedule, AlignedOwnersNextRankFirstOwnRowsLast) {
  const ReduceScatterLayout layout{8192, 8192, 4, 2};
  const ReduceScatterSchedule plan = ReduceScatterSchedule::make(layout, 1, 256, 256, 8, 2);
  EXPECT_EQ(plan.rounds, 1);  // a reduce-scatter: one round
  ASSERT_EQ(plan.order.segments, 4);
  EXPECT_EQ(plan.order.first[0], 16);  // rank 2's rows first
  EXPECT_EQ(plan.order.first[1], 24);  // then rank 3's
  EXPECT_EQ(plan.order.first[2], 0);   // rank 0's
  EXPECT_EQ(plan.order.first[3], 8);   // its own last
  EXPECT_TRUE(plan.segment_held(3));
  EXPECT_EQ(plan.bands, 4);
  EXPECT_EQ(plan.chunk_bands, 2);  // a band of a segment: 8 x 256 rows x 2048 columns = 8 MiB; chunks >= 16 MiB
  EXPECT_EQ(plan.chunk_tiles(0, 0), 8u * 2 * 16);
  // Another chunk size, asked by the layout: 8 MiB is one band.
  const ReduceScatterLayout small{8192, 8192, 4, 2, false, 0, 8LL << 20};
  EXPECT_EQ(ReduceScatterSchedule::make(small, 1, 256, 256, 8, 2).chunk_bands, 1);
  const ReduceScatterLayout large{8192, 8192, 4, 2, false, 0, 32LL << 20};
  EXPECT_EQ(ReduceScatterSchedule::make(large, 1, 256, 256, 8, 2).chunk_bands, 4);
}

// Rounds as asked (one by default, at most kMaxRounds, at most one per tile row of a share);
// chunks of >= 16 MiB (whole rows where a band of a segment is smaller).
TEST(ReduceScatterSchedule, RoundsAsAskedHeldRowsARoundLate) {
  auto rounds = [](int m, int n, int world, int asked) {
    return ReduceScatterSchedule::make({m, n, world, 2, true, asked}, 0, 256, 256, 8, 2).rounds;
  };
  EXPECT_EQ(rounds(8192, 8192, 4, 0), 1);
  EXPECT_EQ(rounds(8192, 8192, 4, 3), 3);
  EXPECT_EQ(rounds(8192, 8192, 4, 9), ReduceScatterLayout::kMaxRounds);
  EXPECT_EQ(rounds(1024, 8192, 4, 3), 1);  // a share of one tile row
  // 8192^2 over 4 in 2 rounds: rank 1 computes rank 2's, 3's, 0's first 4 tile rows, then their
  // second 4, then its own first 4 (a round late), then its own second 4.
  const ReduceScatterSchedule plan = ReduceScatterSchedule::make({8192, 8192, 4, 2, true, 2}, 1, 256, 256, 8, 2);
  ASSERT_EQ(plan.order.segments, 8);
  EXPECT_EQ(plan.order.first[0], 16);
  EXPECT_EQ(plan.order.height[0], 4);
  EXPECT_EQ(plan.order.first[2], 0);
  EXPECT_EQ(plan.order.first[3], 20);  // round 1: rank 2's next
  EXPECT_EQ(plan.order.first[6], 8);   // then its own of round 0
  EXPECT_TRUE(plan.segment_held(6));
  EXPECT_EQ(plan.order.first[7], 12);  // its own of round 1 last
  EXPECT_EQ(plan.chunk_bands, 4);      // 4 x 256 rows x 2048 columns = 4 MiB a band: whole rows
  EXPECT_EQ(plan.chunk_cols(), 1);
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
  EXPECT_EQ((AllGatherLayout{8192, 8192, 2, 2}.pieces()), 4);  // 64 MiB shards: 16 MiB pieces
  EXPECT_EQ((AllGatherLayout{8192, 8192, 4, 2}.pieces()), 2);
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
    ASSERT_FALSE(order.overflow);
    // The tile rows in the order of the segments: each once; owners in pull order.
    std::vector<int> rows;
    for (int i = 0; i < order.segments; ++i)
      for (int t = order.first[i]; t < order.first[i] + order.height[i]; ++t) rows.push_back(t);
    ASSERT_EQ(int(rows.size()), tiles_m);
    EXPECT_EQ(int(std::set<int>(rows.begin(), rows.end()).size()), tiles_m);
    int last_distance = 0;
    for (int q = 0; q < tiles_m; ++q) {
      const int row0 = rows[std::size_t(q)] * kRows, row1 = std::min(row0 + kRows, m) - 1;
      const bool straddles_previous = row0 < owners.begin(rank) && row1 >= owners.begin(rank);
      if (straddles_previous) {
        EXPECT_EQ(q, tiles_m - 1) << "the tile row straddling the previous owner is not last";
        continue;
      }
      const int distance = (owners.owner(row0) - rank + world) % world;
      EXPECT_GE(distance, last_distance) << "order position " << q;
      last_distance = distance;
    }
    Scheduler scheduler(m, n, 1);
    scheduler.rows = &order;
    std::set<std::pair<int, int>> seen;
    int last_segment = 0;
    for (int t = 0; t < scheduler.cluster_tiles(); ++t) {
      const auto tile = scheduler.tile(t, 0);
      EXPECT_TRUE(seen.insert({tile.m_block, tile.n_block}).second) << "tile " << t << " twice";
      const int segment = segment_of(order, tile.m_block / kRows);
      EXPECT_GE(segment, last_segment) << "tile " << t << " goes back to an earlier segment";
      last_segment = segment;
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
