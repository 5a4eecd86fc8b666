// The Hopper GEMM's side of the reduce-scatter node (reduce_scatter.hpp): what the consumers do
// with each finished tile, and the final pass over the tiles left deferred.
//
// Per tile, by the 256 consumer threads of a cooperative CTA (named barrier `barrier`):
//   route_begin   thread 0 checks (without waiting) whether every other rank's partial of the
//                 tile's own rows has landed, and before this CTA's first send waits until every
//                 peer finished reading the previous launch's partials; the barrier shares both.
//   route_block   per 64-row accumulator block, per warp band of 16 rows: rows of one other
//                 owner go to that owner's slot (the epilogue's staged 16-byte stores); own rows
//                 are reduced and written to `out`, or parked in the own slot; a band that
//                 straddles owners goes element by element.
//   route_end     barrier; thread 0 publishes the tile to each owner it sent rows to (one
//                 system-scope release per owner) and records a deferred own tile.
// route_finish (after the CTA's last tile): each deferred own tile waits for the partials and is
// reduced by all 256 threads; then the CTA counts itself done, and the launch's last CTA tells
// every peer this rank finished reading (done[rank] = epoch).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/epilogue/reduce_scatter.hpp"
#include "cute_dsl/kernels/gemm_epilogue.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

#include "cute_dsl/arch/named_barrier.hpp"
#include "cute_dsl/arch/system_flags.hpp"

namespace cute_dsl::epilogue {

// One tile as the node routes it.
struct TileRoute {
  long long id;                // ready / deferred index (64 x 64 blocks)
  int row_lo, row_hi;          // the tile's rows inside M
  int col_lo, col_hi;          // its columns inside N
  int owner_lo, owner_hi;      // the owners of those rows
  bool own, sends, ready;      // has own rows; has other ranks' rows; own rows reducible now
};

template <class T, class Child>
CUTE_DSL_DEVICE TileRoute route_tile(ReduceScatter<T, Child> const& rs, int m_block, int n_block, int tile_m, int tile_n) {
  const dist::RowOwners owners = rs.owners();
  TileRoute r{};
  r.id = rs.tile_id(m_block, n_block);
  r.row_lo = m_block;
  r.row_hi = m_block + tile_m < rs.layout.m ? m_block + tile_m : rs.layout.m;
  r.col_lo = n_block;
  r.col_hi = n_block + tile_n < rs.layout.n ? n_block + tile_n : rs.layout.n;
  r.owner_lo = owners.owner(r.row_lo);
  r.owner_hi = owners.owner(r.row_hi - 1);
  const int me = rs.window.rank;
  r.own = r.owner_lo <= me && me <= r.owner_hi;
  r.sends = r.owner_lo != me || r.owner_hi != me;
  return r;
}

// @pre every consumer thread calls it (`thread` in [0, threads)), with the same arguments
template <class T, class Child>
CUTE_DSL_DEVICE TileRoute route_begin(ReduceScatter<T, Child> const& rs, int m_block, int n_block, int tile_m, int tile_n,
                                      int thread, unsigned barrier, int threads, bool& peers_ready) {
  __shared__ unsigned ready_shared;
  TileRoute r = route_tile(rs, m_block, n_block, tile_m, tile_n);
  const int me = rs.window.rank;
  if (thread == 0) {
    if (r.sends && !peers_ready)  // peers finished reading the previous launch's partials
      for (int s = 0; s < rs.window.world; ++s)
        if (s != me)
          arch::flag_wait_at_least_system(rs.flag(me, dist::ReduceScatterLayout::done_offset() + 4 * s), rs.epoch - 1);
    unsigned ok = 1;
    if (r.own)
      for (int s = 0; s < rs.window.world; ++s)
        if (s != me && arch::flag_load_acquire_system(rs.flag(me, dist::ReduceScatterLayout::ready_offset() +
                                                                      4 * rs.layout.ready_index(s, r.id))) != rs.epoch)
          ok = 0;
    ready_shared = ok;
  }
  arch::named_barrier_sync(barrier, threads);
  r.ready = ready_shared != 0;
  peers_ready = peers_ready || r.sends;
  return r;
}

// Every other rank's partial of own element (row, col) added to `own` (already rounded to T), in
// rank order.
template <class T, class Child>
CUTE_DSL_DEVICE float reduce_own_element(ReduceScatter<T, Child> const& rs, float own, int row, int col) {
  const int me = rs.window.rank;
  for (int s = 0; s < rs.window.world; ++s)
    if (s != me) own += static_cast<float>(rs.slot_rows(me, s)[(long long)row * rs.layout.n + col]);
  return own;
}

// One accumulator block (a wgmma atom's values, N / 2 per thread, coordinates `crd`, tile origin
// (row0, col0)) routed as the tile's route says. @pre every lane of the warp calls it
template <int N, class T, class Child, class Acc, class Crd>
CUTE_DSL_DEVICE void route_block(ReduceScatter<T, Child> const& rs, TileRoute const& r, Acc& acc, Crd const& crd, int row0,
                                 int col0, int lane, unsigned char* stage) {
  const dist::RowOwners owners = rs.owners();
  const int me = rs.window.rank, m = rs.layout.m, n = rs.layout.n;
  constexpr int kValues = N / 2;
  const int wrow = row0 + int(get<0>(crd(0))) / 16 * 16;  // this warp's 16-row band (as the staged store)
  if (wrow >= m) return;
  const int band_hi = wrow + 16 < m ? wrow + 16 : m;
  const int o = owners.owner(wrow);
  if (o == owners.owner(band_hi - 1)) {  // the band has one owner: whole 16-byte rows
    kernels::GemmEpilogueParams<T> p{};
    p.alpha = 1.f, p.beta = 0.f, p.n = n, p.m = owners.begin(o + 1);
    if (o != me) {
      p.d = rs.slot_rows(o, me), p.ldd = n;
    } else if (r.ready) {
      CUTE_DSL_UNROLL
      for (int v = 0; v < kValues; ++v) acc(v) = static_cast<float>(T(acc(v)));  // the owner's partial, as T
      for (int s = 0; s < rs.window.world; ++s) {
        if (s == me) continue;
        T const* part = rs.slot_rows(me, s);
        CUTE_DSL_UNROLL
        for (int v = 0; v < kValues; ++v) {
          const int row = row0 + kernels::gemm_value_row(crd, v), col = col0 + kernels::gemm_value_col(crd, v);
          if (row < m && col < n) acc(v) += static_cast<float>(part[(long long)row * n + col]);
        }
      }
      p.d = rs.out - (long long)owners.begin(me) * rs.ldo, p.ldd = rs.ldo;
    } else {
      p.d = rs.slot_rows(me, me), p.ldd = n;  // parked for route_finish
    }
    if constexpr (sizeof(T) == 2) kernels::gemm_store_accumulators_staged<T, N>(acc, crd, p, row0, col0, 0, lane, stage);
    else kernels::gemm_store_accumulators<T, N>(acc, crd, p, row0, col0, 0);
    return;
  }
  // A band across an owner boundary (M / world not a multiple of 16): element by element.
  CUTE_DSL_UNROLL
  for (int v = 0; v < kValues; ++v) {
    const int row = row0 + kernels::gemm_value_row(crd, v), col = col0 + kernels::gemm_value_col(crd, v);
    if (row >= m || col >= n) continue;
    const int owner = owners.owner(row);
    const T partial = T(acc(v));
    if (owner != me) rs.slot_rows(owner, me)[(long long)row * n + col] = partial;
    else if (r.ready) rs.out[(long long)(row - owners.begin(me)) * rs.ldo + col] = T(reduce_own_element(rs, static_cast<float>(partial), row, col));
    else rs.slot_rows(me, me)[(long long)row * n + col] = partial;
  }
}

template <class T, class Child>
CUTE_DSL_DEVICE void route_end(ReduceScatter<T, Child> const& rs, TileRoute const& r, int thread, unsigned barrier, int threads) {
  arch::named_barrier_sync(barrier, threads);  // every thread's stores of the tile are issued
  if (thread != 0) return;
  const int me = rs.window.rank;
  if (r.sends) {
    arch::fence_acq_rel_system();
    for (int o = r.owner_lo; o <= r.owner_hi; ++o)
      if (o != me)
        arch::flag_store_release_system(rs.flag(o, dist::ReduceScatterLayout::ready_offset() + 4 * rs.layout.ready_index(me, r.id)),
                                        rs.epoch);
  }
  if (r.own && !r.ready) *rs.flag(me, rs.layout.deferred_offset() + 4 * r.id) = rs.epoch;
}

// The deferred own rows of one tile, if it was deferred: wait for every partial, reduce, write.
template <class T, class Child>
CUTE_DSL_DEVICE void route_finish_tile(ReduceScatter<T, Child> const& rs, int m_block, int n_block, int tile_m, int tile_n,
                                       int thread, unsigned barrier, int threads) {
  __shared__ unsigned deferred_shared;
  const TileRoute r = route_tile(rs, m_block, n_block, tile_m, tile_n);
  if (!r.own) return;
  const int me = rs.window.rank;
  if (thread == 0) {
    const bool deferred = *rs.flag(me, rs.layout.deferred_offset() + 4 * r.id) == rs.epoch;
    if (deferred)
      for (int s = 0; s < rs.window.world; ++s)
        if (s != me)
          arch::flag_wait_at_least_system(rs.flag(me, dist::ReduceScatterLayout::ready_offset() + 4 * rs.layout.ready_index(s, r.id)),
                                          rs.epoch);
    deferred_shared = deferred;
  }
  arch::named_barrier_sync(barrier, threads);
  const bool deferred = deferred_shared != 0;
  arch::named_barrier_sync(barrier, threads);  // deferred_shared may be rewritten by the next tile
  if (!deferred) return;
  const dist::RowOwners owners = rs.owners();
  const int lo = r.row_lo > owners.begin(me) ? r.row_lo : owners.begin(me);
  const int hi = r.row_hi < owners.begin(me + 1) ? r.row_hi : owners.begin(me + 1);
  const int cols = r.col_hi - r.col_lo;
  T const* own = rs.slot_rows(me, me);
  for (int i = thread; i < (hi - lo) * cols; i += threads) {
    const int row = lo + i / cols, col = r.col_lo + i % cols;
    const float x = static_cast<float>(own[(long long)row * rs.layout.n + col]);
    rs.out[(long long)(row - owners.begin(me)) * rs.ldo + col] = T(reduce_own_element(rs, x, row, col));
  }
}

// After the CTA's route_finish_tile calls: the launch's last CTA signals every peer that this
// rank read all of this epoch's partials.
template <class T, class Child>
CUTE_DSL_DEVICE void route_done(ReduceScatter<T, Child> const& rs, int thread, unsigned barrier, int threads) {
  arch::named_barrier_sync(barrier, threads);
  if (thread != 0) return;
  const int me = rs.window.rank;
  unsigned* counter = rs.flag(me, dist::ReduceScatterLayout::counter_offset());
  __threadfence();
  if (atomicAdd(counter, 1u) != gridDim.x - 1) return;
  *counter = 0;  // every CTA counted: zeroed for the next launch
  arch::fence_acq_rel_system();
  for (int s = 0; s < rs.window.world; ++s)
    if (s != me) arch::flag_store_release_system(rs.flag(s, dist::ReduceScatterLayout::done_offset() + 4 * me), rs.epoch);
}

}  // namespace cute_dsl::epilogue

#endif  // __CUDACC__ || __CUDACC_RTC__
