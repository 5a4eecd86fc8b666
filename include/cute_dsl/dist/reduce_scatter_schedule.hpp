// The order in which one rank's GEMM computes its tiles for a fused reduce-scatter, and the
// chunks its partials travel in (epilogue/reduce_scatter.hpp, docs/design/distributed.md).
//
// Rows, in units of cluster tiles ("tile rows"), are taken in a rotated order that starts just
// after the last tile row holding any of this rank's rows, so the other owners' rows come first
// (rank + 1's, rank + 2's, ...) and this rank's own rows last: while the GEMM computes its own rows
// the other ranks' partials of them are already on their way. The foreign rows are cut into
// groups of about one owner's share; the tile rows holding own rows form the last group. Inside
// a group the GEMM keeps its L2-friendly raster (bands of `band_tiles` tile columns, rows within
// a band). A chunk is (group, band): once the GEMM finished all of a chunk's tiles, the copy
// engine sends its rows to their owners.
//
// No tile that a peer needs comes after a tile that waits for a peer (the own group is last, and
// its tiles publish their partials before they wait), and every CTA of the persistent grid is
// resident, so the ranks cannot wait on each other in a cycle.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/dist/reduce_scatter_layout.hpp"
#include "cute_dsl/kernels/gemm_tile_scheduler.hpp"

namespace cute_dsl::dist {

struct ReduceScatterSchedule {
  int m, n;
  int tile_rows;   // rows of a cluster tile (TileM x ClusterM)
  int tile_n;      // columns of a tile
  int band_tiles;  // tile columns per raster band
  int cta_tiles;   // CTA tiles per cluster tile (ClusterM): each publishes once
  int tiles_m, tiles_n, bands;
  kernels::GemmRowOrder order;  // what the GEMM's tile scheduler follows
  // All-reduce: the own group's reduced rows travel in pieces of `result_slice` tile rows x a band
  // (at least kResultPieceBytes each): the last piece reduced is what the transfer leaves exposed
  // after the GEMM, and a whole band of the own group (16 MiB at 8192 x 8192 over 2 ranks) left
  // ~50 us there; smaller pieces cost host stream operations (a wait and a copy per peer each).
  int result_slice;
  static constexpr long long kResultPieceBytes = 4LL << 20;

  // Rank `rank`'s schedule. @pre layout.m, layout.n >= 1; tile_rows >= 64; band_tiles * tile_n >= 512
  CUTE_DSL_HOST_DEVICE static constexpr ReduceScatterSchedule make(ReduceScatterLayout const& layout, int rank, int tile_rows,
                                                                   int tile_n, int band_tiles, int cta_tiles) {
    ReduceScatterSchedule s{layout.m, layout.n, tile_rows, tile_n, band_tiles, cta_tiles, 0, 0, 0, {}, 1};
    s.tiles_m = (layout.m + tile_rows - 1) / tile_rows;
    s.tiles_n = (layout.n + tile_n - 1) / tile_n;
    s.bands = (s.tiles_n + band_tiles - 1) / band_tiles;
    const RowOwners owners = layout.owners();
    if (owners.rows(rank) > 0) {
      const int lo = owners.begin(rank) / tile_rows, hi = (owners.begin(rank + 1) - 1) / tile_rows;
      s.order.rotation = (hi + 1) % s.tiles_m;
      s.order.foreign = s.tiles_m - (hi - lo + 1);
    } else {
      s.order.foreign = s.tiles_m;  // owns nothing: every row is foreign
    }
    const int share = (owners.max_rows() + tile_rows - 1) / tile_rows;
    s.order.group_rows = share > 0 ? share : 1;
    const int band_cols = band_tiles * tile_n < layout.n ? band_tiles * tile_n : layout.n;
    const long long tile_row_bytes = (long long)band_cols * tile_rows * (layout.element_bytes > 0 ? layout.element_bytes : 1);
    const long long slice = (kResultPieceBytes + tile_row_bytes - 1) / tile_row_bytes;
    s.result_slice = slice < 1 ? 1 : slice > s.tiles_m ? s.tiles_m : int(slice);
    return s;
  }

  CUTE_DSL_HOST_DEVICE constexpr int foreign_groups() const { return (order.foreign + order.group_rows - 1) / order.group_rows; }
  CUTE_DSL_HOST_DEVICE constexpr int groups() const { return foreign_groups() + (order.foreign < tiles_m ? 1 : 0); }
  // Rotated rows [group_begin(g), group_begin(g) + group_size(g)).
  CUTE_DSL_HOST_DEVICE constexpr int group_begin(int g) const { return g < foreign_groups() ? g * order.group_rows : order.foreign; }
  CUTE_DSL_HOST_DEVICE constexpr int group_size(int g) const {
    if (g >= foreign_groups()) return tiles_m - order.foreign;
    const int left = order.foreign - g * order.group_rows;
    return left < order.group_rows ? left : order.group_rows;
  }
  CUTE_DSL_HOST_DEVICE constexpr int tile_row(int rotated) const { return (rotated + order.rotation) % tiles_m; }
  // The group of tile row `row` (of this rank's order).
  CUTE_DSL_HOST_DEVICE constexpr int group_of(int row) const {
    const int q = (row - order.rotation + tiles_m) % tiles_m;
    return q < order.foreign ? q / order.group_rows : foreign_groups();
  }
  CUTE_DSL_HOST_DEVICE constexpr int band_of(int col) const { return col / (band_tiles * tile_n); }
  // All-reduce result pieces: slices of the own group (rotated rows [order.foreign, tiles_m)) x bands.
  CUTE_DSL_HOST_DEVICE constexpr int own_tile_rows() const { return tiles_m - order.foreign; }
  CUTE_DSL_HOST_DEVICE constexpr int result_slices() const { return (own_tile_rows() + result_slice - 1) / result_slice; }
  // The piece of tile row `row` (of the own group) and band `band`: an index below max_chunks().
  CUTE_DSL_HOST_DEVICE constexpr int result_piece(int row, int band) const {
    const int q = (row - order.rotation + tiles_m) % tiles_m;
    return (q - order.foreign) / result_slice * bands + band;
  }
  // Tile rows [result_row_begin(sl), + result_slice_rows(sl)) of the output: slice sl's.
  CUTE_DSL_HOST_DEVICE constexpr int result_row_begin(int slice) const { return tile_row(order.foreign + slice * result_slice); }
  CUTE_DSL_HOST_DEVICE constexpr int result_slice_rows(int slice) const {
    const int left = own_tile_rows() - slice * result_slice;
    return left < result_slice ? left : result_slice;
  }
  // CTA tiles of piece (slice, band): what its `reduced` counter gains per launch.
  CUTE_DSL_HOST_DEVICE constexpr unsigned result_piece_tiles(int slice, int band) const {
    const int width = tiles_n - band * band_tiles < band_tiles ? tiles_n - band * band_tiles : band_tiles;
    return unsigned(result_slice_rows(slice) * cta_tiles * width);
  }
  CUTE_DSL_HOST_DEVICE constexpr int chunk(int group, int band) const { return group * bands + band; }
  // Columns [band_begin(b), band_end(b)) of the output.
  CUTE_DSL_HOST_DEVICE constexpr int band_begin(int b) const { return b * band_tiles * tile_n; }
  CUTE_DSL_HOST_DEVICE constexpr int band_end(int b) const { return (b + 1) * band_tiles * tile_n < n ? (b + 1) * band_tiles * tile_n : n; }
  // CTA tiles of chunk (g, b): what its counter gains per launch.
  CUTE_DSL_HOST_DEVICE constexpr unsigned chunk_tiles(int group, int band) const {
    const int width = tiles_n - band * band_tiles < band_tiles ? tiles_n - band * band_tiles : band_tiles;
    return unsigned(group_size(group) * cta_tiles * width);
  }
};

}  // namespace cute_dsl::dist
