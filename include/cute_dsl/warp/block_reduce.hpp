// All-reduce over a whole thread block: warps reduce by shuffles (warp/shuffle.hpp), warp 0
// reduces the per-warp partials from shared memory, and every thread reads the result.
//
// The caller provides the scratch: `partials` in shared memory with room for one T per warp
// (blockDim.x / 32, at most 32) plus one for the result. Two __syncthreads() inside: every thread
// of the block must call it. Back-to-back calls may share the scratch: the result slot is written
// again only after the next call's first barrier, which every reader of this result has passed.
// blockDim.x must be a multiple of 32 and the block one-dimensional. The partials are combined in
// warp order by one thread, so the result is the same on every run.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/warp/reduce_ops.hpp"
#include "cute_dsl/warp/shuffle.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

namespace cute_dsl::warp {

// Room `partials` needs for a block of `threads` threads: one slot per warp and one for the result.
CUTE_DSL_HOST_DEVICE constexpr int block_reduce_scratch_size(int threads) { return threads / 32 + 1; }

template <class T, class Op>
CUTE_DSL_DEVICE T block_all_reduce(T value, Op op, T* partials) {
  const unsigned lane = threadIdx.x % 32u;
  const int warp_id = static_cast<int>(threadIdx.x / 32u);
  const int warps = static_cast<int>(blockDim.x / 32u);
  value = all_reduce<32>(value, op);
  if (lane == 0) partials[warp_id] = value;
  __syncthreads();
  if (threadIdx.x == 0) {
    T acc = partials[0];
    for (int w = 1; w < warps; ++w) acc = op(acc, partials[w]);
    partials[warps] = acc;
  }
  __syncthreads();
  return partials[warps];
}

}  // namespace cute_dsl::warp

#endif  // __CUDACC__ || __CUDACC_RTC__
