// Device-to-device copy through the TMA unit: cp.async.bulk global -> shared -> global, no data in
// registers (sm_90+).
//
//   copy_bulk_kernel<T, ChunkBytes, Stages><<<grid, 32>>>(out, in, n)
//
// Why: cudaMemcpy's bandwidth is the anchor for every bandwidth-bound kernel (docs/design/
// kernels.md); a copy whose bytes never pass through registers needs one thread per block and no
// load/store instructions per 16 bytes, so it is the variant most likely to match it.
//
// How: each block walks chunks blockIdx.x, blockIdx.x + gridDim.x, ... of ChunkBytes bytes
// through a ring of Stages shared-memory buffers. One thread issues everything: a bulk load per
// chunk completing on the stage's mbarrier (transaction bytes), and once it has landed a bulk
// store of the same buffer (bulk group). A buffer is refilled one iteration after its store was
// issued, once cp.async.bulk.wait_group.read says the store has read it, so Stages - 1 loads
// stay in flight behind the store. Grid: elementwise_launch.hpp's bulk_copy_grid (resident blocks
// of the GPU, or one chunk per block).
//
// Requirements: any n; bulk copies need 16-byte-aligned addresses and sizes, so when `in` or
// `out` is not 16-byte aligned the whole copy is done by the threads element by element (correct,
// slow), and the last (n * sizeof(T)) % 16 bytes always are. ChunkBytes a multiple of 16,
// Stages x ChunkBytes <= 48 KiB (static shared memory). `out` must not overlap `in`.
#pragma once

#include "cute_dsl/arch/sm90/bulk_copy.hpp"
#include "cute_dsl/arch/sm90/fence.hpp"
#include "cute_dsl/arch/sm90/mbarrier.hpp"
#include "cute_dsl/config.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

namespace cute_dsl::kernels {

namespace detail {

// Chunk `c`'s byte count: ChunkBytes, or what is left of `bulk_bytes` for the last one.
template <int ChunkBytes>
CUTE_DSL_DEVICE inline unsigned bulk_chunk_bytes(long long c, long long bulk_bytes) {
  const long long left = bulk_bytes - c * ChunkBytes;
  return static_cast<unsigned>(left < ChunkBytes ? left : ChunkBytes);
}

}  // namespace detail

template <class T, int ChunkBytes, int Stages>
__global__ void __launch_bounds__(32)
copy_bulk_kernel(T* __restrict__ out, const T* __restrict__ in, long long n) {
  static_assert(ChunkBytes % 16 == 0 && ChunkBytes > 0, "copy_bulk_kernel: ChunkBytes must be a multiple of 16");
  static_assert(Stages >= 2, "copy_bulk_kernel: at least 2 stages (one loading while one stores)");
  static_assert(static_cast<long long>(ChunkBytes) * Stages <= 48 * 1024,
                "copy_bulk_kernel: Stages x ChunkBytes must fit 48 KiB of static shared memory");
  static_assert(16 % sizeof(T) == 0, "copy_bulk_kernel: sizeof(T) must divide 16");
  __shared__ alignas(128) unsigned char buffer[Stages][ChunkBytes];
  __shared__ cuda::std::uint64_t loaded[Stages];

  const long long total_bytes = n * static_cast<long long>(sizeof(T));
  const bool aligned = (reinterpret_cast<unsigned long long>(out) | reinterpret_cast<unsigned long long>(in)) % 16 == 0;
  const long long bulk_bytes = aligned ? total_bytes / 16 * 16 : 0;

  // Whatever the bulk copies do not cover: the < 16-byte tail, or everything when misaligned.
  const long long first_left = bulk_bytes / static_cast<long long>(sizeof(T));
  for (long long i = first_left + static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    out[i] = in[i];
  if (threadIdx.x != 0 || bulk_bytes == 0) return;

  const long long chunks = (bulk_bytes + ChunkBytes - 1) / ChunkBytes;
  const long long mine = chunks > blockIdx.x ? (chunks - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;
  auto* dst = reinterpret_cast<unsigned char*>(out);
  const auto* src = reinterpret_cast<const unsigned char*>(in);

#pragma unroll
  for (int s = 0; s < Stages; ++s) arch::mbarrier_init<T>(&loaded[s], 1);
  arch::fence_barrier_init<T>();  // the inits are visible to the async proxy before its copies

  // The j-th chunk of this block, into stage j % Stages.
  const long long stride = gridDim.x;
  const long long base = blockIdx.x;
  for (long long j = 0; j < Stages && j < mine; ++j) {
    const long long c = base + j * stride;
    const unsigned bytes = detail::bulk_chunk_bytes<ChunkBytes>(c, bulk_bytes);
    arch::mbarrier_arrive_expect_tx<T>(&loaded[j], bytes);
    arch::bulk_copy_g2s<T>(buffer[j], src + c * ChunkBytes, bytes, &loaded[j]);
  }
  for (long long j = 0; j < mine; ++j) {
    const int s = static_cast<int>(j % Stages);
    const long long c = base + j * stride;
    arch::mbarrier_wait<T>(&loaded[s], static_cast<unsigned>((j / Stages) & 1));
    arch::bulk_copy_s2g<T>(dst + c * ChunkBytes, buffer[s], detail::bulk_chunk_bytes<ChunkBytes>(c, bulk_bytes));
    arch::bulk_commit_group<T>();
    // Refill the previous stage once its store has read it (all but the newest group read).
    const long long refill = j - 1 + Stages;
    if (j >= 1 && refill < mine) {
      arch::bulk_wait_group_read<1, T>();
      const int r = static_cast<int>(refill % Stages);
      const long long rc = base + refill * stride;
      const unsigned bytes = detail::bulk_chunk_bytes<ChunkBytes>(rc, bulk_bytes);
      arch::mbarrier_arrive_expect_tx<T>(&loaded[r], bytes);
      arch::bulk_copy_g2s<T>(buffer[r], src + rc * ChunkBytes, bytes, &loaded[r]);
    }
  }
  arch::bulk_wait_group<0, T>();  // the stores are done before the block (and its shared memory) ends
}

}  // namespace cute_dsl::kernels

#endif  // __CUDACC__ || __CUDACC_RTC__
