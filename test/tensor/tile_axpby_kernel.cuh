// The kernel of tile_copy_gpu_test.cu, in a header of its own so that the NVRTC test
// (nvrtc_tile_kernel_test.cpp) compiles exactly what the GPU runs, as the JIT would.
// A 64 x 64 tile per block of 256 threads: local_tile, identity-tensor predicates,
// cooperative_copy / copy_if into shared memory, shared -> shared, registers, axpby, copy_if out.
#pragma once

#include "tensor_layer.hpp"

namespace cute_dsl_tensor_test {

using namespace cute_dsl;

constexpr int kThreads = 256;
using TileM = Int<64>;
using TileN = Int<64>;

// SmemB: the layout of the second shared tile (column-major like sA, or row-major).
template <class SmemB>
__global__ void tile_axpby_kernel(float const* in, float const* c, float* out, int M, int N, float alpha, float beta) {
  __shared__ alignas(16) float smem_a[64 * 64];
  __shared__ alignas(16) float smem_b[64 * 64];
  const int tid = int(threadIdx.x);

  auto mIn = make_tensor(make_gmem_ptr(in), make_shape(M, N));
  auto mC = make_tensor(make_gmem_ptr(c), make_shape(M, N));
  auto mOut = make_tensor(make_gmem_ptr(out), make_shape(M, N));
  auto mId = make_identity_tensor(make_shape(M, N));

  auto tiler = make_tile(TileM{}, TileN{});
  auto blk = make_coord(int(blockIdx.x), int(blockIdx.y));
  auto gIn = local_tile(mIn, tiler, blk);
  auto gC = local_tile(mC, tiler, blk);
  auto gOut = local_tile(mOut, tiler, blk);
  auto gId = local_tile(mId, tiler, blk);

  auto sA = make_tensor(make_smem_ptr(smem_a), make_layout(make_shape(TileM{}, TileN{})));
  auto sB = make_tensor(make_smem_ptr(smem_b), SmemB{});

  // 32 x 8 threads, each owns a 2 x 8 sub-grid of the tile.
  auto thr = make_layout(make_shape(Int<32>{}, Int<8>{}));
  auto tIn = local_partition(gIn, thr, tid);
  auto tC = local_partition(gC, thr, tid);
  auto tOut = local_partition(gOut, thr, tid);
  auto tId = local_partition(gId, thr, tid);
  auto tsA = local_partition(sA, thr, tid);
  auto tsB = local_partition(sB, thr, tid);

  auto pred = make_fragment_like<bool>(tsA.layout());
  CUTE_DSL_UNROLL
  for (int i = 0; i < int(size(pred)); ++i) pred(i) = elem_less(tId(i), shape(mIn));

  const bool interior = (int(blockIdx.x) + 1) * 64 <= M && (int(blockIdx.y) + 1) * 64 <= N;
  if (interior) cooperative_copy<kThreads>(tid, gIn, sA);
  else copy_if(pred, tIn, tsA);
  __syncthreads();
  cooperative_copy<kThreads>(tid, sA, sB);
  __syncthreads();

  auto rIn = make_fragment_like(tsB);
  auto rC = make_fragment_like(tsB);
  copy(tsB, rIn);
  clear(rC);
  copy_if(pred, tC, rC);
  axpby(alpha, rIn, beta, rC);
  copy_if(pred, rC, tOut);
}

using ColMajorTile = Layout<tuple<TileM, TileN>, tuple<Int<1>, Int<64>>>;
using RowMajorTile = Layout<tuple<TileM, TileN>, tuple<Int<64>, Int<1>>>;

}  // namespace cute_dsl_tensor_test
