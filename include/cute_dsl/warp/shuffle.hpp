// Warp-level communication through register shuffles (shfl.sync, sm_30+; no shared memory):
// all-reduce over groups of Width consecutive lanes, broadcast, and the reduction of a register
// tensor across a warp.
//
// All-reduce is a butterfly: at distance d = Width/2, ..., 1 every lane combines its value with
// that of lane ^ d. After log2(Width) steps EVERY lane of each aligned group of Width lanes holds
// the group's result (no second broadcast step). Width must be a power of two <= 32. All 32 lanes
// must execute the call (full mask): groups are sub-warp, the warp is not.
//
// Each step combines in lane order (lower lane's value first) on both lanes of a pair, so an
// order-dependent op (max/min with NaN or -0/+0) still leaves every lane with the same result.
//
// Order of combination differs from a sequential sum, so float sums differ from a host loop in the
// last bits; integer sums and max/min are exact.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/warp/reduce_ops.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

namespace cute_dsl::warp {

inline constexpr unsigned full_mask = 0xFFFFFFFFu;

// The result of `op` over the `Width` lanes of this lane's group, in every lane of the group.
template <int Width = 32, class T, class Op>
CUTE_DSL_DEVICE T all_reduce(T value, Op op) {
  static_assert(Width >= 1 && Width <= 32 && (Width & (Width - 1)) == 0,
                "warp::all_reduce<Width>: Width must be a power of two between 1 and 32");
  // The lane from the linear thread index (warps are formed from it, for any block shape).
  const unsigned lane = (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32u;
  CUTE_DSL_UNROLL
  for (int distance = Width / 2; distance >= 1; distance /= 2) {
    T other = __shfl_xor_sync(full_mask, value, distance, Width);
    value = (lane & unsigned(distance)) ? op(other, value) : op(value, other);
  }
  return value;
}

// The same over groups of `width` lanes known only at run time (e.g. lanes per piece of work
// chosen from a launch's split).
// @pre width is a power of two in [1, 32], the same in every lane of the warp
template <class T, class Op>
CUTE_DSL_DEVICE T all_reduce(T value, int width, Op op) {
  const unsigned lane = (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32u;
  for (int distance = width / 2; distance >= 1; distance /= 2) {
    T other = __shfl_xor_sync(full_mask, value, distance);  // xor below width: stays in the aligned group
    value = (lane & unsigned(distance)) ? op(other, value) : op(value, other);
  }
  return value;
}

template <int Width = 32, class T>
CUTE_DSL_DEVICE T all_reduce_sum(T value) { return all_reduce<Width>(value, SumOp{}); }
template <int Width = 32, class T>
CUTE_DSL_DEVICE T all_reduce_max(T value) { return all_reduce<Width>(value, MaxOp{}); }
template <int Width = 32, class T>
CUTE_DSL_DEVICE T all_reduce_min(T value) { return all_reduce<Width>(value, MinOp{}); }

// The value of lane `src_lane` (0 .. Width-1) of this lane's group of `Width` lanes.
template <int Width = 32, class T>
CUTE_DSL_DEVICE T broadcast(T value, int src_lane) {
  static_assert(Width >= 1 && Width <= 32 && (Width & (Width - 1)) == 0,
                "warp::broadcast<Width>: Width must be a power of two between 1 and 32");
  return __shfl_sync(full_mask, value, src_lane, Width);
}

// `op` over every element of every lane's register tensor `t` (size() and operator[]), in every
// lane of the group: first each thread reduces its own elements, then the group all-reduces.
template <int Width = 32, class TensorLike, class Op>
CUTE_DSL_DEVICE auto reduce_tensor(const TensorLike& t, Op op) {
  return all_reduce<Width>(thread_reduce(t, op), op);
}

}  // namespace cute_dsl::warp

#endif  // __CUDACC__ || __CUDACC_RTC__
