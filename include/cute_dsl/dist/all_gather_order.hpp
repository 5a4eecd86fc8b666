// The order in which one rank's GEMM computes its tiles for a fused all-gather + GEMM
// (epilogue/all_gather.hpp, docs/design/distributed.md): its own rows first -- they are in its
// memory from the start -- then rank + 1's, rank + 2's, ..., the order in which its copy stream
// brings the peers' shards. A tile row that straddles the previous owner's last rows and this
// rank's first ones needs the shard that comes last: it goes last.
//
// Rows are grouped by about one shard (in tile rows) and the GEMM keeps its L2 raster inside each
// group: every group reads B once more from memory, so fewer, larger groups; a tile waits only for
// the pieces of its own rows (AllGatherLayout::pieces), and the raster visits a group's rows top
// to bottom in each band, so its first band follows the pieces as they land.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/dist/all_gather_layout.hpp"
#include "cute_dsl/kernels/gemm_tile_scheduler.hpp"

namespace cute_dsl::dist {

// Rotated tile row q is tile row (q + first) % tiles_m, `first` the first tile row starting at or
// after the own rows; groups of one share of rotated rows, each one segment of the order (two
// where it wraps past the last tile row). @pre layout.m >= 1, tile_rows >= 1, 0 <= rank < layout.world
CUTE_DSL_HOST_DEVICE constexpr kernels::GemmRowOrder all_gather_row_order(AllGatherLayout const& layout, int rank, int tile_rows) {
  const int tiles_m = (layout.m + tile_rows - 1) / tile_rows;
  const RowOwners owners = layout.owners();
  const int first = (owners.begin(rank) + tile_rows - 1) / tile_rows % tiles_m;
  const int share = (owners.max_rows() + tile_rows - 1) / tile_rows;
  const int group = share > 0 ? share : 1;
  kernels::GemmRowOrder order;
  for (int q = 0; q < tiles_m; q += group) {
    const int a = (q + first) % tiles_m, rows = tiles_m - q < group ? tiles_m - q : group;
    if (a + rows <= tiles_m) {
      order.append(a, a + rows);
    } else {
      order.append(a, tiles_m);
      order.append(0, a + rows - tiles_m);
    }
  }
  return order;
}

}  // namespace cute_dsl::dist
