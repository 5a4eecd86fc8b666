// The persistent tile scheduler of the Hopper GEMM: which output tiles a CTA computes, in which
// order.
//
// The grid has about one CTA per SM; each CTA loops over tiles t = first, first + step, ...
// (persistent), so that the producer of a CTA starts loading its next tile while its consumers
// still finish the current one, and launch overhead is paid once.
//
// Tiles are handed out per CLUSTER: the ClusterM CTAs of a cluster (stacked along M) compute
// ClusterM vertically adjacent tiles that share the same columns of B, which is what lets them
// load each B tile once and multicast it. A "cluster tile" is ClusterM*TileM x TileN.
//
// Split-K: with `splits` > 1 the cluster tiles from `split_from` on are each cut into `splits` K
// ranges of (almost) equal k-block counts; the tiles before it run whole. Units of work: the
// whole tiles first (unit u < split_from is tile u), then (tile, split) pairs (split v % splits
// of tile split_from + v / splits, v = u - split_from). The splits of a tile write f32 partial
// sums to a workspace; the last one to finish adds them up (gemm_sm90.hpp). split_from = 0 splits
// every tile: few tiles (decode: M = 1..64) then still fill the SMs. split_from > 0 splits only
// the tiles of the last, partial wave ("tail"), which would otherwise leave most SMs idle while
// a few finish: a 2.2-wave GEMM runs ~2.2 waves instead of 3.
//
// Stream-K: with `stream_ranges` > 0 the cluster tiles from `split_from` on are not cut into equal
// splits but streamed: their k-blocks, tile after tile, form one sequence cut into stream_ranges
// contiguous ranges of (almost) equal length, one per cluster of the grid, so that every cluster
// does the same work however the tiles fall on the SMs (96 tiles on 132 SMs: 0.73 of a tile each
// instead of a whole tile on 96 and nothing on 36). A range holds the end of one tile, maybe whole
// tiles, and the start of another; each piece of a tile is a unit, and a tile's pieces meet in the
// split-K workspace like splits do (GemmStreamK below). Units: the whole tiles first, then
// `pieces` units per cluster (unit u >= split_from is piece (u - split_from) / clusters of range
// (u - split_from) % clusters), clusters = the grid's, so that each cluster runs its own range's
// pieces in order; a range with fewer pieces, or a cluster past stream_ranges, gets empty units
// (GemmWork::splits == 0), which every warp skips.
//
// Order (rasterization): consecutive cluster tiles sweep the `kBand` tile columns of a band, row
// block after row block, down the whole of M; then the next band, then the next batch. The ~66 cluster tiles in flight at
// once then touch ~kBand columns of B and ~66/kBand row blocks of A instead of one long row of
// tiles (all of B): the operands of concurrent tiles stay in L2.
#pragma once

#include "cute_dsl/config.hpp"

namespace cute_dsl::kernels {

struct GemmTile {
  int m_block;  // first row of this CTA's tile of C
  int n_block;  // first column
  int batch;    // index into L
};

// An order of the tile rows other than top to bottom (the fused collectives':
// dist/reduce_scatter_schedule.hpp, dist/all_gather_order.hpp): `segments` runs of tile rows,
// segment i being rows [first[i], first[i] + height[i]), taken one after the other, the raster
// (bands of kBand tile columns, rows inside a band) running inside each. The segments must cover
// every tile row once. segments = 0: one segment of all rows (the plain raster).
struct GemmRowOrder {
  // Enough for the reduce-scatter's rounds (world x rounds + 1 <= 8 x 4 + 1) and the all-gather's
  // groups (<= world + 2).
  static constexpr int kMaxSegments = 40;
  int segments = 0;
  int first[kMaxSegments] = {};
  int height[kMaxSegments] = {};
  bool overflow = false;  // a builder ran out of segments: the order is unusable (launchers refuse it)

  // Appends rows [begin, end) as the next segment (nothing if empty).
  CUTE_DSL_HOST_DEVICE constexpr void append(int begin, int end) {
    if (end <= begin) return;
    if (segments == kMaxSegments) {
      overflow = true;
      return;
    }
    first[segments] = begin, height[segments] = end - begin, ++segments;
  }
};

// One unit of work: a tile and the k-blocks [k_begin, k_end) of its split.
struct GemmWork {
  GemmTile tile;
  int tile_index;  // a split tile: its index among the split tiles (its workspace slot)
  int split;
  int splits;      // of this tile: 1 for a tile that runs whole; 0: an empty unit (stream-K), skipped
  int k_begin, k_end;
  int slots;       // workspace slots per split tile (splits; stream-K: the most pieces a tile has)
};

// Stream-K's ranges over `tiles` tiles of `k_tiles` k-blocks each, cut into `ranges` ranges: range
// g is k-blocks [begin(g), begin(g + 1)) of the sequence (tile t's k-block k at t * k_tiles + k).
// @pre tiles >= 1, k_tiles >= 1, 1 <= ranges <= tiles * k_tiles
struct GemmStreamK {
  long long work;  // k-blocks of every streamed tile
  int ranges;
  int k_tiles;

  CUTE_DSL_HOST_DEVICE constexpr long long begin(int g) const { return (long long)g * work / ranges; }
  // The range holding k-block x of the sequence: the g with begin(g) <= x < begin(g + 1).
  CUTE_DSL_HOST_DEVICE constexpr int range_of(long long x) const { return int(((x + 1) * ranges - 1) / work); }
  CUTE_DSL_HOST_DEVICE constexpr long long shortest() const { return work / ranges; }
  // Pieces a range may hold (it spans at most shortest() + 1 k-blocks) and pieces a tile may be
  // cut into (its k_tiles k-blocks meet ranges of at least shortest()): units per cluster and
  // workspace slots per tile.
  CUTE_DSL_HOST_DEVICE constexpr int pieces_per_range() const { return int((shortest() + k_tiles) / k_tiles) + 1; }
  CUTE_DSL_HOST_DEVICE constexpr int pieces_per_tile() const {
    const long long len = shortest() > 0 ? shortest() : 1;
    return int((k_tiles + len - 1) / len) + 1;
  }
};

template <int TileM, int TileN, int ClusterM>
struct GemmTileScheduler {
  static constexpr int kBand = 8;  // tile columns per raster band (L2 locality, see above)

  int tiles_m;  // cluster tiles along M
  int tiles_n;
  int batches;
  // Another row order (null: top to bottom). A pointer, so that a kernel can point it at its
  // parameters: read from the constant bank at each use, not kept in (or spilled from) registers.
  const GemmRowOrder* rows = nullptr;
  int split_from = 0;  // split-K: the first cluster tile that is split (see above)
  // Stream-K (see above): ranges (0: split-K as `splits` says) and the grid's clusters.
  int stream_ranges = 0;
  int clusters = 1;

  CUTE_DSL_HOST_DEVICE constexpr GemmTileScheduler(int m, int n, int l)
      : tiles_m((m + TileM * ClusterM - 1) / (TileM * ClusterM)), tiles_n((n + TileN - 1) / TileN), batches(l) {}

  CUTE_DSL_HOST_DEVICE constexpr int cluster_tiles() const { return tiles_m * tiles_n * batches; }
  // Whether an operand is streamed: each of its tiles read by at most two CTA tiles -- A's by the
  // column blocks, B's by the row blocks. Its lines are then dead in L2 once read (the GEMM's
  // loads take an evict_first policy there, gemm_sm90.hpp).
  CUTE_DSL_HOST_DEVICE constexpr bool streams_an_operand() const { return tiles_n <= 2 || tiles_m * ClusterM <= 2; }
  // Whether the GEMM's operand loads take the evict_first policy, given the split and the bytes
  // of A and B (one batch). Unsplit: where an operand is streamed. Split: only where one operand
  // is read by a single cluster tile and the other is small (<= kEvictFirstHotBytes, read by
  // every unit at once: decode-like). In a split launch each unit reads its own K range of a tile
  // that another unit, `splits` units away, reads again; hinted, a large re-read operand's lines
  // were gone before the second read. H200, 2026-11-28, L2 left dirty by a 512 MiB memset,
  // bench/results/gemm_probes_session24_h200_2026-11-28.txt, us, hinted wherever streamed ->
  // this rule: 256 x 256 x 131072 split 32 ways 61.3 -> 56.5, 2048 x 256 x 32768 88.7 -> 74.4,
  // 192 x 192 x 65536 36.6 -> 32.8 (unhinted 32.5); kept: 4096 x 64 x 4096 (B 0.5 MiB) 18.3 -> 18.6
  // (unhinted 19.7), 32 x 4096 x 8192 swapped 27.3 -> 27.1 (29.8). At 16 MiB the split shapes
  // went both ways (128 x 128 x 65000 24.6 against 25.6 unhinted, 128 x 256 x 65536 29.5 against
  // 28.4): they are left unhinted.
  static constexpr long long kEvictFirstHotBytes = 8ll << 20;
  CUTE_DSL_HOST_DEVICE constexpr bool loads_evict_first(int splits, long long bytes_a, long long bytes_b) const {
    if (splits <= 1) return streams_an_operand();
    return (tiles_n == 1 && bytes_b <= kEvictFirstHotBytes) || (tiles_m == 1 && bytes_a <= kEvictFirstHotBytes);
  }
  // The first tile split, given `splits` (none split: cluster_tiles()).
  CUTE_DSL_HOST_DEVICE constexpr int first_split(int splits) const {
    return splits <= 1 ? cluster_tiles() : split_from < cluster_tiles() ? split_from : cluster_tiles();
  }
  // Whether stream-K runs (`splits` > 1 marks the split path; stream_ranges > 0 picks stream-K).
  CUTE_DSL_HOST_DEVICE constexpr bool streams(int splits) const { return splits > 1 && stream_ranges > 0; }
  // @pre streams(splits)
  CUTE_DSL_HOST_DEVICE constexpr GemmStreamK stream_k(int splits, int k_tiles) const {
    return {(long long)(cluster_tiles() - first_split(splits)) * k_tiles, stream_ranges, k_tiles};
  }
  CUTE_DSL_HOST_DEVICE constexpr int units(int splits, int k_tiles) const {
    const int whole = first_split(splits);
    if (streams(splits)) return whole + stream_k(splits, k_tiles).pieces_per_range() * clusters;
    return whole + (cluster_tiles() - whole) * (splits > 1 ? splits : 1);
  }

  // Unit `u` of a problem with `k_tiles` k-blocks, its split tiles cut into `splits` ranges
  // (splits <= k_tiles), or streamed (stream_ranges > 0).
  CUTE_DSL_HOST_DEVICE constexpr GemmWork work(int u, int cta_rank, int splits, int k_tiles) const {
    const int whole = first_split(splits);
    if (u < whole) return {tile(u, cta_rank), 0, 0, 1, 0, k_tiles, 1};
    if (streams(splits)) return stream_piece(u - whole, whole, cta_rank, stream_k(splits, k_tiles));
    const int v = u - whole, slot = v / splits, split = v - slot * splits;
    const int base = k_tiles / splits, extra = k_tiles - base * splits;  // the first `extra` splits get one more
    const int k_begin = split * base + (split < extra ? split : extra);
    return {tile(whole + slot, cta_rank), slot, split, splits, k_begin, k_begin + base + (split < extra ? 1 : 0), splits};
  }

  // Stream unit `v`: piece v / clusters of range v % clusters (empty past its pieces).
  CUTE_DSL_HOST_DEVICE constexpr GemmWork stream_piece(int v, int whole, int cta_rank, GemmStreamK const& sk) const {
    const int g = v % clusters, j = v / clusters;
    const GemmWork empty{GemmTile{0, 0, 0}, 0, 0, 0, 0, 0, 0};
    if (g >= sk.ranges) return empty;
    const long long start = sk.begin(g), end = sk.begin(g + 1);
    const long long t = start / sk.k_tiles + j, t_begin = t * sk.k_tiles, t_end = t_begin + sk.k_tiles;
    const long long b = start > t_begin ? start : t_begin, e = end < t_end ? end : t_end;
    if (b >= e) return empty;
    const int first = sk.range_of(t_begin), last = sk.range_of(t_end - 1);  // the ranges holding this tile
    return {tile(whole + int(t), cta_rank), int(t), g - first, last - first + 1, int(b - t_begin), int(e - t_begin), sk.pieces_per_tile()};
  }

  // Cluster tile `t` as seen by the CTA of rank `cta_rank` in its cluster.
  CUTE_DSL_HOST_DEVICE constexpr GemmTile tile(int t, int cta_rank) const {
    const int per_batch = tiles_m * tiles_n;
    const int batch = t / per_batch;
    int r = t - batch * per_batch;
    // The segment this tile falls in: rows [first, first + height). A walk over the segments
    // (<= kMaxSegments, in the constant bank): a few hundred cycles per tile at most.
    int first = 0, height = tiles_m;
    if (rows != nullptr && rows->segments > 0) {
      const int count = rows->segments;
      int i = 0;
      for (; i + 1 < count; ++i) {
        const int span = rows->height[i] * tiles_n;
        if (r < span) break;
        r -= span;
      }
      first = rows->first[i], height = rows->height[i];
    }
    const int band = r / (kBand * height);
    const int band_width = (tiles_n - band * kBand) < kBand ? (tiles_n - band * kBand) : kBand;
    const int in_band = r - band * kBand * height;
    const int tm = first + in_band / band_width;
    const int tn = band * kBand + in_band % band_width;
    return {(tm * ClusterM + cta_rank) * TileM, tn * TileN, batch};
  }
};

}  // namespace cute_dsl::kernels
