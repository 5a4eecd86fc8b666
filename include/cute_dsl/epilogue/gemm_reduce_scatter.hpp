// The Hopper GEMM's side of the reduce-scatter node (reduce_scatter.hpp): where each finished
// tile's partials go and how they are published. The reduction itself runs in the receivers'
// reducer CTAs (kernels/reduce_scatter_pull.hpp).
//
// Per tile, by the consumer threads of a cooperative CTA (named barrier `barrier`):
//   route_begin   before the CTA's first store of this launch, thread 0 waits until every peer
//                 finished pulling the previous launch's partials (done >= epoch - 1);
//   route_block   each accumulator block goes into this rank's partial product, in its own
//                 memory, with the epilogue's ordinary (staged, coalesced) stores;
//   route_end     barrier; thread 0 publishes each 64 x 64 block of the tile (ready = epoch,
//                 system-scope release: the readers are the other GPUs).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/epilogue/reduce_scatter.hpp"
#include "cute_dsl/kernels/gemm_epilogue.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

#include "cute_dsl/arch/named_barrier.hpp"
#include "cute_dsl/arch/system_flags.hpp"

namespace cute_dsl::epilogue {

// @pre every consumer thread calls it (`thread` in [0, threads)), with the same `peers_ready`
template <class T, class Child>
CUTE_DSL_DEVICE void route_begin(ReduceScatter<T, Child> const& rs, int thread, unsigned barrier, int threads, bool& peers_ready) {
  if (peers_ready) return;
  if (thread == 0)
    for (int s = 0; s < rs.window.world; ++s)
      if (s != rs.window.rank)
        arch::flag_wait_at_least_system(rs.flag(rs.window.rank, dist::ReduceScatterLayout::done_offset(s)), rs.epoch - 1);
  arch::named_barrier_sync(barrier, threads);
  peers_ready = true;
}

// One accumulator block (a wgmma atom's values, N / 2 per thread, coordinates `crd`, tile origin
// (row0, col0)) into this rank's partial product. @pre every lane of the warp calls it
template <int N, class T, class Child, class Acc, class Crd>
CUTE_DSL_DEVICE void route_block(ReduceScatter<T, Child> const& rs, Acc const& acc, Crd const& crd, int row0, int col0, int lane,
                                 unsigned char* stage) {
  kernels::GemmEpilogueParams<T> p{};
  p.d = rs.partial(rs.window.rank), p.ldd = rs.layout.n;
  p.m = rs.layout.m, p.n = rs.layout.n, p.alpha = 1.f, p.beta = 0.f;
  if constexpr (sizeof(T) == 2) kernels::gemm_store_accumulators_staged<T, N>(acc, crd, p, row0, col0, 0, lane, stage);
  else kernels::gemm_store_accumulators<T, N>(acc, crd, p, row0, col0, 0);
}

// The tile (rows from m_block, columns from n_block, tile_m x tile_n) is stored: publish its
// 64 x 64 blocks. @pre tile_m, tile_n multiples of 64; every consumer thread calls it
template <class T, class Child>
CUTE_DSL_DEVICE void route_end(ReduceScatter<T, Child> const& rs, int m_block, int n_block, int tile_m, int tile_n, int thread,
                               unsigned barrier, int threads) {
  arch::named_barrier_sync(barrier, threads);  // every thread's stores of the tile are issued
  if (thread != 0) return;
  arch::fence_acq_rel_system();
  const dist::ReduceScatterLayout& l = rs.layout;
  for (int r = m_block; r < m_block + tile_m && r < l.m; r += 64)
    for (int c = n_block; c < n_block + tile_n && c < l.n; c += 64)
      arch::flag_store_release_system(rs.flag(rs.window.rank, dist::ReduceScatterLayout::ready_offset(l.block_id(r, c))), rs.epoch);
}

}  // namespace cute_dsl::epilogue

#endif  // __CUDACC__ || __CUDACC_RTC__
