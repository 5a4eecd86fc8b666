// How big a grid the elementwise, copy and transpose kernels get: plain arithmetic, shared by the
// nvcc path (tests, benchmarks), the JIT path (`cute-dsl demo`) and the docs.
//
// Two grids for the same kernels (they loop grid-stride, so any grid is correct):
//   one-trip  (the default) one block per Threads x Unroll vectors, every block does one trip and
//             exits. Measured best on the H200 (copy f32 256 threads x 1: 0.995x cudaMemcpy at
//             2 GiB; elementwise_defaults.hpp says why).
//   resident  capped at the blocks the GPU holds at once; each block then loops over the data.
//             Kept for the benchmarks' comparison and for callers that want a persistent grid.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/kernels/elementwise_defaults.hpp"

namespace cute_dsl::kernels {

// Compile-time shape of one elementwise instantiation (the JIT passes the same numbers as
// template arguments). The defaults are the measured ones (elementwise_defaults.hpp), for 4-byte types.
struct ElementwiseShape {
  int vector_elems = 4;                   // elements per 16-byte access (16 / sizeof(T) for full vectors)
  int threads = kElementwiseThreads;      // threads per block
  int unroll = kElementwiseUnroll;        // vectors per thread per loop trip: independent loads in flight
  CUTE_DSL_HOST_DEVICE constexpr long long elems_per_block_trip() const {
    return static_cast<long long>(vector_elems) * threads * unroll;
  }
};

// Blocks of `threads` threads one SM holds at once, given the kernel's registers per thread
// (0: unknown, assume the thread limit binds) and static shared memory per block (0: none).
// Hopper limits: 2048 threads, 64 K registers, 32 blocks, 228 KiB of shared memory per SM with
// 1 KiB reserved per block; registers allocated per warp in units of 256.
CUTE_DSL_HOST_DEVICE constexpr int resident_blocks_per_sm(int threads, int registers_per_thread,
                                                          long long shared_bytes_per_block = 0) {
  int by_threads = 2048 / threads;
  if (registers_per_thread > 0) {
    const int warps = (threads + 31) / 32;
    const int regs_per_warp = ((registers_per_thread * 32 + 255) / 256) * 256;
    const int by_regs = 65536 / (regs_per_warp * warps);
    by_threads = by_regs < by_threads ? by_regs : by_threads;
  }
  if (shared_bytes_per_block > 0) {
    const int by_smem = static_cast<int>((228 * 1024) / (shared_bytes_per_block + 1024));
    by_threads = by_smem < by_threads ? by_smem : by_threads;
  }
  by_threads = by_threads < 32 ? by_threads : 32;
  return by_threads > 0 ? by_threads : 1;
}

// Grid for an elementwise kernel over n elements: enough blocks for one trip each, capped at the
// resident blocks of the whole GPU. Never 0 (a launch needs a block even for n == 0).
CUTE_DSL_HOST_DEVICE constexpr long long elementwise_grid(long long n, ElementwiseShape s, int sm_count,
                                                          int blocks_per_sm) {
  const long long per_block = s.elems_per_block_trip();
  long long blocks = (n + per_block - 1) / per_block;
  const long long cap = static_cast<long long>(sm_count) * blocks_per_sm;
  if (blocks > cap) blocks = cap;
  return blocks > 0 ? blocks : 1;
}

// The default grid: one trip per block, no residency cap. Only the grid.x limit (2^31 - 1 blocks,
// ~8 TB of f32 at the default shape) caps it; past that the grid-stride loop does the rest.
CUTE_DSL_HOST_DEVICE constexpr long long elementwise_onetrip_grid(long long n, ElementwiseShape s = {}) {
  constexpr long long kMaxGridX = 2147483647;
  const long long per_block = s.elems_per_block_trip();
  const long long blocks = (n + per_block - 1) / per_block;
  return blocks < 1 ? 1 : (blocks > kMaxGridX ? kMaxGridX : blocks);
}

// Grid for copy_bulk_kernel (copy_bulk.hpp) over `bytes` bytes in chunks of `chunk_bytes`: one
// chunk per block, capped at `sm_count * blocks_per_sm` resident blocks (each then walks several
// chunks); blocks_per_sm == 0 means no cap (a non-persistent grid). Never 0.
CUTE_DSL_HOST_DEVICE constexpr long long bulk_copy_grid(long long bytes, int chunk_bytes, int sm_count,
                                                        int blocks_per_sm) {
  long long blocks = (bytes + chunk_bytes - 1) / chunk_bytes;
  const long long cap = static_cast<long long>(sm_count) * blocks_per_sm;
  if (blocks_per_sm > 0 && blocks > cap) blocks = cap;
  return blocks > 0 ? blocks : 1;
}

// Grid for the tiled transposes (transpose.hpp, transpose_vectorized.hpp) of a rows x cols
// matrix: one block per tile (tile_rows x tile_cols of the input; square: Tile x Tile).
CUTE_DSL_HOST_DEVICE constexpr long long transpose_grid(long long rows, long long cols, int tile_rows, int tile_cols) {
  const long long blocks = ((rows + tile_rows - 1) / tile_rows) * ((cols + tile_cols - 1) / tile_cols);
  return blocks > 0 ? blocks : 1;
}
CUTE_DSL_HOST_DEVICE constexpr long long transpose_grid(long long rows, long long cols, int tile) {
  return transpose_grid(rows, cols, tile, tile);
}

}  // namespace cute_dsl::kernels
