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
  int splits;      // of this tile: 1 for a tile that runs whole
  int k_begin, k_end;
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

  CUTE_DSL_HOST_DEVICE constexpr GemmTileScheduler(int m, int n, int l)
      : tiles_m((m + TileM * ClusterM - 1) / (TileM * ClusterM)), tiles_n((n + TileN - 1) / TileN), batches(l) {}

  CUTE_DSL_HOST_DEVICE constexpr int cluster_tiles() const { return tiles_m * tiles_n * batches; }
  // The first tile split, given `splits` (none split: cluster_tiles()).
  CUTE_DSL_HOST_DEVICE constexpr int first_split(int splits) const {
    return splits <= 1 ? cluster_tiles() : split_from < cluster_tiles() ? split_from : cluster_tiles();
  }
  CUTE_DSL_HOST_DEVICE constexpr int units(int splits) const {
    const int whole = first_split(splits);
    return whole + (cluster_tiles() - whole) * (splits > 1 ? splits : 1);
  }

  // Unit `u` of a problem with `k_tiles` k-blocks, its split tiles cut into `splits` ranges
  // (splits <= k_tiles).
  CUTE_DSL_HOST_DEVICE constexpr GemmWork work(int u, int cta_rank, int splits, int k_tiles) const {
    const int whole = first_split(splits);
    if (u < whole) return {tile(u, cta_rank), 0, 0, 1, 0, k_tiles};
    const int v = u - whole, slot = v / splits, split = v - slot * splits;
    const int base = k_tiles / splits, extra = k_tiles - base * splits;  // the first `extra` splits get one more
    const int k_begin = split * base + (split < extra ? split : extra);
    return {tile(whole + slot, cta_rank), slot, split, splits, k_begin, k_begin + base + (split < extra ? 1 : 0)};
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
