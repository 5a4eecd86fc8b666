// The cold-compile benchmark's heavy kernel (bench/jit/jit_bench.cpp): a tiled transposing copy
// written with the layout algebra only, all of it static, so that NVRTC does the work a real
// CuteDSL kernel makes it do: local_tile of the global matrix, local_partition of each tile
// among the threads, a thread-value layout built by raked_product and inverted, and a swizzled
// shared-memory tile (a ComposedLayout). Correctness is not its point (it is never launched).
#pragma once

#include "cute_dsl/layout/composed_layout.hpp"
#include "cute_dsl/layout/inverse.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/product.hpp"
#include "cute_dsl/layout/swizzle.hpp"
#include "cute_dsl/layout/tiling.hpp"

namespace cute_dsl_jit_bench {

using namespace cute_dsl;

template <class T, int M, int N, int BM, int BN, int ThrM, int ThrN>
__global__ void __launch_bounds__(ThrM * ThrN) tiled_copy(T* __restrict__ out, const T* __restrict__ in) {
  // The matrices: in is M x N row-major, out is N x M row-major (the transpose).
  constexpr auto g_in = make_layout(make_shape(Int<M>{}, Int<N>{}), make_stride(Int<N>{}, Int<1>{}));
  constexpr auto g_out = make_layout(make_shape(Int<M>{}, Int<N>{}), make_stride(Int<1>{}, Int<M>{}));
  constexpr auto tiler = make_tile(Int<BM>{}, Int<BN>{});
  const auto block = make_coord(static_cast<int>(blockIdx.x), static_cast<int>(blockIdx.y));
  auto [tile_in, off_in] = local_tile(g_in, tiler, block);
  auto [tile_out, off_out] = local_tile(g_out, tiler, block);

  // Threads row-major over the tile for the load, column-major for the store.
  constexpr auto thr_load = make_layout(make_shape(Int<ThrM>{}, Int<ThrN>{}), make_stride(Int<ThrN>{}, Int<1>{}));
  constexpr auto thr_store = make_layout(make_shape(Int<ThrN>{}, Int<ThrM>{}), make_stride(Int<1>{}, Int<ThrN>{}));
  const int tid = static_cast<int>(threadIdx.x);
  auto [part_in, toff_in] = local_partition(tile_in, thr_load, tid);
  auto [part_out, toff_out] = local_partition(tile_out, thr_store, tid);

  // A thread-value layout of the tile (threads raked over values), inverted: which element of the
  // tile each (thread, value) pair owns. Used to order the shared-memory reads.
  constexpr auto vals = make_layout(make_shape(Int<BM / ThrM>{}, Int<BN / ThrN>{}));
  constexpr auto tv = raked_product(thr_load, vals);
  constexpr auto tv_inverse = right_inverse(tv);
  static_assert(size(tv) == BM * BN, "the thread-value layout covers the tile");

  // Shared memory: BM x BN row-major, swizzled so that the column reads do not conflict.
  constexpr auto s_plain = make_layout(make_shape(Int<BM>{}, Int<BN>{}), make_stride(Int<BN>{}, Int<1>{}));
  constexpr auto s_swizzled = composition(Swizzle<3, 2, 3>{}, s_plain);
  __shared__ T smem[BM * BN];
  auto [s_part, s_off] = local_partition(s_plain, thr_load, tid);
  auto [s_part_t, s_off_t] = local_partition(s_plain, make_layout(make_shape(Int<ThrM>{}, Int<ThrN>{})), tid);

#pragma unroll
  for (int i = 0; i < size(part_in); ++i)
    smem[Swizzle<3, 2, 3>{}(s_off + s_part(i))] = in[off_in + toff_in + part_in(i)];
  __syncthreads();
#pragma unroll
  for (int i = 0; i < size(part_out); ++i) {
    const int e = s_off_t + s_part_t(i);
    out[off_out + toff_out + part_out(i)] = smem[s_swizzled(tv(tv_inverse(e)) % (BM * BN))];
  }
}

}  // namespace cute_dsl_jit_bench
