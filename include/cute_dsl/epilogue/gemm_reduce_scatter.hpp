// The Hopper GEMM's side of the reduce-scatter node (reduce_scatter.hpp): where each finished
// tile's partials go and how they are published. The reduction itself runs in the receivers'
// reducer CTAs (kernels/reduce_scatter_pull.hpp).
//
// Per tile, by the consumer threads of a cooperative CTA (named barrier `barrier`):
//   route_begin   before the CTA's first store of this launch, thread 0 waits until every peer
//                 finished pulling the previous launch's partials (done >= epoch - 1);
//   route_block   each accumulator block goes into this rank's partial product, in its own
//                 memory, with the epilogue's ordinary (staged, coalesced) stores;
//   route_end     the consumers meet the publishing warp (warp 1 of the producer warpgroup,
//                 idle under TMA), whose lane 0 then publishes each 64 x 64 block of the tile
//                 (ready = epoch, a system-scope release: the readers are the other GPUs). The
//                 system-scope fence costs microseconds; on the consumers (first version) it
//                 made the GEMM 1.5x slower (8192^3 on 116 SMs: 1112 vs ~825 us, H100).
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

// The consumers' end of a tile: its stores are issued; the publishing warp takes it from here.
// @pre every consumer thread calls it, once per tile, as the publisher calls route_publish
CUTE_DSL_DEVICE inline void route_end(unsigned barrier, int threads) { arch::named_barrier_sync(barrier, threads); }

// The publishing warp (an idle warp of the producer warpgroup), once per tile in the consumers'
// order: meets them at `barrier` (so their stores are ordered before this warp's release), then
// lane 0 publishes the tile's 64 x 64 blocks (rows from m_block, columns from n_block, tile_m x
// tile_n: multiples of 64). The consumers sync rather than only arrive, so they can never lap
// the publisher by a tile; they wait only if it is still fencing the previous tile.
template <class T, class Child>
CUTE_DSL_DEVICE void route_publish(ReduceScatter<T, Child> const& rs, int m_block, int n_block, int tile_m, int tile_n, int lane,
                                   unsigned barrier, int threads) {
  arch::named_barrier_sync(barrier, threads);
  if (lane != 0) return;
  arch::fence_acq_rel_system();
  const dist::ReduceScatterLayout& l = rs.layout;
  for (int r = m_block; r < m_block + tile_m && r < l.m; r += 64)
    for (int c = n_block; c < n_block + tile_n && c < l.n; c += 64)
      arch::flag_store_release_system(rs.flag(rs.window.rank, dist::ReduceScatterLayout::ready_offset(l.block_id(r, c))), rs.epoch);
}

}  // namespace cute_dsl::epilogue

#endif  // __CUDACC__ || __CUDACC_RTC__
