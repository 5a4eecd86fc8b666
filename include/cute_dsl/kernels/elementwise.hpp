// Bandwidth-bound elementwise kernels: out[i] = op(a[i]) and out[i] = op(a[i], b[i]), and copy.
//
//   elementwise_unary_kernel <T, Op, V, Threads, Unroll[, Access]><<<grid, Threads>>>(out, a, n, op)
//   elementwise_binary_kernel<T, Op, V, Threads, Unroll[, Access]><<<grid, Threads>>>(out, a, b, n, op)
//   copy_kernel              <T,     V, Threads, Unroll[, Access]><<<grid, Threads>>>(out, a, n)
//
// T: element type; Op: a functor (elementwise_ops.hpp, or any trivially copyable one);
// V: elements per vector access (16 / sizeof(T) gives 16-byte LDG.128/STG.128);
// Threads: block size (also __launch_bounds__); Unroll: vectors each thread loads before it
// computes and stores (independent loads in flight); Access: how vectors are loaded and stored
// (elementwise_access.hpp: DefaultAccess = PlainAccess; StreamingAccess adds cache hints).
// V, Threads, Unroll and Access default to the measured winners (elementwise_defaults.hpp:
// 16-byte vectors, 256 threads, Unroll 1, plain), launched on a one-trip grid
// (elementwise_default_grid, elementwise_launch.hpp); any grid is correct (grid-stride loop).
// The same template compiles with nvcc (#include, compile-time arguments) and through the JIT
// (KernelSpec{header "cute_dsl/kernels/elementwise.hpp", kernel
// "cute_dsl::kernels::elementwise_binary_kernel", targs "f32, type:cute_dsl::kernels::Add, 4, 256, 4"}).
//
// Requirements: n >= 0 elements, any n (the last n % V elements are done one by one). Pointers
// need only T's own alignment: when any of them is not aligned to V * sizeof(T) the kernel takes a
// scalar path (correct, slower); full speed needs V * sizeof(T)-aligned pointers, which cudaMalloc
// gives. `out` must not overlap the inputs (they are read through __restrict__, non-coherent loads).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/kernels/elementwise_access.hpp"
#include "cute_dsl/kernels/elementwise_defaults.hpp"
#include "cute_dsl/kernels/elementwise_ops.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)  // kernels only where a CUDA compiler reads this

namespace cute_dsl::kernels {

// V elements accessed as one aligned unit: a V * sizeof(T) = 16-byte struct loads with one LDG.128.
template <class T, int V>
struct alignas(sizeof(T) * V) AlignedVector {
  T v[V];
};

namespace detail {

template <class Vec>
CUTE_DSL_DEVICE inline bool is_vector_aligned(const void* p) {
  return reinterpret_cast<unsigned long long>(p) % sizeof(Vec) == 0;
}

// The one loop behind every elementwise kernel; `b` is unused (may be null) when Arity == 1.
template <int Arity, class T, class Op, int V, int Threads, int Unroll, class Access>
CUTE_DSL_DEVICE inline void elementwise_apply(T* out, const T* a, const T* b, long long n, const Op& op) {
  static_assert(Arity == 1 || Arity == 2, "elementwise_apply: unary or binary functors only");
  static_assert(V >= 1 && (V & (V - 1)) == 0, "elementwise: the vector width V must be a power of two");
  static_assert(sizeof(T) * V <= 16, "elementwise: one vector access is at most 16 bytes (V * sizeof(T) <= 16)");
  static_assert(Unroll >= 1 && Threads >= 32 && Threads % 32 == 0, "elementwise: Threads a multiple of 32, Unroll >= 1");
  using Vec = AlignedVector<T, V>;
  constexpr long long kTrip = static_cast<long long>(Threads) * Unroll;  // vectors per block per trip

  const bool vectorized = is_vector_aligned<Vec>(out) && is_vector_aligned<Vec>(a) &&
                          (Arity == 1 || is_vector_aligned<Vec>(b));
  const long long first = static_cast<long long>(blockIdx.x) * Threads + threadIdx.x;
  if (!vectorized) {  // scalar fallback for misaligned pointers
    for (long long i = first; i < n; i += static_cast<long long>(gridDim.x) * Threads) {
      if constexpr (Arity == 1) out[i] = op(a[i]);
      else out[i] = op(a[i], b[i]);
    }
    return;
  }

  const long long nvec = n / V;
  Vec* vout = reinterpret_cast<Vec*>(out);
  const Vec* va = reinterpret_cast<const Vec*>(a);
  const Vec* vb = reinterpret_cast<const Vec*>(b);
  for (long long base = static_cast<long long>(blockIdx.x) * kTrip + threadIdx.x; base < nvec;
       base += static_cast<long long>(gridDim.x) * kTrip) {
    // All loads first, then all stores: Unroll (x Arity) independent 16-byte loads per thread in
    // flight. Neighbouring threads take neighbouring vectors, so each warp access is 512 bytes.
    Vec x[Unroll];
    Vec y[Arity == 2 ? Unroll : 1];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      const long long i = base + static_cast<long long>(u) * Threads;
      if (i < nvec) {
        x[u] = Access::load(va + i);
        if constexpr (Arity == 2) y[u] = Access::load(vb + i);
      }
    }
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      const long long i = base + static_cast<long long>(u) * Threads;
      if (i < nvec) {
        Vec r;
#pragma unroll
        for (int e = 0; e < V; ++e) {
          if constexpr (Arity == 1) r.v[e] = op(x[u].v[e]);
          else r.v[e] = op(x[u].v[e], y[u].v[e]);
        }
        Access::store(vout + i, r);
      }
    }
  }
  // The last n % V elements, one per thread of the first block(s).
  const long long tail = nvec * V + first;
  if (tail < n) {
    if constexpr (Arity == 1) out[tail] = op(a[tail]);
    else out[tail] = op(a[tail], b[tail]);
  }
}

}  // namespace detail

template <class T, class Op, int V = kElementwiseVector<T>, int Threads = kElementwiseThreads,
          int Unroll = kElementwiseUnroll, class Access = DefaultAccess>
__global__ void __launch_bounds__(Threads)
elementwise_unary_kernel(T* __restrict__ out, const T* __restrict__ a, long long n, Op op) {
  detail::elementwise_apply<1, T, Op, V, Threads, Unroll, Access>(out, a, nullptr, n, op);
}

template <class T, class Op, int V = kElementwiseVector<T>, int Threads = kElementwiseThreads,
          int Unroll = kElementwiseUnroll, class Access = DefaultAccess>
__global__ void __launch_bounds__(Threads)
elementwise_binary_kernel(T* __restrict__ out, const T* __restrict__ a, const T* __restrict__ b, long long n, Op op) {
  detail::elementwise_apply<2, T, Op, V, Threads, Unroll, Access>(out, a, b, n, op);
}

// Copy: the unary kernel with Identity, under its own name (what the benchmarks compare with
// cudaMemcpy).
template <class T, int V = kElementwiseVector<T>, int Threads = kElementwiseThreads, int Unroll = kElementwiseUnroll,
          class Access = DefaultAccess>
__global__ void __launch_bounds__(Threads)
copy_kernel(T* __restrict__ out, const T* __restrict__ a, long long n) {
  detail::elementwise_apply<1, T, Identity, V, Threads, Unroll, Access>(out, a, nullptr, n, Identity{});
}

}  // namespace cute_dsl::kernels

#endif  // a CUDA compiler
