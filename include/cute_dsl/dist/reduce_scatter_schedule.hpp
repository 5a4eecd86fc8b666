// The order in which one rank's GEMM computes its tiles for a fused reduce-scatter or all-reduce,
// and the chunks its partials travel in (epilogue/reduce_scatter.hpp, docs/design/distributed.md).
//
// Keys, alike on every rank. Tile rows ("tile rows": cluster tiles of TileM x ClusterM rows) are
// keyed by the owner of their first row; each owner's keyed rows are cut into `rounds` sub-groups
// (sub(o, s), s = 0 .. rounds - 1, top to bottom). A rank "holds" the tile rows with any of its own
// rows: its keyed rows, and the one before them when an owner boundary falls inside a tile row.
//
// Order of rank r: round by round, the other owners' sub-groups of that round -- r + 1's, r + 2's,
// ... (rows r holds left out) -- and then the rows r holds of the PREVIOUS round:
//   F(0), F(1), H(0), F(2), H(1), ..., F(R-1), H(R-2), H(R-1).
// The held rows wait for the peers' partials of them (the owner reduces them on the way out), so
// they come a round late: the peers computed them during F(s), and the partials had all of F(s+1)
// to arrive. One round (the default): every foreign row, then the held ones. More rounds
// (ReduceScatterLayout::rounds) reduce each round's held rows -- and, for an all-reduce, send them
// to every peer -- while the GEMM still computes later rounds, so less is left to send after it.
// Measured on 4 x H100 (docs/design/distributed.md) they did not pay: the copies out of a GPU are
// the all-reduce's long pole there, and a broadcast sent earlier only delays the partials the held
// rows wait for.
//
// A segment of the order is the rows of one sub-group that the rank holds, or those it does not;
// chunk = (segment key, held by the sender or not, run of `chunk_bands` raster bands). Once the
// GEMM finished all tiles of a chunk the copy engine sends their rows to their owners. Every rank
// numbers chunks alike, so a receiver knows which of a sender's chunks holds a tile without the
// sender's schedule.
//
// No cycle: a tile waits only for peers' chunks of its rows; on the peers those rows are foreign
// (tiles that never wait) of the same round, or held (tiles that publish before they wait), and
// before them in every CTA's sequence come only held rows of earlier rounds -- by induction over
// rounds, all finish. Every CTA of the persistent grid is resident.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/dist/reduce_scatter_layout.hpp"
#include "cute_dsl/kernels/gemm_tile_scheduler.hpp"

namespace cute_dsl::dist {

struct ReduceScatterSchedule {
  int m, n;
  int world, rank;
  int tile_rows;    // rows of a cluster tile (TileM x ClusterM)
  int tile_n;       // columns of a tile
  int band_tiles;   // tile columns per raster band
  int cta_tiles;    // CTA tiles per cluster tile (ClusterM): each publishes once
  int tiles_m, tiles_n, bands;
  int rounds;       // sub-groups per owner
  int chunk_bands;  // raster bands per chunk
  kernels::GemmRowOrder order;  // what the GEMM's tile scheduler follows

  // A chunk: at least this many bytes of one sub-group, as far as the bands go (whole rows: one
  // contiguous copy). Copy engine figures behind it (bench/dist/copy_engine_bandwidth.cu, 4 x
  // H100, every GPU sending to every other at once): 199 / 264 / 334 / 362 GB/s out of a GPU in
  // copies of 4 / 8 / 16 / 32 MiB -- ~8 us a copy on top of ~370 GB/s.
  static constexpr long long kChunkBytes = 16LL << 20;

  // Rank `rank`'s schedule. @pre layout.m, layout.n >= 1; 0 <= rank < layout.world; band_tiles * tile_n >= 512
  CUTE_DSL_HOST_DEVICE static constexpr ReduceScatterSchedule make(ReduceScatterLayout const& layout, int rank, int tile_rows,
                                                                   int tile_n, int band_tiles, int cta_tiles) {
    ReduceScatterSchedule s{layout.m, layout.n, layout.world, rank, tile_rows, tile_n, band_tiles, cta_tiles, 0, 0, 0, 1, 1, {}};
    s.tiles_m = (layout.m + tile_rows - 1) / tile_rows;
    s.tiles_n = (layout.n + tile_n - 1) / tile_n;
    s.bands = (s.tiles_n + band_tiles - 1) / band_tiles;
    const long long element = layout.element_bytes > 0 ? layout.element_bytes : 1;
    const int share = (layout.owners().max_rows() + tile_rows - 1) / tile_rows;  // tile rows of the largest share
    int rounds = layout.rounds > 0 ? layout.rounds : 1;
    rounds = rounds > ReduceScatterLayout::kMaxRounds ? ReduceScatterLayout::kMaxRounds : rounds;
    rounds = rounds > share ? share : rounds;
    s.rounds = rounds < 1 ? 1 : rounds;
    const int band_cols = band_tiles * tile_n < layout.n ? band_tiles * tile_n : layout.n;
    const long long band_bytes = (long long)((share + s.rounds - 1) / s.rounds) * tile_rows * band_cols * element;
    const long long target = layout.chunk_bytes > 0 ? layout.chunk_bytes : kChunkBytes;
    const long long chunk_bands = (target + band_bytes - 1) / band_bytes;
    s.chunk_bands = chunk_bands > s.bands ? s.bands : chunk_bands < 1 ? 1 : int(chunk_bands);

    for (int round = 0; round < s.rounds; ++round) {
      for (int j = 1; j < s.world; ++j) s.append_foreign((rank + j) % s.world, round);
      if (round > 0) s.append_held(round - 1);
    }
    s.append_held(s.rounds - 1);
    return s;
  }

  // --- Keys, alike on every rank ---
  CUTE_DSL_HOST_DEVICE constexpr RowOwners owners() const { return {m, world}; }
  // Tile rows keyed by owner o: [key_begin(o), key_begin(o + 1)). @pre 0 <= o <= world
  CUTE_DSL_HOST_DEVICE constexpr int key_begin(int o) const { return (owners().begin(o) + tile_rows - 1) / tile_rows; }
  // Sub-group s of owner o: tile rows [sub_begin(o, s), sub_begin(o, s + 1)) (may be empty).
  CUTE_DSL_HOST_DEVICE constexpr int sub_begin(int o, int s) const {
    return key_begin(o) + int((long long)s * (key_begin(o + 1) - key_begin(o)) / rounds);
  }
  // The key of tile row t: owner x rounds + sub-group. @pre 0 <= t < tiles_m
  CUTE_DSL_HOST_DEVICE constexpr int key(int t) const {
    const int o = owners().owner(t * tile_rows), d = t - key_begin(o), len = key_begin(o + 1) - key_begin(o);
    return o * rounds + ((d + 1) * rounds - 1) / len;  // the last s with sub_begin(o, s) <= t
  }
  // Tile rows rank q holds: [held_begin(q), held_end(q)).
  CUTE_DSL_HOST_DEVICE constexpr int held_begin(int q) const { return owners().rows(q) > 0 ? owners().begin(q) / tile_rows : 0; }
  CUTE_DSL_HOST_DEVICE constexpr int held_end(int q) const { return owners().rows(q) > 0 ? (owners().begin(q + 1) - 1) / tile_rows + 1 : 0; }
  CUTE_DSL_HOST_DEVICE constexpr bool holds(int q, int t) const { return held_begin(q) <= t && t < held_end(q); }
  CUTE_DSL_HOST_DEVICE constexpr int band_of(int col) const { return col / (band_tiles * tile_n); }
  // Runs of chunk_bands bands.
  CUTE_DSL_HOST_DEVICE constexpr int chunk_cols() const { return (bands + chunk_bands - 1) / chunk_bands; }
  // The chunk of rank `sender` that holds tile row t, columns of band `band`: below chunks().
  CUTE_DSL_HOST_DEVICE constexpr int chunk(int t, int band, int sender) const { return keyed_chunk(key(t), holds(sender, t), band); }
  // The same from the tile row's key (key(t): several divisions, worth computing once when one
  // tile row's chunk is wanted for every sender).
  CUTE_DSL_HOST_DEVICE constexpr int keyed_chunk(int key, bool held, int band) const {
    return (key * 2 + (held ? 1 : 0)) * chunk_cols() + band / chunk_bands;
  }
  // The chunk every sender sends of tile row t, band `band`, when the receiver alone holds the row
  // (no sender holds any of its rows): one number for all senders, so that tiles with equal
  // numbers wait for the same arrival flags (a receiver acquires them once).
  // @pre holds(q, t) only for the receiver q
  CUTE_DSL_HOST_DEVICE constexpr int own_row_chunk(int t, int band) const { return keyed_chunk(key(t), false, band); }
  CUTE_DSL_HOST_DEVICE constexpr int chunks() const { return world * rounds * 2 * chunk_cols(); }
  // Columns [col_begin(c), col_end(c)) of run c.
  CUTE_DSL_HOST_DEVICE constexpr int col_begin(int c) const { return c * chunk_bands * band_tiles * tile_n; }
  CUTE_DSL_HOST_DEVICE constexpr int col_end(int c) const {
    const int e = (c + 1) * chunk_bands * band_tiles * tile_n;
    return e < n ? e : n;
  }

  // --- This rank's order ---
  // Segment i's chunk of run c, and the CTA tiles in it: what its counter gains per launch.
  CUTE_DSL_HOST_DEVICE constexpr int segment_chunk(int i, int c) const { return chunk(order.first[i], c * chunk_bands, rank); }
  CUTE_DSL_HOST_DEVICE constexpr unsigned chunk_tiles(int i, int c) const {
    const int c0 = c * chunk_bands * band_tiles, c1 = (c + 1) * chunk_bands * band_tiles;
    return unsigned(order.height[i] * cta_tiles * ((c1 < tiles_n ? c1 : tiles_n) - c0));
  }
  CUTE_DSL_HOST_DEVICE constexpr bool segment_held(int i) const { return holds(rank, order.first[i]); }

 private:
  // Sub-group `round` of owner o, less the rows this rank holds (one side of it at most).
  CUTE_DSL_HOST_DEVICE constexpr void append_foreign(int o, int round) {
    const int a = sub_begin(o, round), b = sub_begin(o, round + 1), h0 = held_begin(rank), h1 = held_end(rank);
    order.append(a, b < h0 ? b : h0);
    order.append(a > h1 ? a : h1, b);
    if (h0 < h1 && a < h0 && b > h1) order.overflow = true;  // not possible (the held rows end a key range or start one)
  }
  // The rows this rank holds of round `round`, top to bottom: per owner key, one run.
  CUTE_DSL_HOST_DEVICE constexpr void append_held(int round) {
    const int h0 = held_begin(rank), h1 = held_end(rank);
    for (int o = 0; o < world; ++o) {
      const int a = sub_begin(o, round), b = sub_begin(o, round + 1);
      order.append(a > h0 ? a : h0, b < h1 ? b : h1);
    }
  }
};

}  // namespace cute_dsl::dist
