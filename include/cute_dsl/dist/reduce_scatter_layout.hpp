// The symmetric buffer of a fused GEMM + reduce-scatter (epilogue/reduce_scatter.hpp): what each
// rank's copy holds, at byte offsets every rank computes alike from (M, N, world, element size).
//
//   done[kMaxRanks]          u32  done[s] = the last launch (epoch) rank s finished reading its
//                                 copy; s writes it into every peer. A rank sends epoch e's
//                                 partials only once the receiver's done reached e - 1.
//   cta_counter              u32  local: CTAs of this launch that finished (the last one signals)
//   ready[world][tiles]      u32  ready[s][t] = epoch: rank s's partial of tile t has landed here
//   deferred[tiles]          u32  local: epoch if this rank's own tile t was left for the final pass
//   partials[world][rows][N] T    partials[s][r][c]: rank s's partial of this rank's row
//                                 begin(rank) + r, column c (T: D's element type, rounded once)
// `tiles` counts 64 x 64 blocks, the smallest GEMM tile, so one layout serves every variant.
// The buffer starts zeroed (epoch 0 is "before the first launch"); launches count epochs from 1.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/dist/row_owners.hpp"
#include "cute_dsl/dist/symmetric_view.hpp"

namespace cute_dsl::dist {

struct ReduceScatterLayout {
  int m, n, world;
  int element_bytes;

  CUTE_DSL_HOST_DEVICE constexpr RowOwners owners() const { return {m, world}; }
  CUTE_DSL_HOST_DEVICE constexpr long long tiles() const { return (long long)((m + 63) / 64) * ((n + 63) / 64); }

  CUTE_DSL_HOST_DEVICE static constexpr long long round_up(long long x) { return (x + 255) / 256 * 256; }
  CUTE_DSL_HOST_DEVICE static constexpr long long done_offset() { return 0; }
  CUTE_DSL_HOST_DEVICE static constexpr long long counter_offset() { return 4 * kMaxRanks; }
  CUTE_DSL_HOST_DEVICE static constexpr long long ready_offset() { return 256; }
  CUTE_DSL_HOST_DEVICE constexpr long long deferred_offset() const { return ready_offset() + round_up(4 * tiles() * world); }
  CUTE_DSL_HOST_DEVICE constexpr long long partials_offset() const { return deferred_offset() + round_up(4 * tiles()); }
  CUTE_DSL_HOST_DEVICE constexpr long long slot_bytes() const {
    return round_up((long long)owners().max_rows() * n * element_bytes);
  }
  // Bytes of each rank's copy.
  CUTE_DSL_HOST_DEVICE constexpr long long bytes() const { return partials_offset() + slot_bytes() * world; }

  CUTE_DSL_HOST_DEVICE constexpr long long ready_index(int source, long long tile) const { return source * tiles() + tile; }
  // Byte offset of partials[source][0][0].
  CUTE_DSL_HOST_DEVICE constexpr long long slot_offset(int source) const { return partials_offset() + slot_bytes() * source; }
};

}  // namespace cute_dsl::dist
