// The binary operators that warp and block reductions combine values with. Function objects
// rather than lambdas: NVRTC rejects generic lambdas in __host__ __device__ code, and a named type
// also names the identity element that pads partial reductions.
#pragma once

#include "cute_dsl/config.hpp"

namespace cute_dsl::warp {

struct SumOp {
  template <class T>
  CUTE_DSL_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return a + b; }
};

// Max and Min return the first argument on ties and never mix in a NaN through `?:` ordering:
// the result is one of the inputs, bit for bit, so a reduction's result is exact.
struct MaxOp {
  template <class T>
  CUTE_DSL_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return b > a ? b : a; }
};

struct MinOp {
  template <class T>
  CUTE_DSL_HOST_DEVICE constexpr T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};

// Reduces the elements t[0] .. t[size-1] of anything with size() and operator[] (a register
// Tensor, an array wrapper) in index order; the thread-local first step of a warp reduction.
template <class TensorLike, class Op>
CUTE_DSL_HOST_DEVICE constexpr auto thread_reduce(const TensorLike& t, Op op) {
  auto acc = t[0];
  const int n = static_cast<int>(t.size());
  for (int i = 1; i < n; ++i) acc = op(acc, t[i]);
  return acc;
}

}  // namespace cute_dsl::warp
