// The symmetric buffer of a fused GEMM + reduce-scatter (epilogue/reduce_scatter.hpp): what each
// rank's copy holds, at byte offsets every rank computes alike from (M, N, world, element size).
//
//   done[kMaxRanks]     u32  done[s] = the last launch (epoch) whose partials rank s finished
//                            pulling; s writes it into every peer. A rank's GEMM overwrites its
//                            partials of epoch e only once every peer's done reached e - 1.
//   counter             u32  local: reducer CTAs of this launch that finished (the last signals)
//   ready[blocks]       u32  ready[b] = epoch: this rank's partial of 64 x 64 block b is written
//   partial[M][N]       T    this rank's partial product (its slice of K), rounded to T
// Blocks are 64 x 64 (the smallest GEMM tile), row-major over the output, so the reducer does
// not depend on the GEMM variant's tile shape. The buffer starts zeroed (epoch 0 is "before the
// first launch"); launches count epochs from 1.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/dist/row_owners.hpp"
#include "cute_dsl/dist/symmetric_view.hpp"

namespace cute_dsl::dist {

struct ReduceScatterLayout {
  int m, n, world;
  int element_bytes;

  CUTE_DSL_HOST_DEVICE constexpr RowOwners owners() const { return {m, world}; }
  CUTE_DSL_HOST_DEVICE constexpr int blocks_m() const { return (m + 63) / 64; }
  CUTE_DSL_HOST_DEVICE constexpr int blocks_n() const { return (n + 63) / 64; }
  CUTE_DSL_HOST_DEVICE constexpr long long blocks() const { return (long long)blocks_m() * blocks_n(); }
  CUTE_DSL_HOST_DEVICE constexpr long long block_id(int row, int col) const { return (long long)(row / 64) * blocks_n() + col / 64; }

  CUTE_DSL_HOST_DEVICE static constexpr long long round_up(long long x) { return (x + 255) / 256 * 256; }
  CUTE_DSL_HOST_DEVICE static constexpr long long done_offset(int rank) { return 4LL * rank; }
  CUTE_DSL_HOST_DEVICE static constexpr long long counter_offset() { return 4 * kMaxRanks; }
  CUTE_DSL_HOST_DEVICE static constexpr long long ready_offset(long long block) { return 256 + 4 * block; }
  CUTE_DSL_HOST_DEVICE constexpr long long partial_offset() const { return 256 + round_up(4 * blocks()); }
  // Bytes of each rank's copy.
  CUTE_DSL_HOST_DEVICE constexpr long long bytes() const { return partial_offset() + round_up((long long)m * n * element_bytes); }
};

}  // namespace cute_dsl::dist
