// The Hopper GEMM's choice of variant and split-K (kernels/gemm_sm90_launch.hpp launches it): two
// models of a launch's time, stated here and measured in docs/design/gemm_sm90_parts.md.
//   compute  waves of tiles over the SMs, each wave costing its tile area over how close that tile
//            shape gets to the 128 x 256 tile's speed, plus the zeros its last row block loads
//            past M; split-K where the tiles leave SMs idle;
//   stream   decode (M <= 64: one 64-row tile holds every row): the GEMM streams B, and its time is
//            the HBM's rate or each CTA's ring, whichever is slower (gemm_sm90_stream_time);
//   swap     M <= 16, or M <= 32 with enough columns (a plain GEMM over a K-major A): A and B
//            swapped, A's rows one 16- or 32-column tile of wgmma's N, B's rows its 128-row tiles,
//            each stage all but free of zeros.
// Plain host C++ (no CUDA): host compilers and nvcc compile it alone, and host tests check the
// choices without a GPU; under NVRTC (device code only) it is empty. It runs on every launch that
// leaves the choice to it (gemm_sm90_resolve): keep it to a few microseconds.
#pragma once

#include "cute_dsl/config.hpp"

#if CUTE_DSL_HOST_ONLY_CODE

#include <algorithm>
#include <cmath>

#include "cute_dsl/arch/sm90/wgmma.hpp"
#include "cute_dsl/kernels/gemm_sm90_configs.hpp"
#include "cute_dsl/kernels/gemm_tile_scheduler.hpp"

namespace cute_dsl::kernels {

struct GemmShape {
  int m, n, k, l;
};

// Tiles of `rows` x `cols` that cover the shape's M x N, every batch (rows: a cluster's, for
// cluster tiles).
inline long long gemm_sm90_tiles(GemmShape s, int rows, int cols) {
  return (long long)((s.m + rows - 1) / rows) * ((s.n + cols - 1) / cols) * s.l;
}

// Whether a variant can run an operand layout: 64- and 192-row tiles split B between the consumers at
// TileN / 2 columns, which MN-major B needs to be whole 64-column blocks, and a 128-row tile
// of whole 64-column blocks plus 32 columns (96, 160, 224) reads B K-major only; a swapped variant
// (swap_ab) reads A as its B in 16- or 32-row tiles, which needs A K-major.
inline bool gemm_sm90_config_supports(GemmSm90Config c, GmmaMajor major_b, GmmaMajor major_a = GmmaMajor::K) {
  if (c.swap_ab && major_a != GmmaMajor::K) return false;
  // An MN-major B comes in 64-column swizzle blocks: the 96-, 160- and 224-column tiles need it
  // K-major, and so does a cluster over which a tile's several blocks do not split evenly (128 x
  // 192 in clusters of 2: three blocks; the TMA atom's multicast rule).
  if (!c.swap_ab && c.tile_m == 128 && c.tile_n % 64 != 0 && major_b != GmmaMajor::K) return false;
  const int blocks = c.tile_n / 64, cluster = c.cluster_m > 1 ? c.cluster_m : 1;
  if (!c.swap_ab && c.tile_m == 128 && blocks > 1 && blocks % cluster != 0 && major_b != GmmaMajor::K) return false;
  // The split-N tiles (64 and 192 rows) give each consumer TileN / 2 columns of B.
  return !(c.tile_m != 128 && !c.ping_pong && major_b == GmmaMajor::MN && (c.tile_n / 2) % 64 != 0);
}

// Split-K (gemm_tile_scheduler.hpp), in two cases, both cutting a tile's K loop into ranges of at
// least 4 k-blocks (256 of K):
//   few tiles   tiles fill at most half of the wave (`per_wave` tiles run at once: decode, small
//               outputs over a huge K): every tile split so that tiles x splits fits the wave;
//   tail        several tiles per slot, and the last wave at most half full: only its tiles are
//               split, across the slots the full waves leave idle (3000^3 in 128 x 256 tiles on
//               66 clusters: 2 waves + 12 tiles).
// A split tile takes 1/splits of a tile's time plus its reduction: the last split reads every
// split's f32 partial tile back through L2, ~splits x 4 bytes per output row it holds against
// the tile's 2 x K flops per output; with a few fixed costs per split (the ring refilled, the
// counter) that is splits x kGemmSplitReadK x (rows read / TileM) / K tiles' time. 480: at 240
// (an estimate from ~50 GB/s of partials per SM against ~5.7 TFLOP/s) the H100 sweep of
// 2026-11-26 ran 256 x 1536 x 4096 12% slower in 128 x 64 tiles split 2 ways than in 64 x 64
// tiles whole, which the model had ranked the other way. The split count minimises 1/splits +
// that, and a split is made only where it saves at least a tenth of a tile. Decode's few tiles
// (M <= 64) are planned by the stream model instead (gemm_sm90_plan_splits).
// `shared`: a cooperative 128-row tile whose rows are all in the output, split 3 ways or more,
// shares its reduction among its splits (reduce_split in gemm_sm90.hpp): each reads one tile of
// partials and the last one reads the sums, whatever the split count -- kGemmSharedSplitReads
// tiles' worth in the model instead of `splits`.
inline constexpr double kGemmSplitReadK = 480.0;
// Decode with at most this many rows of A runs swapped (gemm_sm90_heuristic): the widest
// swapped tile's columns (16 up to 16 rows, 32 above). (At M = 64 the swapped tile ran as fast as
// the 64-row one, and at 128 x 1536 x 4096 slower: above 32 rows the stream model keeps deciding.)
inline constexpr int kGemmSwapRows = 32;
inline constexpr int kGemmSwapRowsNarrow = 16;  // the narrow swapped tile's columns: always swapped up to here
// Above 16 rows a 64-row tile is half zeros or less, and the swapped 32-column tile wins only
// where its own tiles (N / 128) split at most 4 ways fill more than half of the SMs: with fewer,
// the splits it needs cost more than the zero rows it saves. H200, 2026-11-28, M = 17, 24, 32 x
// K 2048..14336 against the stream model's 64-row choice: N >= 4096 (>= 32 tiles) 72 shapes
// 0.926x the time, none 1% slower (bench/results/gemm_swap32_h200_2026-11-28.txt); N = 2560 and
// 3072 (20, 24 tiles) 24 shapes 0.958x, the worst +3.4%; N <= 2048 (<= 16 tiles) mixed, up to 11%
// slower (bench/results/gemm_swap32_all_n_h200_2026-11-28.txt, with the last-split reduction).
inline bool gemm_sm90_swap32_pays(GemmShape s, int sm_count) {
  return gemm_sm90_tiles(GemmShape{s.n, s.m, s.k, s.l}, 128, 32) * 4 * 2 > sm_count;
}
inline constexpr double kGemmSharedSplitReads = 3.0;
// The compute model's price of a row past M in a tile's last row block, in its area units (tile
// rows x columns at the 128 x 256 tile's speed), counted once per launch (those CTAs finish last)
// and over the split's share of K. In 128 x 64 tiles each such row cost 0.122 us at K = 4096
// (129..192 x 4096 x 4096: 39.1 us at 127 rows, 31.4 at 64; H200 2026-11-28), ~67 GB/s of zero
// fill per CTA against ~6 TFLOP/s of wgmma per SM: ~90 units; the stream model's decode rate
// (kFillBytesPerUs) makes 25. Of 25, 60 and 90, with and without the split's share, 60 with it
// lost least over the 142 ragged-M shapes timed (against the model without this term: 90 of a
// 750-shape grid choose otherwise, 0.901x the time in geomean, 4 slower by > 2%, the worst +7.5%),
// provided 64-row tiles run in one wave only (below): bench/results/gemm_rows_past_m_h200_2026-11-28.txt.
// Since the kernel loads a last row block's A in 32-row boxes (GemmSm90Params::tma_a_rows), only
// the rows past M up to the next box are zeros (gemm_sm90_fill_rows): counted so, the 120 choices
// that move in a 1440-shape grid ran 0.954x the time of the choices counted to the whole tile
// (same kernel; 0.928x against the kernel and model before; 28 of them slower by > 2%, the worst
// 1.20x; bench/results/gemm_row_boxes_h200_2026-11-28.txt).
inline constexpr double kGemmFillCostPerRow = 60.0;
// Rows per TMA box of A: gemm_sm90_box_rows_a for a K-major A; an MN-major A's boxes are 64 rows
// (64 16-bit elements: one 128-byte swizzle row) already.
inline int gemm_sm90_box_rows_a(int tile_m, GmmaMajor major_a) {
  return major_a == GmmaMajor::K ? gemm_sm90_box_rows_a(tile_m) : std::min(tile_m, 64);
}
// The rows past M that a last row block's TMA boxes of A fill with zeros: the kernel loads only
// the boxes that hold rows (gemm_sm90.hpp, GemmSm90Params::tma_a_rows), `box_rows` rows each.
inline int gemm_sm90_fill_rows(int m, int tile_m, int box_rows) {
  const int last = m - (m - 1) / tile_m * tile_m;  // rows of the last row block, 1..tile_m
  return (last + box_rows - 1) / box_rows * box_rows - last;
}
// A split tile runs in clusters of 2 (B multicast) where each split's K range is at least this
// long (gemm_sm90_heuristic): 64 k-blocks ...
inline constexpr int kGemmClusteredSplitMinK = 4096;
// ... or at least this long (32 k-blocks) where the row blocks pair up exactly (an even count: no
// cluster CTA runs past M) and N spans at least kGemmClusteredSplitMinColumnTiles tiles.
inline constexpr int kGemmClusteredSplitMinKPaired = 2048;
inline constexpr int kGemmClusteredSplitMinColumnTiles = 4;
// Rows off 128-byte lines: the 128 x 192 tile in clusters of 2 against 128 x 256 in clusters of
// 2, area per cluster wave divided by this (gemm_sm90_heuristic): where the waves tie, the wider
// tile's fewer line requests per flop win (6000 x 6000 x 3000: 303 against 319 us).
inline constexpr double kGemmClustered192Efficiency = 0.95;
// ... and the 192 x 192 tile in clusters of 2: at equal area 128 x 256 won by 2-3%, 128 x 192 lost
// by up to 6% (3000^3 87.5 against 83.7 us, 570 x 12216 x 6608 176.2 against 164.7).
inline constexpr double kGemmTile192Efficiency = 0.96;
// ... from this K on: below it the epilogue weighs more (when this was measured the 192-row tile
// also stored 32 of each consumer's 96 columns value by value; the staged half block that took
// them over since was timed at K >= 1072 only). Of the 60 shapes session 27's call 9 moved to it,
// those with K < 1024 ran 9 of 15 slower (up to +9.8%: 10122 x 1696 x 712), those from 1024 on 5
// of 45 (up to +4.9%) and 28 faster.
inline constexpr int kGemmTile192MinK = 1024;
struct GemmSplitPlan {
  int splits = 1;            // ranges per split tile (1: none); stream-K: workspace slots per tile
  long long split_from = 0;  // the first split tile (tiles before it run whole)
  int stream_ranges = 0;     // stream-K's ranges (0: split-K)
};
// Stream-K (gemm_tile_scheduler.hpp) over the tiles the full waves leave, on `clusters` clusters:
// their k-blocks cut into one range per cluster, each at least kGemmStreamMinBlocks long. None
// where the waves are full or a range would hold a whole tile or more (nothing to even out).
inline constexpr long long kGemmStreamMinBlocks = 4;
inline GemmSplitPlan gemm_sm90_stream_plan(long long tiles, int k, long long clusters) {
  GemmSplitPlan plan{1, tiles};
  if (tiles < 1 || clusters < 2) return plan;
  const long long tail = tiles % clusters, k_tiles = (k + 63) / 64;
  const long long ranges = std::min(clusters, tail * k_tiles / kGemmStreamMinBlocks);
  if (tail == 0 || ranges <= tail) return plan;
  const GemmStreamK sk{tail * k_tiles, int(ranges), int(k_tiles)};
  plan.splits = sk.pieces_per_tile(), plan.split_from = tiles - tail, plan.stream_ranges = int(ranges);
  return plan;
}
// Short K over a few waves: the 128 x 128 tile's efficiency there (gemm_sm90_heuristic), where a
// tile's fixed costs -- the ring's first loads, the epilogue -- weigh most: its 6 stages hold 3/4
// of a K = 512 tile's k-blocks while the CTA's previous tile stores (the 192- and 256-wide tiles' 4:
// half), and its tiles cut the last wave finer. Measured, not derived (H200, 2026-11-29, calls 13-14
// of bench/results/gemm_swap48_h200_2026-11-29.txt): at K <= 1536 over 2..16 waves of 128 x 128
// tiles, taking it in place of the 128 x 192 / 224 / 256 tiles chosen at efficiency 1.0 ran 0.980x
// the time on the 57 shapes it was fitted on (1951 x 8128 x 1088 66.7 -> 58.3 us, 11332 x 2888 x 256
// 48.4 -> 42.1, 2494 x 4352 x 512 30.5 -> 27.5; two +2%) and 0.990x on 93 other shapes, none slower
// by > 2% (2867 x 4456 x 320 28.6 -> 24.5). Not beyond: at K = 1537..2048 it lost on 6 of 17 (240 x
// 28672 x 2048 +10%), in one wave to the 128 x 96 tile (1000 x 1536 x 2048 +13%), and past ~20 waves
// it gained nothing (8192 x 8192 x 1024 +3.3%, 16384 x 4096 x 512 +5.2%).
inline constexpr double kGemmShortKEfficiency128 = 1.1;
// Where the 128 x 256 tile in clusters of 2 divides M and N (both multiples of 256) and D is 16-bit
// without C, a tile that does not (the 128 x 192 tile at N = 8192, 14336, 16384, 28672) counts at
// this efficiency. The cost model ranks waves of tile area, and there 128 x 192 came out 0.5-1.5%
// ahead; but its last column of tiles is mostly empty, and the 128 x 256 tile then runs in
// clusters of 2 (B multicast: 256 operand rows per CTA and 128 x 256 outputs against 320 per
// 128 x 192). Plain GEMMs, H200, 2026-11-29 (bench/results/gemm_session29_h200_2026-11-29.txt,
// calls 11-12): 23 such shapes, none slower, 0.97x the time in geomean (8192^3 1566 -> 1482 us,
// 8192 x 28672 x 4096 2785 -> 2581, 4096 x 16384 x 512 136.6 -> 131.6). An epilogue tree gains
// more: over whole tiles the launchers take a kernel without the edge paths, whose registers made
// bias + GELU spill (JIT bias + GELU 0.953x on 9 shapes, call 9). Only there: applied wherever any
// candidate's tiles were whole, it also moved shapes to smaller whole tiles, which lost (448 x 1024
// x 8192 to 64 x 64 +5%, 640 x 14336 x 1024 to 128 x 128 +10%, call 12); with an f32 D or C read
// (beta != 0) it went both ways (call 14: 8192 x 8192 x 1024 with f32 D +6%, 8192 x 28672 x 4096
// with beta = 1 +4%, 4096 x 28672 x 4096 with beta = 1 -3%). Timed with both operands K-major, bf16.
inline constexpr double kGemmEdgeTileEfficiency = 0.965;
inline bool gemm_sm90_short_k_waves(int k, long long tiles, int sm_count) {
  return k <= 1536 && tiles >= 2LL * sm_count && tiles <= 16LL * sm_count;
}
// The time of a split tile, in tiles' time; `rows`: the fraction of the tile's rows in the output.
inline double gemm_sm90_split_tile_time(int splits, int k, double rows = 1.0, bool shared = false) {
  const double reads = shared && gemm_sm90_shares_split_reduction(128, kGemmSharedSplitMinN, false, splits, rows >= 1.0) ? kGemmSharedSplitReads : splits;
  return 1.0 / splits + reads * kGemmSplitReadK * rows / (k > 0 ? k : 1);
}
// Whether a variant's split tiles may share their reduction (given enough splits and whole rows).
inline bool gemm_sm90_shares_split_reduction(GemmSm90Config c) {
  return gemm_sm90_shares_split_reduction(c.tile_m, c.tile_n, c.ping_pong, kGemmSharedSplitMin, true);
}
inline GemmSplitPlan gemm_sm90_split_plan(long long tiles, int k, long long per_wave, int max_splits = 32, double rows = 1.0,
                                          bool shared = false) {
  GemmSplitPlan plan{1, tiles};
  if (tiles < 1 || per_wave < 1) return plan;
  const long long tail = tiles % per_wave;
  const bool few = tiles * 2 <= per_wave;
  if (!few && (tail == 0 || tail * 2 > per_wave)) return plan;
  long long cap = per_wave / (few ? tiles : tail);
  const long long k_blocks = (k + 63) / 64;
  if (cap > k_blocks / 4) cap = k_blocks / 4;
  if (cap > max_splits) cap = max_splits;
  double best = 0.9;  // at least a tenth of a tile saved
  for (int splits = 2; splits <= cap; ++splits)
    if (const double t = gemm_sm90_split_tile_time(splits, k, rows, shared); t < best) best = t, plan.splits = splits;
  if (plan.splits > 1) plan.split_from = few ? 0 : tiles - tail;
  return plan;
}
// The time of `tiles` tiles in waves of `per_wave`, in tiles' time, with `plan`'s split.
inline double gemm_sm90_split_waves(long long tiles, long long per_wave, int k, GemmSplitPlan plan, double rows = 1.0,
                                    bool shared = false) {
  const long long whole = plan.splits > 1 ? plan.split_from : tiles;
  double waves = double((whole + per_wave - 1) / per_wave);
  if (plan.splits > 1) waves += gemm_sm90_split_tile_time(plan.splits, k, rows, shared);
  return waves;
}
// The fraction of a TileM-row tile that M fills (below one tile: decode).
inline double gemm_sm90_rows_held(int m, int tile_m) { return m < tile_m ? double(m) / tile_m : 1.0; }
// The stream model (decode: every row of A in one 64-row tile). Two bounds on streaming the
// operands, combined as (x^4 + y^4)^(1/4): the slower one decides, and among choices the HBM
// bounds alike, the one whose CTAs have more slack wins (a plain maximum made those ties and put
// 1..64 x 12288 x 4096 on 128 x 128 tiles: 52-56 us against 50-53, H100):
//   per CTA  a CTA keeps its ring's stages in flight, so it finishes `stages` k-blocks per load
//            latency (Little's law), and its TMA writes a box's rows past M as zeros into shared
//            memory at its own rate -- a 128-row tile over M = 1 fills 127 rows of A per k-block
//            (1 x 28672 x 4096 ran 141 us in 128 x 64 tiles, 102 in 64 x 64, 95 in 64 x 128);
//   HBM      the operands' unique bytes at the rate decode GEMMs reach: 2.6 TB/s, what ours reached at
//            1 x 28672 x 4096 (235 MB in 91 us; cuBLAS 96). It was 3.2 until 2026-11-28: that rate
//            let 32 swapped tiles (1..16 x 4096 x 4096) look bound by their rings and split 4 ways,
//            6% slower than whole; at 2.6 the 63 launcher choices that change among 1440 decode shapes
//            ran 2.7% faster in geomean (30 faster by > 2%, 8 slower; H100,
//            bench/results/gemm_decode_hbm_rate_h100_2026-11-28.txt).
// Compute (wgmma at the tile shape's efficiency) bounds it too. A split adds a fixed cost and the
// last split's reads of the others' partials: one L2 round trip per chunk of 32 values and group
// of splits (reduce_split in gemm_sm90.hpp). Fitted on an H100 to the choices, not the times: of
// the forms and constants tried, the one that loses least against the fastest measured choice
// over the 56 decode shapes timed in more than one variant or split (the session-6 probe, the
// decode A/Bs and sweeps of docs/design/gemm_sm90_parts.md "A stream model for decode"). Times
// in microseconds, without the launch's fixed cost (the same for every choice).
struct GemmStreamModel {
  static constexpr double kLoadLatencyUs = 2.0;     // a TMA load from HBM, issue to arrival
  static constexpr double kHbmBytesPerUs = 2.6e6;   // 2.6 TB/s of unique operand bytes
  static constexpr double kFillBytesPerUs = 2.4e5;  // zero-filled box rows, per CTA (240 GB/s)
  static constexpr double kSmFlopsPerUs = 6.0e6;    // one SM's wgmma rate in the 128 x 256 tile
  static constexpr double kSplitFixedUs = 2.0;      // a split's counter, barriers and ring refill
  static constexpr double kSplitRoundTripUs = 1.0;  // one L2 round trip of the last split's reads
};
// Whether the stream model chooses: one 64-row tile holds every row of A.
inline bool gemm_sm90_streams_b(GemmShape s) { return s.m <= 64; }
// (x^4 + y^4)^(1/4) for x, y >= 0.
inline double gemm_sm90_norm4(double x, double y) { return std::sqrt(std::sqrt(x * x * x * x + y * y * y * y)); }
// The estimated time of configuration `c` split `splits` ways over `sm_count` SMs (stream model).
inline double gemm_sm90_stream_time(GemmShape s, GemmSm90Config c, int splits, int sm_count) {
  using Model = GemmStreamModel;
  const int tile_m = c.tile_m, tile_n = c.tile_n, cluster = c.cluster_m > 0 ? c.cluster_m : 1;
  const long long tiles = gemm_sm90_tiles(s, tile_m, tile_n);
  const long long units = tiles * splits, per_wave = sm_count >= cluster ? sm_count / cluster * cluster : cluster;
  const double waves = double((units + per_wave - 1) / per_wave);
  const double k = double(s.k) / splits;
  const double fill_rows = s.m < tile_m ? tile_m - s.m : 0;
  const double cta_us = (k / 64.0) / c.stages * Model::kLoadLatencyUs + fill_rows * k * 2.0 / Model::kFillBytesPerUs;
  const double hbm_us = ((double)s.m * s.k + (double)s.n * s.k + (double)s.m * s.n) * 2.0 * s.l / Model::kHbmBytesPerUs;
  const double stream_us = gemm_sm90_norm4(waves * cta_us, hbm_us);
  const double efficiency = tile_m == 64 ? (tile_n < 64 ? 0.5 : tile_n == 64 ? 0.6 : 0.7) : tile_n >= 192 ? 1.0 : tile_n == 128 ? 0.9 : 0.75;
  const double compute_us = waves * 2.0 * tile_m * tile_n * k / (Model::kSmFlopsPerUs * efficiency);
  double split_us = 0;
  if (splits > 1) {
    const int values = tile_m * tile_n / 256;  // per consumer thread
    const int chunks = values < 32 ? 1 : values / 32, group = values <= 16 ? 4 : values <= 32 ? 2 : 1;
    split_us = Model::kSplitFixedUs + chunks * ((splits + group - 1) / group) * Model::kSplitRoundTripUs;
  }
  return (stream_us > compute_us ? stream_us : compute_us) + split_us;
}
// The split the stream model picks for `c` (at most `max_splits`): where the tiles fill at most
// half of the wave, the count with the least estimated time; ranges of at least 4 k-blocks.
inline int gemm_sm90_stream_splits(GemmShape s, GemmSm90Config c, int sm_count, int max_splits = 32) {
  const int cluster = c.cluster_m > 0 ? c.cluster_m : 1;
  const long long tiles = gemm_sm90_tiles(s, c.tile_m * cluster, c.tile_n);
  const long long per_wave = sm_count / cluster;
  if (tiles < 1 || tiles * 2 > per_wave) return 1;
  long long cap = per_wave / tiles;
  if (const long long k_blocks = (s.k + 63) / 64; cap > k_blocks / 4) cap = k_blocks / 4;
  if (cap > max_splits) cap = max_splits;
  int best = 1;
  double best_us = gemm_sm90_stream_time(s, c, 1, sm_count);
  for (int splits = 2; splits <= cap; ++splits)
    if (const double us = gemm_sm90_stream_time(s, c, splits, sm_count); us < best_us) best_us = us, best = splits;
  return best;
}

// The split the launcher makes of configuration `c` on `sm_count` SMs, at most `max_splits` ranges
// per tile: decode, and a swapped config's view, by the stream model (every tile split, where the
// tiles fill at most half of the wave); otherwise split-K's tile-time model (gemm_sm90_split_plan: few tiles, or the last
// wave's). The heuristic and the launcher both ask this, so a chosen split is the launched one.
// A swapped config (swap_ab) is planned on the kernel's view, N x M: the launcher, which holds the
// swapped arguments already, asks with that shape and the config without the flag.
inline GemmSplitPlan gemm_sm90_plan_splits(GemmShape s, GemmSm90Config c, int sm_count, int max_splits = 32) {
  if (c.swap_ab) {
    c.swap_ab = false;
    s = GemmShape{s.n, s.m, s.k, s.l};
  }
  const int cluster = c.cluster_m > 0 ? c.cluster_m : 1;
  const long long tiles = gemm_sm90_tiles(s, c.tile_m * cluster, c.tile_n);
  // A swapped kernel's view (16- and 32-column tiles exist for swap-AB only) streams its A -- the
  // user's B -- as decode streams B: the stream model plans it too. Its counts measured best
  // where the tile-time model's did not (H100, 2026-11-27: 1 x 1536 x 4096 4 splits 13.7 us
  // against 11 splits 14.0-14.1; 1 and 16 x 6144 x 4096 whole 28.5-28.8 against 2 splits 30.6-30.9;
  // bench/results/gemm_swapped_splits_h100_2026-11-27.txt).
  if (c.stream_k && !c.ping_pong) {  // asked for (the heuristic's choice, or explicitly)
    if (const GemmSplitPlan plan = gemm_sm90_stream_plan(tiles, s.k, sm_count / cluster); plan.stream_ranges > 0) return plan;
  }
  // Tiles narrower than 64 columns: the swapped views, and the 64 x 48 tile, whose few-tile
  // launches (M > 64 too: 128 x 1536 x 4096 split 2 ways) take the stream model's plan as well --
  // the plan its A/B timed (bench/results/gemm_tile64x48_h100_2026-11-28.txt).
  const bool narrow = c.tile_n < 64;
  if ((gemm_sm90_streams_b(s) || narrow) && tiles * 2 <= sm_count / cluster) {
    const int splits = gemm_sm90_stream_splits(s, c, sm_count, max_splits);
    return GemmSplitPlan{splits, splits > 1 ? 0 : tiles};
  }
  return gemm_sm90_split_plan(tiles, s.k, sm_count / cluster, max_splits, gemm_sm90_rows_held(s.m, c.tile_m * cluster),
                              gemm_sm90_shares_split_reduction(c));
}
inline int gemm_sm90_split_k(GemmShape s, GemmSm90Config c, int sm_count) { return gemm_sm90_plan_splits(s, c, sm_count).splits; }

// What a launch tells the heuristic besides its shape (gemm_sm90_heuristic, gemm_sm90_resolve),
// named at the call: e.g. `{.major_b = GmmaMajor::MN}`, `{.rows_128b_aligned = false}`.
struct GemmLaunchFacts {
  GmmaMajor major_a = GmmaMajor::K;
  GmmaMajor major_b = GmmaMajor::K;
  bool rows_128b_aligned = true;  // every operand row on a 128-byte line (gemm_sm90_rows_128b_aligned)
  bool may_swap_ab = true;        // a plain GEMM over a K-major A: the swapped variants may take it
  // beta's C through the operand ring (gemm_sm90_c_through_ring), which the 128 x 96 tile cannot
  // take (its C stages are not whole 64-column blocks, gemm_sm90_impl::kTakesRingC)
  bool ring_c = false;
  // an epilogue tree (gemm_sm90_fused): the 128 x 96 tile is not chosen either, never having run one on a GPU
  bool fused = false;
  int d_bytes = 2;       // D's element size
  bool reads_c = false;  // beta != 0: C read, in the epilogue or through the ring
  friend constexpr bool operator==(GemmLaunchFacts const&, GemmLaunchFacts const&) = default;
};

// Picks the variant with the smallest estimated time: waves of tiles over the SMs (few tiles:
// split-K's shorter wave counted, gemm_sm90_split_waves), each wave costing its tile area divided by
// how close that tile shape gets to the 128 x 256 tile's speed (a smaller tile re-reads its
// operands more often per flop). Clusters of 2 for the 128 x 256
// tile when M has two row blocks, there is more than one wave of tiles and the cluster tiles need
// no more waves than the tiles alone; rows off 128-byte
// lines switch to that tile and cluster (see below). 64-row tiles pay off for M <= 64, where a
// 128-row tile would multiply zeros in half of its rows; there (M <= 64) the stream model decides,
// but for M <= 16 (and M <= 32 where gemm_sm90_swap32_pays) where the caller may swap A and B
// (`facts.may_swap_ab`). Where C comes through the ring or an epilogue tree is fused, the 128 x 96
// tile is not chosen (GemmLaunchFacts).
inline GemmSm90Config gemm_sm90_heuristic(GemmShape s, int sm_count, GemmLaunchFacts facts = {}) {
  const GmmaMajor major_a = facts.major_a, major_b = facts.major_b;
  const bool rows_128b_aligned = facts.rows_128b_aligned, may_swap_ab = facts.may_swap_ab, ring_c = facts.ring_c, fused = facts.fused;
  if (may_swap_ab && (s.m <= kGemmSwapRowsNarrow || (s.m <= kGemmSwapRows && gemm_sm90_swap32_pays(s, sm_count)))) {
    // Every row of A fits one 16- or 32-column tile of the swapped kernel (swap_ab): its stages carry
    // 128 rows of B and 16 (32) of A where a 64-row tile carries 64 of A (all but M of them zeros) and
    // 64-128 of B, so each CTA streams more of B per stage and the TMA fills less; the split from
    // the stream model over the kernel's N x M view (gemm_sm90_plan_splits). H200, 2026-11-27 (bench/results/gemm_swap_ab_h200_2026-11-27.txt):
    // 1 x 4096 x 4096 21.4 -> 18.0-18.8 us, 1 x 1536 x 4096 14.1 -> 11.9-12.4 (split 4-16), 1 x 28672 x 4096
    // 77.0 -> 68.6-69.7, 16 x 4096 x 4096 21.0 -> 18.8-19.6 (cuBLAS 17.8, 10.9, 69.2, 17.9).
    GemmSm90Config swapped{s.m <= kGemmSwapRowsNarrow ? kGemmSwapRowsNarrow : kGemmSwapRows, 10, 1, false, 128, 0, true};
    swapped.splits = gemm_sm90_plan_splits(s, swapped, sm_count).splits;
    return swapped;
  }
  if (gemm_sm90_streams_b(s)) {
    // Decode: every variant without clusters, each at its best split, by the stream model. (The
    // compute model below ranked a 128 x 256 tile split 5 ways first at 1 x 6144 x 4096: 54 us
    // against 30 for 64 x 64 tiles whole, H100 2026-11-27.)
    // The 64 x 48 tile only where the 64 x 64 one would be split: there each CTA's ring is the
    // bound, and 4/3 as many CTAs shorten it as a split does; where the 64 x 64 tiles run whole
    // the HBM is the bound, and the narrow tile lost (H100, 2026-11-28: 32 x 4096 x 4096 23.0 us
    // against 21.8, 64 x 1536 x 4096 13.9 against 14.9; bench/results/gemm_tile64x48_h100_2026-11-28.txt).
    const bool narrow_pays = gemm_sm90_stream_splits(s, GemmSm90Config{64, 12, 1, false, 64}, sm_count) > 1;
    GemmSm90Config best{};
    double best_us = 0;
    for (GemmSm90Config c : kGemmSm90Configs) {
      // Swapped variants (swap_ab) are not in the stream model yet: launched when asked for.
      if (c.cluster_m != 1 || c.ping_pong || c.swap_ab || !gemm_sm90_config_supports(c, major_b)) continue;
      if (c.tile_n < 64 && !narrow_pays) continue;
      if (c.tile_n % 64 == 32) continue;  // the one-wave 128 x 96, 160 and 224 tiles: not timed for decode
      c.splits = gemm_sm90_stream_splits(s, c, sm_count);
      if (const double us = gemm_sm90_stream_time(s, c, c.splits, sm_count); best.tile_n == 0 || us < best_us) best = c, best_us = us;
    }
    return best;
  }
  struct Candidate {
    int tile_m, tile_n, stages;  // rows of M and columns of N per tile
    double efficiency;
    bool swapped = false;  // the swapped kernel's 128 x tile_m tile over N x M (swap_ab)
  };
  // The 128 x 192 tile runs as fast per flop as the 128 x 256 one (H100, 2026-11-26: 8192^3 1375
  // us against 1463 for 128 x 256 in clusters of 2; cuBLAS 1366); it fills waves where the wide
  // tile leaves them short (N = 1536: 8 columns of tiles instead of 6).
  // The 64 x 48 tile: where the SMs, not the operands' reuse, bound a launch (fewer tiles than
  // SMs), each CTA's time follows the bytes it streams, (TileM + TileN) x K x 2 for 2 TileM TileN K
  // flops: 112 / 3072 against the 64 x 64 tile's 128 / 4096 bytes per flop, 7/6 of it, so 0.6 x 6/7
  // ~ 0.5. It wins where its 4/3 as many column blocks fill SMs that 64 x 64 tiles leave idle
  // (256 x 1536 x 4096: 128 tiles against 96 on 132 SMs).
  // The 64 x 128 tile (0.65: its waves ran 0.66 of the 128 x 192 tile's speed per flop at 320 x
  // 12288 x 4096): M in 64-row blocks where 128-row tiles would carry a mostly empty last row block
  // and 64 x 64 tiles would need a second wave (288 and 320 x 3072 x 1024..8192: 0.78-0.87x the
  // time of 64 x 64 tiles; H200 2026-11-28, bench/results/gemm_rows_past_m_h200_2026-11-28.txt).
  // The 128 x 96 tile (0.8, between the 128 x 64 and 128 x 128 tiles): in one wave, where its 4/3
  // as many column blocks fill SMs that 128 x 128 tiles leave idle (1024 x 1536 x 4096: 128 CTAs
  // against 96, 23.2 us against 26.2; H200 2026-11-28, bench/results/gemm_tile128x96_h200_2026-11-28.txt).
  // Over two waves it ran slower than the 128 x 128 and 128 x 192 tiles (2048 x 3072 x 4096: 84
  // us against 69).
  // The 128 x 224 and 128 x 160 tiles (0.95: per flop 5% slower than 128 x 256 and 3-4% slower
  // than 128 x 192 in one wave) likewise, between the 256-, 192- and 128-column tiles: where one
  // wave of them holds the output and fills more of the SMs (534 x 3584 x 8192: 115 tiles of
  // 128 x 160 against 95 of 128 x 192, 56.9 us against 66.1; 330 x 9472 x 8192: 129 of 128 x 224
  // against 111 of 128 x 256, 84.8 against 92.2; H200 2026-11-28, bench/results/gemm_tile160_224_h200_2026-11-28.txt).
  // The swapped 128 x 48 tile (swap_ab: the kernel's 128 rows are N, its 48 columns M; 0.65), in
  // place of a 64-row tile where its cost is lower: it steps M by 48 instead of 64, and each of its
  // consumers runs a 64 x 48 wgmma where a 64-row tile's consumers split 48 or 64 columns in halves.
  // Not against 128-row tiles: there it won and lost alike (H200, 2026-11-29, 139 shapes it moved
  // from any tile: 0.992x the time, 400 x 1536 x 4096 +11%, 615 x 640 x 10872 +26%). In place of
  // the 64-row tiles, on 53 shapes that rule moved (1440-shape grid and 4000 random shapes, not the
  // ones it was fitted on; call 10): 0.951x the time in geomean, 35 faster by > 2%, 12 slower
  // (unmoved shapes of the same run spread +-7%); without the 5 of them that split fewer ways (see
  // below), 48 shapes at 0.941x, 34 faster, 9 slower (176 x 1536 x 4096 +8%), 0.82x -> 0.87x of
  // cuBLAS; 129 x 1024 x 8192 20.7 -> 16.7 us, 131 x 984 x 11640 31.5 -> 24.3
  // (bench/results/gemm_swap48_h200_2026-11-29.txt).
  const Candidate candidates[] = {{128, 256, 4, 1.0}, {128, 224, 4, 0.95}, {128, 192, 4, 1.0}, {128, 160, 5, 0.95}, {128, 128, 6, 0.9},
                                  {128, 96, 7, 0.8},  {128, 64, 8, 0.75},  {64, 128, 8, 0.65}, {64, 64, 12, 0.6},   {64, 48, 14, 0.5},
                                  {48, 128, 8, 0.65, true}};
  // The 160- and 224-column tiles refine a wider tile's wave (see after the loop).
  const auto refines_wider = [](int tile_n) { return tile_n % 64 == 32 && tile_n > 128; };
  // Where the 128 x 256 tile in clusters of 2 divides M and N, tiles that do not pay
  // kGemmEdgeTileEfficiency.
  const auto whole = [&](const Candidate& c) { return !c.swapped && gemm_sm90_whole_tiles(s.m, s.n, c.tile_m, c.tile_n); };
  const bool whole_256 = gemm_sm90_whole_tiles(s.m, s.n, 256, 256) && facts.d_bytes == 2 && !facts.reads_c;  // (clusters pair every row block)
  GemmSm90Config best{}, base{};  // base: the best without them
  double best_cost = 0, base_cost = 0;
  for (const Candidate& c : candidates) {
    const GemmSm90Config config =
        c.swapped ? GemmSm90Config{c.tile_m, c.stages, 1, false, c.tile_n, 0, true} : GemmSm90Config{c.tile_n, c.stages, 1, false, c.tile_m};
    if (!gemm_sm90_config_supports(config, major_b, major_a)) continue;
    const long long tiles = gemm_sm90_tiles(s, c.tile_m, c.tile_n);
    // (The swapped tile comes last: `best` is then the best of the others.)
    if (c.swapped && (!may_swap_ab || tiles > sm_count || best.tile_m != 64)) continue;
    // The 192-wide tile fills waves; where tiles fill less than half of one, split-K decides
    // between the wide tile split and a narrow one whole, and the 192-wide tile split 2 ways lost
    // to the 128 x 128 one whole (1024 x 1536 x 4096: 38.9 vs 35.1 us, H100).
    if (c.tile_n == 192 && tiles * 2 <= sm_count) continue;
    // 64-row tiles buy CTAs with operand reuse: they pay where they fill SMs that wider tiles
    // leave idle, in one wave. Over several waves they ran up to 1.33x the time of the 128-row
    // tiles (129..192 x 6144 x 1024..8192 in 64 x 48 tiles, 288 and 320 x 6144..12288 x 4096..8192
    // in 64 x 128, 160 and 320 x 8192..12288 x 4096 in 64 x 64; H200, same file).
    if (c.tile_m == 64 && tiles > sm_count) continue;
    // The 128 x 96 tile only where it fills more than half of one wave, unsplit (split 2 ways it
    // lost to the 128 x 64 tile whole: 256 x 3072 x 4096, 22.7 us against 20.3), over rows on
    // 128-byte lines: it asks 224 operand rows per 12288 outputs where 128 x 128 asks 256 per
    // 16384, 17% more line requests per flop, and rows off 128-byte lines pay each twice (sampled
    // there, 4 of 16 shapes ran up to 16% slower: 3900 x 304 x 3920 28.8 -> 33.3 us).
    // Nor where beta's C would come through the ring (not timed: C read in the epilogue instead),
    // nor for a fused tree (see above). The 128 x 160 and 128 x 224 tiles take the same rule (timed
    // only there: a wave more than half full, unsplit, rows on 128-byte lines).
    const bool one_wave_tile = c.tile_n % 64 == 32;  // 96, 160, 224: whole 64-column blocks plus 32
    if (one_wave_tile && (!rows_128b_aligned || ring_c || fused || tiles > sm_count || tiles * 2 <= sm_count)) continue;
    // Few tiles: their split counts (it decides between a wide tile split and a narrow one whole:
    // 1024 x 1024 x 32768 ran 122 us in 128 x 256 tiles split 4 ways, 142 in 128 x 64 tiles whole,
    // H100). A tail split is added after the choice, not in it: letting it favour the wide tile
    // moved 4096 x 1536 x 4096 from 128 x 128 (74 us) to a clustered 128 x 256 (119 us).
    const double rows = gemm_sm90_rows_held(s.m, c.tile_m);
    const bool shared = gemm_sm90_shares_split_reduction(config);
    const GemmSplitPlan few = c.swapped              ? gemm_sm90_plan_splits(s, config, sm_count)
                              : tiles * 2 <= sm_count ? gemm_sm90_split_plan(tiles, s.k, sm_count, 32, rows, shared)
                                                      : GemmSplitPlan{1, tiles};
    // Nor where it would split fewer ways than the 64-row tile: each CTA then runs a longer K range
    // of a tile about as large. Of the six such shapes of calls 9-10 (a 64 x 128 tile split 3 ways
    // against the swapped one split 2), four ran 4-15% slower (189 x 1624 x 12408 +15%, 170 x 1472 x
    // 9288 +13%), two within 3%.
    if (c.swapped && few.splits < gemm_sm90_split_k(s, best, sm_count)) continue;
    const double waves = gemm_sm90_split_waves(tiles, sm_count, s.k, few, rows, shared);
    // The last row block's rows past M that its A boxes hold: its CTAs' TMA writes them as zeros
    // into shared memory for every k-block of their split, at kGemmFillCostPerRow area units per row.
    const double fill_rows =
        c.swapped ? gemm_sm90_fill_rows(s.n, c.tile_n, gemm_sm90_box_rows_a(c.tile_n)) : gemm_sm90_fill_rows(s.m, c.tile_m, gemm_sm90_box_rows_a(c.tile_m, major_a));
    const double fill = fill_rows * kGemmFillCostPerRow / few.splits;
    double efficiency = c.tile_m == 128 && c.tile_n == 128 && gemm_sm90_short_k_waves(s.k, tiles, sm_count) ? kGemmShortKEfficiency128 : c.efficiency;
    if (whole_256 && !whole(c)) efficiency *= kGemmEdgeTileEfficiency;
    const double cost = waves * c.tile_m * c.tile_n / efficiency + fill;
    if (best.tile_n == 0 || cost < best_cost) {
      best_cost = cost;
      best = config;
    }
    if (!refines_wider(c.tile_n) && (base.tile_n == 0 || cost < base_cost)) {
      base_cost = cost;
      base = config;
    }
  }
  // The 128 x 160 and 128 x 224 tiles refine a wider tile's wave: measured against 128 x 192 and
  // 128 x 256 in one wave. Against a narrower tile's two waves the model's margin was 1% and the
  // narrower tile won (6638 x 304 x 256: 128 x 64 in 260 tiles 9.2 us, 128 x 160 in 104 10.1; same
  // file): the persistent CTAs of a second wave load while the first stores.
  if (refines_wider(best.tile_n) && base.tile_n < best.tile_n) best = base;
  if (best.swap_ab) {  // one wave of the swapped tile: no clusters; its split from the kernel's view
    best.splits = gemm_sm90_split_k(s, best, sm_count);
    return best;
  }
  // Clusters of 2 (B multicast to both CTAs) pay off for the 128 x 256 tile once tiles queue up
  // behind each other (several waves); in a single wave they only constrain placement. For the
  // 128 x 128 tile they cost more than the B traffic they save (H100, 2026-11-25: 8192^3 478 vs
  // 617 TFLOP/s, 4096 x 1536 x 4096 582 vs 671), except below.
  const long long row_blocks = (s.m + 127) / 128;
  const auto tiles_of = [&](int tile_n) { return gemm_sm90_tiles(s, 128, tile_n); };
  const bool several_waves = best.tile_m == 128 && row_blocks >= 2 && tiles_of(best.tile_n) > sm_count;
  // Clusters pair row blocks: ceil(row blocks / 2) cluster tiles per column, sm_count / 2 per wave.
  // Where that takes one more wave than the CTA tiles alone (an odd row block count leaves CTAs
  // past M; a wave of tiles that fit exactly gains a tail), the unclustered tile wins: H200,
  // 2026-11-28, 14 such shapes, 325 x 28672 x 4096 181 -> 145 us, 521 x 12288 x 1024 46 -> 33,
  // 878 x 14336 x 4096 175 -> 140, 4097 x 4096 x 4096 246 -> 191-209, 2367 x 12288 x 4096 345 ->
  // 313 (bench/results/gemm_cluster_waves_h200_2026-11-28.txt).
  const auto clusters_add_a_wave = [&](int tile_n) {
    const long long per_wave = sm_count / 2 > 0 ? sm_count / 2 : 1;
    const long long cluster_tiles = gemm_sm90_tiles(s, 256, tile_n);
    return (cluster_tiles + per_wave - 1) / per_wave > (tiles_of(tile_n) + sm_count - 1) / sm_count;
  };
  if (!rows_128b_aligned && best.tile_m == 128 && best.tile_n >= 128 && row_blocks >= 2 && tiles_of(256) > sm_count) {
    // Rows that straddle 128-byte lines (a leading dimension or base off a multiple of 128 bytes)
    // cost the TMA two line requests per 128-byte box row: a wide tile with B multicast asks for
    // the fewest lines per flop (3000^3: 441 vs 281 TFLOP/s for 128 x 128 alone) -- when N fills
    // 256-column tiles for several waves (a narrow N keeps its narrow tile). Of the three, 128 x
    // 256, 128 x 192 and 192 x 192 in clusters of 2, the one whose cluster waves cost the least
    // area, 128 x 192 at kGemmClustered192Efficiency (each CTA asks 224 rows per 128 x 192
    // outputs against 256 per 128 x 256: 1/6 more lines per flop) and 192 x 192 at
    // kGemmTile192Efficiency (as few lines per flop as 128 x 256, but three m64n96 atoms per
    // consumer read more shared memory per flop than one m64n256). H200, 2026-11-29
    // (bench/results/gemm_session27_h200_2026-11-29.txt): 3000^3 96.5 -> 87.4 us in 128 x 192
    // (without clusters: 112.8) -> 83.7 in 192 x 192, 1075 x 3728 x 5656 101.7 -> 74.6 in 192 x
    // 192 (one wave of it against two), 1796 x 6168 x 2776 119.7 -> 108.4 in 128 x 192; where the
    // waves tie 128 x 256 won (6000 x 6000 x 3000: 301 against 319 and 318). The 192-row tile
    // from kGemmTile192MinK of K on, B K-major only, not with an epilogue tree or C through the ring.
    const auto cluster_wave_area = [&](int tile_m, int tile_n, double efficiency) {
      const long long per_wave = sm_count / 2 > 0 ? sm_count / 2 : 1;
      const long long waves = (gemm_sm90_tiles(s, 2 * tile_m, tile_n) + per_wave - 1) / per_wave;
      return double(waves) * tile_m * tile_n / efficiency;
    };
    best = GemmSm90Config{256, 4, 2, false, 128};
    double best_area = cluster_wave_area(128, 256, 1.0);
    if (major_b == GmmaMajor::K) {
      if (const double a = cluster_wave_area(128, 192, kGemmClustered192Efficiency); a < best_area)
        best = GemmSm90Config{192, 4, 2, false, 128}, best_area = a;
      if (const double a = cluster_wave_area(192, 192, kGemmTile192Efficiency); s.k >= kGemmTile192MinK && !fused && !ring_c && a < best_area)
        best = GemmSm90Config{192, 4, 2, false, 192}, best_area = a;
    }
  } else if (several_waves && best.tile_n == 256 && !clusters_add_a_wave(256)) {
    best.cluster_m = 2;
  } else if (best.tile_m == 128 && row_blocks >= 2 && (best.tile_n == 256 || best.tile_n == 128)) {
    // Few tiles over a huge K, split: each split streams a long K range of A and B through L2, and
    // clusters of 2 halve B's share of it (H100, 2026-11-27, bench/results/gemm_huge_k_clusters_h100_2026-11-27.txt:
    // 1024 x 1024 x 32768 in 128 x 256 tiles split 4 ways 107-108 us in clusters of 2 against
    // 120-121 alone; 256 x 256 x 131072 in 128 x 128 tiles split 32 ways 69.6 against 73.6).
    // Only where each split still runs 64 k-blocks or more: shorter splits are not bound by it --
    // except from 32 k-blocks on where the row blocks pair up exactly and N spans 4 or more tiles
    // (H200, 2026-11-29, bench/results/gemm_session26_h200_2026-11-29.txt: 44 fresh random
    // shapes it moves, 0.917x the time, 31 faster by > 2%, 3 slower, the worst 1704 x 456 x 7536
    // +8.5%; 129 x 1992 x 13176 44.2 -> 33.8 us, 486 x 960 x 15272 50.0 -> 41.8). Not for an odd
    // count, whose last cluster runs a CTA past M: the same run's 20 such moves 0.978x, 6 slower by
    // up to 8.6%. Nor for N of 1-3 tiles: the first probe's 4 such moves all ran 2-9% slower.
    const auto pairs_shorter_splits = [&](int splits) {
      return s.k / splits >= kGemmClusteredSplitMinKPaired && row_blocks % 2 == 0 &&
             (s.n + best.tile_n - 1) / best.tile_n >= kGemmClusteredSplitMinColumnTiles;
    };
    GemmSm90Config clustered = best;
    clustered.cluster_m = 2;
    if (const GemmSplitPlan plan = gemm_sm90_plan_splits(s, clustered, sm_count);
        plan.splits > 1 && plan.split_from == 0 && (s.k / plan.splits >= kGemmClusteredSplitMinK || pairs_shorter_splits(plan.splits))) {
      clustered.splits = plan.splits;  // the plan just made: not asked for again below
      return clustered;
    }
  }
  best.splits = gemm_sm90_split_k(s, best, sm_count);
  return best;
}

}  // namespace cute_dsl::kernels

#endif  // CUTE_DSL_HOST_ONLY_CODE
