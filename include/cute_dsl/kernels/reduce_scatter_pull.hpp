// The receiver side of the fused GEMM + reduce-scatter (epilogue/reduce_scatter.hpp): a few CTAs
// per rank, running beside the GEMM on SMs the GEMM leaves free, that reduce this rank's rows.
//
// Work: the 64 x 64 blocks of the output that hold this rank's rows, one block per warp at a
// time, in the order the GEMM finishes them (its raster: bands of columns, down the rows), so a
// warp mostly finds its block ready. Per block: lane 0 waits for each rank's ready flag in turn
// (system-scope acquire, over NVLink for the peers), then the warp reads every rank's
// partial of the block and adds them (the owner's first, then the others in rank order, in f32)
// and writes `out`. Remote loads take ~1-2 us, so each lane issues a whole batch of them before
// using any: 16 / MaxWorld chunks x MaxWorld ranks = 16 loads of 16 bytes in flight per lane
// (the first version loaded one chunk's ranks at a time and pulled ~45 GB/s with 16 CTAs).
// MaxWorld (2, 4 or 8, the launcher picks the smallest >= world) sizes those register arrays.
// The launch's last CTA to finish tells every peer that this rank pulled all of this epoch's
// partials (done[rank] = epoch), which lets their next GEMM overwrite them.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/epilogue/reduce_scatter.hpp"

namespace cute_dsl::kernels {

inline constexpr int kReduceScatterPullThreads = 256;
inline constexpr int kReduceScatterPullBandBlocks = 32;  // 64-column blocks per raster band (2048 columns)

}  // namespace cute_dsl::kernels

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

#include "cute_dsl/arch/system_flags.hpp"

namespace cute_dsl::kernels {

namespace reduce_scatter_pull_impl {

// One 16-byte chunk of T (8 bf16 / fp16, 4 f32) added into `sum` in f32 (first: assigned).
template <class T>
CUTE_DSL_DEVICE void add_chunk(float (&sum)[16 / sizeof(T)], uint4 const& raw, bool first) {
  T const* v = reinterpret_cast<T const*>(&raw);
  CUTE_DSL_UNROLL
  for (int e = 0; e < int(16 / sizeof(T)); ++e) sum[e] = first ? static_cast<float>(v[e]) : sum[e] + static_cast<float>(v[e]);
}

}  // namespace reduce_scatter_pull_impl

// @pre launched with kReduceScatterPullThreads threads, beside (not before) every rank's GEMM of
// the same epoch; the GEMMs never wait for it within a launch, so it may also run after them;
// world <= MaxWorld
template <int MaxWorld, class T, class Child>
__global__ void __launch_bounds__(kReduceScatterPullThreads)
    reduce_scatter_pull_kernel(const __grid_constant__ epilogue::ReduceScatter<T, Child> rs) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "reduce_scatter_pull_kernel: 16- or 32-bit output elements");
  static_assert(MaxWorld == 2 || MaxWorld == 4 || MaxWorld == 8, "reduce_scatter_pull_kernel: MaxWorld is 2, 4 or 8");
  constexpr int kBatch = 16 / MaxWorld;  // chunks per lane whose loads are in flight together
  constexpr int kPerChunk = 16 / int(sizeof(T));  // elements per 16-byte chunk
  const dist::ReduceScatterLayout& l = rs.layout;
  const int me = rs.window.rank, world = rs.window.world;
  const dist::RowOwners owners = l.owners();
  const int lo = owners.begin(me), hi = owners.begin(me + 1);
  const int lane = int(threadIdx.x) % 32;
  const int warps = int(gridDim.x) * (kReduceScatterPullThreads / 32);
  const int warp = int(blockIdx.x) * (kReduceScatterPullThreads / 32) + int(threadIdx.x) / 32;
  const int block_rows = hi > lo ? (hi - 1) / 64 - lo / 64 + 1 : 0;
  const int units = block_rows * l.blocks_n();
  // 16-byte chunks need 16-byte rows everywhere: N and ldo multiples of the chunk, `out` aligned.
  const bool chunks = l.n % kPerChunk == 0 && rs.ldo % kPerChunk == 0 && reinterpret_cast<unsigned long long>(rs.out) % 16 == 0;

  for (int u = warp; u < units; u += warps) {
    // Unit u -> block (br, bc): bands of kReduceScatterPullBandBlocks columns, rows within a band.
    const int band = u / (kReduceScatterPullBandBlocks * block_rows);
    const int in_band = u - band * kReduceScatterPullBandBlocks * block_rows;
    const int width = l.blocks_n() - band * kReduceScatterPullBandBlocks < kReduceScatterPullBandBlocks
                          ? l.blocks_n() - band * kReduceScatterPullBandBlocks
                          : kReduceScatterPullBandBlocks;
    const int br = lo / 64 + in_band / width, bc = band * kReduceScatterPullBandBlocks + in_band % width;
    const long long block = (long long)br * l.blocks_n() + bc;
    if (lane == 0)  // one poller per warp, one rank after the other (polls are what costs: see the wait)
      for (int s = 0; s < world; ++s)
        arch::flag_wait_at_least_system(rs.flag(s, dist::ReduceScatterLayout::ready_offset(block)), rs.epoch);
    __syncwarp();
    const int r0 = br * 64 > lo ? br * 64 : lo, r1 = br * 64 + 64 < hi ? br * 64 + 64 : hi;
    const int c0 = bc * 64, c1 = c0 + 64 < l.n ? c0 + 64 : l.n;
    if (chunks) {
      constexpr int kChunksPerRow = 64 / kPerChunk;
      T const* source[MaxWorld];  // the owner's first, then the others in rank order
      CUTE_DSL_UNROLL
      for (int k = 0; k < MaxWorld; ++k) source[k] = rs.partial(k >= world ? me : k == 0 ? me : k <= me ? k - 1 : k);
      const int count = (r1 - r0) * kChunksPerRow;
      for (int i0 = lane; i0 < count; i0 += 32 * kBatch) {
        uint4 raw[kBatch][MaxWorld];
        CUTE_DSL_UNROLL
        for (int j = 0; j < kBatch; ++j) {
          const int i = i0 + 32 * j;
          const int row = r0 + i / kChunksPerRow, col = c0 + (i % kChunksPerRow) * kPerChunk;
          const long long at = (long long)row * l.n + col;
          CUTE_DSL_UNROLL
          for (int k = 0; k < MaxWorld; ++k)
            if (i < count && col < c1 && k < world) raw[j][k] = __ldcg(reinterpret_cast<uint4 const*>(source[k] + at));
        }
        CUTE_DSL_UNROLL
        for (int j = 0; j < kBatch; ++j) {
          const int i = i0 + 32 * j;
          const int row = r0 + i / kChunksPerRow, col = c0 + (i % kChunksPerRow) * kPerChunk;
          if (i >= count || col >= c1) continue;
          float sum[kPerChunk];
          CUTE_DSL_UNROLL
          for (int k = 0; k < MaxWorld; ++k)
            if (k < world) reduce_scatter_pull_impl::add_chunk<T>(sum, raw[j][k], k == 0);
          T packed[kPerChunk];
          CUTE_DSL_UNROLL
          for (int e = 0; e < kPerChunk; ++e) packed[e] = T(sum[e]);
          *reinterpret_cast<uint4*>(rs.out + (long long)(row - lo) * rs.ldo + col) = *reinterpret_cast<uint4 const*>(packed);
        }
      }
    } else {
      for (int i = lane; i < (r1 - r0) * 64; i += 32) {
        const int row = r0 + i / 64, col = c0 + i % 64;
        if (col >= c1) continue;
        const long long at = (long long)row * l.n + col;
        float sum = static_cast<float>(rs.partial(me)[at]);
        for (int s = 0; s < world; ++s)
          if (s != me) sum += static_cast<float>(rs.partial(s)[at]);
        rs.out[(long long)(row - lo) * rs.ldo + col] = T(sum);
      }
    }
  }

  // Every CTA done reading: the last one tells the peers.
  __syncthreads();
  if (threadIdx.x != 0) return;
  unsigned* counter = rs.flag(me, dist::ReduceScatterLayout::counter_offset());
  __threadfence();
  if (atomicAdd(counter, 1u) != gridDim.x - 1) return;
  *counter = 0;  // every CTA counted: zeroed for the next launch
  arch::fence_acq_rel_system();
  for (int s = 0; s < world; ++s)
    if (s != me) arch::flag_store_release_system(rs.flag(s, dist::ReduceScatterLayout::done_offset(me)), rs.epoch);
}

}  // namespace cute_dsl::kernels

#endif  // __CUDACC__ || __CUDACC_RTC__
