// The compiled variants of the Hopper GEMM (kernels/gemm_sm90.hpp), in one table: the nvcc
// launcher instantiates exactly these (gemm_sm90_launch.hpp), its tests and benchmarks walk them,
// and the JIT's autotuner tries them by default (jit/gemm_autotune.hpp). Plain C++: it compiles
// alone under host compilers, nvcc and NVRTC.
#pragma once

#include "cute_dsl/config.hpp"

namespace cute_dsl::kernels {

// One compiled variant of the kernel: columns per CTA tile, ring stages, CTAs per cluster along M.
struct GemmSm90Config {
  int tile_n = 0;  // 0: let the heuristic choose
  int stages = 0;
  int cluster_m = 0;
  bool ping_pong = false;  // consumer warpgroups alternate whole tiles (gemm_sm90.hpp)
  int tile_m = 128;        // 64: skinny-M tiles, the two consumers split TileN
  int splits = 0;          // split-K ranges per tile (0, 1: none); <= the k-blocks (K / 64)
  // A and B swapped (swap-AB): the kernel computes D^T = B A^T, A's few rows becoming wgmma's N
  // (16-column tiles), B's rows its 128-row tiles; D is stored transposed. For decode (the
  // heuristic swaps M <= 16): a stage then holds 128 rows of B and 16 of A instead of 64 rows of A
  // that are mostly zeros. Plain GEMMs over a K-major A only (gemm_sm90_config_supports).
  bool swap_ab = false;
  // Stream-K over the tiles the full waves leave (gemm_tile_scheduler.hpp) instead of split-K:
  // set by the heuristic where its model says so; asked for explicitly, taken wherever it can even
  // out a partial wave.
  bool stream_k = false;
};

// Rows per TMA box of A's second tensor map (K-major; the kernel's A, which is the user's B in
// the swapped variants): the last row block past M loads its stages as TileM / 32 boxes, only
// those that hold rows -- at most 31 rows of zeros instead of up to TileM - 1 (each zero row cost
// ~0.12 us at K = 4096 in 128 x 64 tiles: docs/design/gemm_sm90_parts.md, sessions 19 and 20).
// The kernel's atom (GemmSm90Params::tma_a_rows) and every host encoding of that map (the
// launcher, the JIT, the JIT's exported C) take it from here.
inline constexpr int kGemmSm90BoxRowsA = 32;
CUTE_DSL_HOST_DEVICE constexpr int gemm_sm90_box_rows_a(int tile_m) { return tile_m < kGemmSm90BoxRowsA ? tile_m : kGemmSm90BoxRowsA; }

// Whether tiles of `tile_rows` x `tile_n` (tile_rows: a cluster's rows, TileM x ClusterM) cover
// M x N exactly: no tile crosses M or N, so the edge paths never run (a kernel's EdgeTiles = false;
// the launchers' whole-tile forms, the heuristic's preference for them).
CUTE_DSL_HOST_DEVICE constexpr bool gemm_sm90_whole_tiles(int m, int n, int tile_rows, int tile_n) {
  return tile_rows > 0 && tile_n > 0 && m % tile_rows == 0 && n % tile_n == 0;
}

// What a launch asks of the split: at most `splits` K ranges per split tile (<= 1: none), or
// stream-K (gemm_tile_scheduler.hpp) where `stream_k`. From an int: split-K alone; from a
// configuration: its split and stream-K fields.
struct GemmSplitAsk {
  int splits = 1;
  bool stream_k = false;
  CUTE_DSL_HOST_DEVICE constexpr GemmSplitAsk(int splits_ = 1, bool stream_k_ = false) : splits(splits_), stream_k(stream_k_) {}
  // What a chosen configuration asks.
  CUTE_DSL_HOST_DEVICE constexpr explicit GemmSplitAsk(const GemmSm90Config& c) : splits(c.splits), stream_k(c.stream_k) {}
};

// A configuration's key for the launcher's dispatch (gemm_sm90_launch.hpp): distinct for every
// configuration whose fields are in range (tile_m <= 128, tile_n <= 999, stages <= 99, cluster_m
// <= 9), -1 otherwise, so that a configuration the launcher does not compile (tile_n 49) never
// matches one it does. Split, stream-K and swap-AB do not pick a kernel: not in the key.
CUTE_DSL_HOST_DEVICE constexpr int gemm_sm90_variant_key(const GemmSm90Config& c) {
  if (c.tile_m < 1 || c.tile_m > 192 || c.tile_n < 1 || c.tile_n > 999 || c.stages < 1 || c.stages > 99 || c.cluster_m < 1 ||
      c.cluster_m > 9)
    return -1;
  return c.tile_m * 10000000 + (c.ping_pong ? 1000000 : 0) + c.tile_n * 1000 + c.stages * 10 + c.cluster_m;
}

// The variants. Each uses 192 KiB of ring (tile size x stages traded against each other; the
// 128 x 192 tile 160 KiB in 4 stages, the swapped 128 x 16 one 180 KiB in 10) out of the 227 KiB
// an H100/H200 CTA may have; the 64 x 48 tile 196 KiB in 14, the swapped 128 x 32 one 200 KiB in
// 10). The swapped 128 x 32 tile serves 17..32 rows where N is wide enough (gemm_sm90_swap32_pays;
// at M <= 16 it was never faster than the 16-column one, H200 2026-11-27). The 64 x 48 tile (K-major B: each consumer 24 columns)
// is for outputs whose 64 x 64 tiles leave SMs idle: N = 1536 in 32 column blocks instead of 24
// (256 x 1536 x 4096: 128 CTAs at work instead of 96; docs/design/gemm_sm90_parts.md "Session 17").
// The 128 x 96 tile (K-major B; 196 KiB in 7 stages) likewise for outputs that one wave of its
// tiles covers, more than half full, where 128 x 128 tiles would leave a quarter of the SMs idle
// (1024 x 1536: 128 CTAs instead of 96; "Session 21"). The 128 x 160 (180 KiB in 5 stages) and
// 128 x 224 (176 KiB in 4) tiles refine the 128 x 192 and 128 x 256 tiles' single wave the same
// way ("Session 22"); with the 16-bit epilogue's 16 KiB of static shared memory neither has room
// for one more stage. The swapped 128 x 48 tile (176 KiB in 8 stages) holds 48 rows of M where a
// 64-row tile would hold 64 (two consumers of 64 x 24 each): M in steps of 48 instead of 64, and
// each consumer's wgmma 48 columns wide instead of 24 ("Session 25"). The 128 x 192 tile in
// clusters of 2 (K-major B: each CTA multicasts 96 of its columns) for rows off 128-byte lines,
// whose line requests the multicast halves for B, where its waves fill better than 128 x 256's,
// and the 192 x 192 tile in clusters of 2 (192 KiB in 4 stages; both consumers on all 192 rows,
// 96 columns each; K-major B, plain GEMMs only) for the same rows: as few lines per flop as
// 128 x 256 clustered, in finer waves ("Session 27").
inline constexpr GemmSm90Config kGemmSm90Configs[] = {
    {256, 4, 2}, {256, 4, 1}, {192, 4, 1}, {128, 6, 2}, {128, 6, 1}, {64, 8, 1}, {128, 6, 2, true},
    {64, 12, 1, false, 64}, {128, 8, 1, false, 64}, {16, 10, 1, false, 128, 0, true}, {48, 14, 1, false, 64}, {32, 10, 1, false, 128, 0, true},
    {96, 7, 1}, {160, 5, 1}, {224, 4, 1}, {48, 8, 1, false, 128, 0, true}, {192, 4, 2}, {192, 4, 2, false, 192}};
inline constexpr int kGemmSm90ConfigCount = int(sizeof(kGemmSm90Configs) / sizeof(kGemmSm90Configs[0]));

// Split-K tiles whose splits share the reduction (gemm_sm90.hpp, reduce_split): cooperative
// 128-row tiles at least kGemmSharedSplitMinN columns wide, split at least kGemmSharedSplitMin
// ways, over a whole tile of rows. The kernel and the split model (gemm_sm90_heuristic.hpp) ask
// the same question here. Narrower tiles (the swapped 16 and 32 columns: 8 or 16 values per
// thread) sum every split's partials in the last split, four splits per L2 round trip, sooner
// than sharing's three dependent steps (all splits arrive, each sums a share, the last reads the
// sums): 1..16 x 768..2560 x 2048..4096 split 4-8 ways ran 6-12% faster so (H200, 2026-11-28,
// bench/results/gemm_swapped_split_reduction_h200_2026-11-28.txt).
inline constexpr int kGemmSharedSplitMin = 3;
inline constexpr int kGemmSharedSplitMinN = 64;
CUTE_DSL_HOST_DEVICE constexpr bool gemm_sm90_shares_split_reduction(int tile_m, int tile_n, bool ping_pong, int splits, bool whole_rows) {
  return tile_m == 128 && tile_n >= kGemmSharedSplitMinN && !ping_pong && splits >= kGemmSharedSplitMin && whole_rows;
}

}  // namespace cute_dsl::kernels
