// The symmetric buffer of a fused all-gather + GEMM (epilogue/all_gather.hpp): what each rank's
// copy holds, at byte offsets every rank computes alike from (M, K, world, element size).
//
//   ready[kMaxRanks]                u32  ready[s] = epoch: rank s's shard of that launch is in s's
//                                        `gathered` (s writes it into every peer as its launch starts)
//   pulled[kMaxRanks]               u32  pulled[q] = epoch: rank q finished copying this rank's shard
//                                        of that launch (q writes it here; this rank's launch ends
//                                        only once every peer did, so the caller may then overwrite
//                                        the shard)
//   arrived[kMaxRanks][kMaxPieces]  u32  local: arrived[s][j] = epoch: piece j of rank s's shard is
//                                        in this rank's `gathered` (written by this rank's copy stream)
//   gathered[M][K]                  T    the whole input, row-major: rank s's shard in rows
//                                        [begin(s), begin(s + 1)) (dist/row_owners.hpp). The caller
//                                        writes its own shard there (in place, as NCCL's in-place
//                                        all-gather); the copy engines bring the others'.
// A shard travels in `pieces()` pieces of consecutive rows (RowOwners over the shard's rows), so
// that the GEMM can start on a peer's first rows before its last have arrived. The buffer starts
// zeroed (epoch 0 is "before the first launch"); launches count epochs from 1.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/dist/row_owners.hpp"
#include "cute_dsl/dist/symmetric_view.hpp"

namespace cute_dsl::dist {

struct AllGatherLayout {
  int m, k, world;
  int element_bytes;

  static constexpr int kMaxPieces = 16;
  // About this many bytes per piece: large enough that a copy runs near the link's bandwidth (~8
  // us a copy on top of ~370 GB/s out of an H100 with every GPU copying: 4 MiB copies moved 199
  // GB/s, 16 MiB 334; bench/dist/copy_engine_bandwidth.cu), small enough that the first piece of a
  // peer lands while the GEMM computes the rank's own rows.
  static constexpr long long kPieceBytes = 16LL << 20;

  CUTE_DSL_HOST_DEVICE constexpr RowOwners owners() const { return {m, world}; }
  CUTE_DSL_HOST_DEVICE constexpr long long row_bytes() const { return (long long)k * element_bytes; }
  // Pieces per shard: the same for every rank (from the largest shard).
  CUTE_DSL_HOST_DEVICE constexpr int pieces() const {
    const long long want = ((long long)owners().max_rows() * row_bytes() + kPieceBytes - 1) / kPieceBytes;
    return want < 1 ? 1 : want > kMaxPieces ? kMaxPieces : int(want);
  }
  // Piece j of rank s's shard: rows [piece_begin(s, j), piece_begin(s, j + 1)) of the whole input.
  CUTE_DSL_HOST_DEVICE constexpr int piece_begin(int s, int j) const {
    return owners().begin(s) + RowOwners{owners().rows(s), pieces()}.begin(j);
  }
  // The piece of its owner's shard that row `row` falls in. @pre 0 <= row < m
  CUTE_DSL_HOST_DEVICE constexpr int piece_of(int row) const {
    const int s = owners().owner(row);
    return RowOwners{owners().rows(s), pieces()}.owner(row - owners().begin(s));
  }

  CUTE_DSL_HOST_DEVICE static constexpr long long ready_offset(int rank) { return 4LL * rank; }
  CUTE_DSL_HOST_DEVICE static constexpr long long pulled_offset(int rank) { return 4LL * (kMaxRanks + rank); }
  CUTE_DSL_HOST_DEVICE static constexpr long long arrived_offset(int sender, int piece) {
    return 256 + 4LL * ((long long)sender * kMaxPieces + piece);
  }
  CUTE_DSL_HOST_DEVICE static constexpr long long gathered_offset() { return 1024; }
  // Bytes of each rank's copy.
  CUTE_DSL_HOST_DEVICE constexpr long long bytes() const { return gathered_offset() + ((long long)m * row_bytes() + 255) / 256 * 256; }
};

static_assert(AllGatherLayout::arrived_offset(kMaxRanks, 0) <= AllGatherLayout::gathered_offset(),
              "AllGatherLayout: the flags overlap the gathered rows");

}  // namespace cute_dsl::dist
