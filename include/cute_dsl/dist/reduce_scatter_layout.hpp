// The symmetric buffer of a fused GEMM + reduce-scatter (epilogue/reduce_scatter.hpp): what each
// rank's copy holds, at byte offsets every rank computes alike from (M, N, world, element size).
//
//   done[kMaxRanks]            u32  done[s] = the last launch (epoch) whose received partials rank
//                                   s finished reading; s writes it into every peer. A sender
//                                   copies epoch e into s's `received` only once done[s] >= e - 1.
//   counter[chunks]            u32  local: tiles of each chunk this rank's GEMM finished, summed
//                                   over launches (the copy engine waits for epoch x tiles)
//   arrived[kMaxRanks][chunks] u32  arrived[p][c] = epoch: rank p's chunk c of this rank's rows is
//                                   in `received` (p's numbering of its chunks)
//   received[world - 1][rows][N] T  the other ranks' partials of this rank's rows (slot p, or p - 1
//                                   past this rank), rows = the most any rank owns
//   partial[M][N]              T    this rank's partial product (its slice of K), rounded to T
// and, for an all-reduce (all_reduce = true: the reduce-scatter, then each owner's reduced rows
// sent to every rank, epilogue/reduce_scatter.hpp):
//   result_free[kMaxRanks]     u32  result_free[q] = epoch: rank q's `result` may receive that
//                                   launch's rows (q writes it into every peer as its launch starts)
//   result_sent[kMaxRanks]     u32  result_sent[s] = epoch: rank s's reduced rows of that launch
//                                   are all in this rank's `result`
//   reduced[chunks]            u32  local: tiles of each chunk of own rows whose own rows are final
//                                   in `result` (zeroed per launch)
//   result[M][N]               T    the all-reduced output: own rows written by this rank's GEMM,
//                                   the others' by their copy engines
// A chunk is a segment of tile rows x a run of raster bands (dist/reduce_scatter_schedule.hpp),
// numbered alike on every rank; the counts here are bounds over every GEMM variant (bands >= 512
// columns) and round count, so the buffer depends on neither. The buffer starts zeroed (epoch 0 is "before the
// first launch"); launches count epochs from 1.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/dist/row_owners.hpp"
#include "cute_dsl/dist/symmetric_view.hpp"

namespace cute_dsl::dist {

struct ReduceScatterLayout {
  int m, n, world;
  int element_bytes;
  bool all_reduce = false;  // the all-reduce's regions after `partial`
  // Rounds of the schedule (dist/reduce_scatter_schedule.hpp): 0 or 1 is one; above kMaxRounds
  // counts as kMaxRounds. The same on every rank.
  int rounds = 0;
  // Bytes a chunk aims at (dist/reduce_scatter_schedule.hpp): 0 is the schedule's kChunkBytes.
  // Any value keeps within the buffer's bounds (a chunk is at least one band). The same on every rank.
  long long chunk_bytes = 0;

  static constexpr int kMaxRounds = 4;
  static constexpr int kMinBandCols = 512;  // the smallest raster band: 8 tiles of 64 columns

  CUTE_DSL_HOST_DEVICE constexpr RowOwners owners() const { return {m, world}; }
  // Bounds on the chunk grid: segments (owner x round x whether the sender holds rows of them)
  // x runs of bands.
  CUTE_DSL_HOST_DEVICE constexpr int max_bands() const { return (n + kMinBandCols - 1) / kMinBandCols; }
  CUTE_DSL_HOST_DEVICE constexpr long long max_chunks() const { return 2LL * (world > 0 ? world : 1) * kMaxRounds * max_bands(); }

  CUTE_DSL_HOST_DEVICE static constexpr long long round_up(long long x) { return (x + 255) / 256 * 256; }
  CUTE_DSL_HOST_DEVICE static constexpr long long done_offset(int rank) { return 4LL * rank; }
  CUTE_DSL_HOST_DEVICE static constexpr long long counter_offset(long long chunk) { return 256 + 4 * chunk; }
  CUTE_DSL_HOST_DEVICE constexpr long long arrived_offset(int sender, long long chunk) const {
    return 256 + round_up(4 * max_chunks()) + 4 * ((long long)sender * max_chunks() + chunk);
  }
  // Slot of sender p in a receiver's `received` (the receiver's own rank has none).
  CUTE_DSL_HOST_DEVICE static constexpr int slot(int sender, int receiver) { return sender < receiver ? sender : sender - 1; }
  CUTE_DSL_HOST_DEVICE constexpr long long slot_elements() const { return (long long)owners().max_rows() * n; }
  CUTE_DSL_HOST_DEVICE constexpr long long received_offset() const {
    return 256 + round_up(4 * max_chunks()) + round_up(4LL * kMaxRanks * max_chunks());
  }
  CUTE_DSL_HOST_DEVICE constexpr long long partial_offset() const {
    return received_offset() + round_up((world > 1 ? world - 1 : 0) * slot_elements() * element_bytes);
  }
  // The all-reduce's regions. @pre all_reduce
  CUTE_DSL_HOST_DEVICE constexpr long long all_reduce_offset() const { return partial_offset() + round_up((long long)m * n * element_bytes); }
  CUTE_DSL_HOST_DEVICE constexpr long long result_free_offset(int rank) const { return all_reduce_offset() + 4LL * rank; }
  CUTE_DSL_HOST_DEVICE constexpr long long result_sent_offset(int rank) const { return all_reduce_offset() + 4LL * (kMaxRanks + rank); }
  CUTE_DSL_HOST_DEVICE constexpr long long reduced_offset(long long chunk) const { return all_reduce_offset() + 256 + 4 * chunk; }
  CUTE_DSL_HOST_DEVICE constexpr long long result_offset() const { return all_reduce_offset() + 256 + round_up(4 * max_chunks()); }
  // Bytes of each rank's copy.
  CUTE_DSL_HOST_DEVICE constexpr long long bytes() const {
    return all_reduce ? result_offset() + round_up((long long)m * n * element_bytes) : all_reduce_offset();
  }
};

}  // namespace cute_dsl::dist
