// The Hopper GEMM's side of the reduce-scatter node (reduce_scatter.hpp): where each finished
// tile's partials go, how they are published, and how a tile of this rank's own rows is reduced.
// The transfers themselves are the copy engines' (kernels/gemm_sm90_reduce_scatter.hpp).
//
// Per tile, by the consumer threads of a cooperative CTA:
//   route_block   each accumulator block goes into this rank's partial product, in its own
//                 memory, with the epilogue's ordinary (staged, coalesced) stores;
//   (hand-off)    the consumers meet two idle warps of the producer warpgroup at a named
//                 barrier (gemm_sm90.hpp), which take the tile from there:
//   route_publish warp 1 counts the tile in its chunk (a GPU-scope release: the reader is this
//                 GPU's stream wait), off the math warps (a system-scope fence per tile on them,
//                 in an earlier version, made the GEMM 1.5x slower);
//   route_prefetch warp 2, as the consumers start a tile of own rows only, waits until every
//                 peer's chunk of those rows arrived and bulk-prefetches them into L2 (trees
//                 that take the operand ring's path below: no prefetch, the producer loads
//                 them a tile ahead);
//   route_finish  a tile holding own rows and others' (owners not aligned to tiles): after it
//                 is stored whole, the consumers wait for the peers' chunks of the own rows, add
//                 the partials -- this rank's, just stored, then each peer's in rank order, in
//                 f32 -- and write `out`. So a tile that other ranks need never waits for them.
// A cluster tile of own rows only (route_ring_sources: no other rank needs it) is reduced in
// registers instead: the TMA producer, once the peers' chunks of it arrived, loads their partials
// through the operand ring ahead of the tile's k-blocks (GemmSm90Source: 64 rows per stage; they
// land while the math warps finish the previous tile), the consumers start the tile's
// accumulators from them (ldmatrix, rank order, f32) and accumulate the product onto that sum,
// then write `out` with route_block (own) -- no partial of their own stored and re-read, no global
// load on the math warps. (This rank's partial is then never rounded to T: one rounding fewer
// than route_finish's sum. A child that is not acc() itself would apply to the sum, so such trees
// take the stored way: gemm_sm90_impl::kTakesRingSources.)
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/dist/reduce_scatter_schedule.hpp"
#include "cute_dsl/epilogue/reduce_scatter.hpp"
#include "cute_dsl/kernels/gemm_epilogue.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

#include "cute_dsl/arch/named_barrier.hpp"
#include "cute_dsl/arch/sm90/bulk_copy.hpp"
#include "cute_dsl/arch/system_flags.hpp"

namespace cute_dsl::epilogue {

// Rank `rank`'s schedule for a GEMM of cluster tiles TileM * ClusterM x TileN.
template <int TileM, int TileN, int ClusterM, int BandTiles, class T, class Child>
CUTE_DSL_HOST_DEVICE dist::ReduceScatterSchedule route_schedule(ReduceScatter<T, Child> const& rs, int rank) {
  return dist::ReduceScatterSchedule::make(rs.layout, rank, TileM * ClusterM, TileN, BandTiles, ClusterM);
}

// One accumulator block (a wgmma atom's values, N / 2 per thread, coordinates `crd`, tile origin
// (m_block, n_block)) into this rank's partial product, in its own memory; or, `own` (a tile whose
// peers' partials came through the ring and were added: route_ring_sources), the sums into `out`
// (rows past this rank's masked). Both by the epilogue's ordinary staged stores, from ONE call
// site: two (one per destination) doubled the fused kernel's epilogue code, every copy of the
// staged store unrolled over the tile.
// @pre every lane of the warp calls it; `own` only for 16-bit T (ring sources)
template <int N, class T, class Child, class Acc, class Crd>
CUTE_DSL_DEVICE void route_block(ReduceScatter<T, Child> const& rs, Acc const& acc, Crd const& crd, int m_block, int n_block, int lane,
                                 unsigned char* stage, bool own) {
  const dist::RowOwners owners = rs.layout.owners();
  const int me = rs.window.rank, lo = own ? owners.begin(me) : 0;
  kernels::GemmEpilogueParams<T> p{};
  p.d = own ? rs.out : rs.partial(me), p.ldd = own ? rs.ldo : rs.layout.n;
  p.m = own ? owners.begin(me + 1) - lo : rs.layout.m, p.n = rs.layout.n, p.alpha = 1.f, p.beta = 0.f;
  if constexpr (sizeof(T) == 2) kernels::gemm_store_accumulators_staged<T, N>(acc, crd, p, m_block - lo, n_block, 0, lane, stage);
  else kernels::gemm_store_accumulators<T, N>(acc, crd, p, m_block, n_block, 0);
}

// The publishing warp, once per tile in the consumers' order, after the hand-off barrier (which
// orders the consumers' stores before this warp's release): lane 0 counts the tile (rows from
// m_block, columns from n_block) in its chunk. GPU scope: the
// counter's reader is this GPU's stream wait, and the partials' reader this GPU's copy engine,
// both behind its L2 (the peers never read them: the copy engine pushes).
template <class T, class Child>
CUTE_DSL_DEVICE void route_publish(ReduceScatter<T, Child> const& rs, dist::ReduceScatterSchedule const& mine, int m_block,
                                   int n_block, int lane) {
  if (lane != 0) return;
  const int chunk = mine.chunk(m_block / mine.tile_rows, mine.band_of(n_block), rs.window.rank);
  arch::flag_add_release_gpu(rs.flag(rs.window.rank, dist::ReduceScatterLayout::counter_offset(chunk)), 1u);
}

namespace reduce_scatter_impl {

// 16 bytes of T added into `sum` in f32 (first: assigned).
template <class T>
CUTE_DSL_DEVICE void add_chunk(float (&sum)[16 / sizeof(T)], uint4 const& raw, bool first) {
  T const* v = reinterpret_cast<T const*>(&raw);
  CUTE_DSL_UNROLL
  for (int e = 0; e < int(16 / sizeof(T)); ++e) sum[e] = first ? static_cast<float>(v[e]) : sum[e] + static_cast<float>(v[e]);
}

}  // namespace reduce_scatter_impl

// Can this launch load the peers' partials through the GEMM's operand ring (route_ring_sources)?
// 16-bit T (a source stage is the size of a B stage), a peer, and rows TMA can step (16 bytes).
template <class T, class Child>
CUTE_DSL_HOST_DEVICE constexpr bool route_ring_sources_possible(ReduceScatter<T, Child> const& rs) {
  return sizeof(T) == 2 && rs.layout.world > 1 && rs.layout.n % 8 == 0;
}

// Where the peers' partials of this rank's rows start: slot 0 of `received` (slots in sender
// order, the receiver's own rank skipped), as the source tensor map's (columns, rows, slot) origin.
template <class T, class Child>
CUTE_DSL_HOST_DEVICE T* route_received_slots(ReduceScatter<T, Child> const& rs) {
  return rs.window.template at<T>(rs.window.rank, rs.layout.received_offset());
}

// Ring stages of peers' partials the producer loads after a cluster tile's k-blocks (cluster rows
// from cluster_m_block, TileM * ClusterM of them), for its CTA's epilogue to add: every peer's
// rows, 64 at a time, in slot order (= rank order), when every row of the cluster tile is this
// rank's; else 0 and the tile goes the stored way (route_block, then route_finish). Decided per
// cluster tile, so that the CTAs of a cluster step their rings alike (their consumers release
// each other's stages).
template <int TileM, int ClusterM, class T, class Child>
CUTE_DSL_HOST_DEVICE int route_ring_sources(ReduceScatter<T, Child> const& rs, int cluster_m_block) {
  const dist::ReduceScatterLayout& l = rs.layout;
  if (!route_ring_sources_possible(rs) || TileM % 64 != 0) return 0;
  const dist::RowOwners owners = l.owners();
  const int me = rs.window.rank, lo = owners.begin(me), hi = owners.begin(me + 1);
  const int end = cluster_m_block + TileM * ClusterM < l.m ? cluster_m_block + TileM * ClusterM : l.m;
  return cluster_m_block >= lo && end <= hi ? (l.world - 1) * (TileM / 64) : 0;
}

// The calling thread waits until every peer's chunk of the tile's rows (row block m_block, column
// band of n_block) arrived in this rank's `received` (chunks are numbered alike on every rank).
template <class T, class Child>
CUTE_DSL_DEVICE void route_wait_for_peers(ReduceScatter<T, Child> const& rs, int m_block, int n_block) {
  const int me = rs.window.rank;
  const dist::ReduceScatterSchedule& plan = rs.schedule;
  const int row = m_block / plan.tile_rows, band = plan.band_of(n_block), key = plan.key(row);
  for (int s = 0; s < rs.window.world; ++s) {
    if (s == me) continue;
    arch::flag_wait_at_least_system(rs.flag(me, rs.layout.arrived_offset(s, plan.keyed_chunk(key, plan.holds(s, row), band))), rs.epoch);
  }
}

// The chunk whose arrival flags route_wait_for_peers waits for, for a tile of own rows only
// (ReduceScatterSchedule::own_row_chunk): tiles with equal numbers wait for the same flags, so a
// thread that acquired them once need not again.
// @pre route_ring_sources of the tile's cluster tile > 0
template <class T, class Child>
CUTE_DSL_DEVICE int route_own_tile_chunk(ReduceScatter<T, Child> const& rs, int m_block, int n_block) {
  const dist::ReduceScatterSchedule& plan = rs.schedule;
  return plan.own_row_chunk(m_block / plan.tile_rows, plan.band_of(n_block));
}

// One thread waits until every peer's chunk of the tile's rows (row block m_block, column band of
// n_block) arrived; then the consumers meet. @pre every consumer thread calls it
template <class T, class Child>
CUTE_DSL_DEVICE void route_wait(ReduceScatter<T, Child> const& rs, int m_block, int n_block, int thread, unsigned barrier, int threads) {
  if (thread == 0) route_wait_for_peers(rs, m_block, n_block);
  arch::named_barrier_sync(barrier, threads);
}

// The prefetching warp, for the tile the consumers start next: if it holds own rows only, waits
// until every peer's chunk of them arrived and has the received rows brought into L2 (bulk
// prefetches, a row of the tile per lane and instruction), so that route_finish's loads of them
// hit L2 rather than HBM. (Not called where the ring takes them: route_ring_sources.) A tile that
// also holds other owners' rows is left alone: its chunks may wait on this very tile's
// publishing, which needs this warp at the hand-off barrier (waiting for them here deadlocked 4
// simulated ranks, 2026-11-26).
template <int TileM, int TileN, class T, class Child>
CUTE_DSL_DEVICE void route_prefetch(ReduceScatter<T, Child> const& rs, int m_block, int n_block, int lane) {
  const dist::ReduceScatterLayout& l = rs.layout;
  const int me = rs.window.rank, world = rs.window.world;
  const dist::RowOwners owners = l.owners();
  const int lo = owners.begin(me), hi = owners.begin(me + 1);
  const int r0 = m_block, r1 = m_block + TileM < l.m ? m_block + TileM : l.m;
  if (r0 < lo || r1 > hi || r0 >= r1 || n_block >= l.n || (long long)l.n * int(sizeof(T)) % 16 != 0) return;
  const int c1 = n_block + TileN < l.n ? n_block + TileN : l.n;
  const unsigned bytes = unsigned(c1 - n_block) * unsigned(sizeof(T));
  if (bytes % 16 != 0) return;
  if (lane == 0) route_wait_for_peers(rs, m_block, n_block);
  __syncwarp();
  for (int s = 0; s < world; ++s) {
    if (s == me) continue;
    T const* from = rs.received(me, s) + n_block;
    for (int row = r0 + lane; row < r1; row += 32) arch::bulk_prefetch_l2(from + (long long)(row - lo) * l.n, bytes);
  }
}

// The rows of a tile that this rank owns (if any), after the tile was stored and published whole:
// wait for the peers' partials of them, add -- this rank's stored partial first, then each peer's
// in rank order, in f32 -- and write `out`. Tile: rows [m_block, m_block + tile_m), columns
// [n_block, n_block + tile_n).
// @pre every consumer thread calls it (`thread` in [0, threads)), after its stores of this tile
template <int TileM, int TileN, class T, class Child>
CUTE_DSL_DEVICE void route_finish(ReduceScatter<T, Child> const& rs, int m_block, int n_block, int thread, unsigned barrier,
                                  int threads) {
  const dist::ReduceScatterLayout& l = rs.layout;
  const int me = rs.window.rank, world = rs.window.world;
  const dist::RowOwners owners = l.owners();
  const int lo = owners.begin(me), hi = owners.begin(me + 1);
  const int r0 = m_block > lo ? m_block : lo;
  const int r1 = m_block + TileM < hi ? m_block + TileM : hi;
  if (r0 >= r1 || n_block >= l.n) return;
  const int c0 = n_block, c1 = n_block + TileN < l.n ? n_block + TileN : l.n;
  route_wait(rs, m_block, n_block, thread, barrier, threads);

  constexpr int kPerChunk = 16 / int(sizeof(T));
  T const* mine = rs.partial(me);
  const bool chunks = l.n % kPerChunk == 0 && rs.ldo % kPerChunk == 0 && reinterpret_cast<unsigned long long>(rs.out) % 16 == 0;
  if (chunks) {
    // 16-byte pieces, kBatch per thread in flight: the partials are local (HBM), read through L2
    // (.cg: the copy engine and the other threads wrote them, not this SM's L1).
    constexpr int kBatch = 4;
    const int per_row = (c1 - c0) / kPerChunk;  // c0, c1: multiples of kPerChunk (N and tiles are)
    const int count = (r1 - r0) * per_row;
    for (int i0 = thread; i0 < count; i0 += threads * kBatch) {
      float sum[kBatch][kPerChunk];
      long long at[kBatch];
      CUTE_DSL_UNROLL
      for (int j = 0; j < kBatch; ++j) {
        const int i = i0 + j * threads;
        const int row = r0 + (i < count ? i / per_row : 0), col = c0 + (i < count ? i % per_row : 0) * kPerChunk;
        at[j] = (long long)row * l.n + col;
      }
      uint4 raw[kBatch];
      CUTE_DSL_UNROLL
      for (int j = 0; j < kBatch; ++j) raw[j] = __ldcg(reinterpret_cast<uint4 const*>(mine + at[j]));
      CUTE_DSL_UNROLL
      for (int j = 0; j < kBatch; ++j) reduce_scatter_impl::add_chunk<T>(sum[j], raw[j], true);
      for (int s = 0; s < world; ++s) {
        if (s == me) continue;
        T const* from = rs.received(me, s) - (long long)lo * l.n;  // indexed by the output's row
        CUTE_DSL_UNROLL
        for (int j = 0; j < kBatch; ++j) raw[j] = __ldcg(reinterpret_cast<uint4 const*>(from + at[j]));
        CUTE_DSL_UNROLL
        for (int j = 0; j < kBatch; ++j) reduce_scatter_impl::add_chunk<T>(sum[j], raw[j], false);
      }
      CUTE_DSL_UNROLL
      for (int j = 0; j < kBatch; ++j) {
        const int i = i0 + j * threads;
        if (i >= count) continue;
        T packed[kPerChunk];
        CUTE_DSL_UNROLL
        for (int e = 0; e < kPerChunk; ++e) packed[e] = T(sum[j][e]);
        const int row = r0 + i / per_row, col = c0 + (i % per_row) * kPerChunk;
        *reinterpret_cast<uint4*>(rs.out + (long long)(row - lo) * rs.ldo + col) = *reinterpret_cast<uint4 const*>(packed);
      }
    }
  } else {
    const int width = c1 - c0;
    for (int i = thread; i < (r1 - r0) * width; i += threads) {
      const int row = r0 + i / width, col = c0 + i % width;
      const long long at = (long long)row * l.n + col;
      float sum = static_cast<float>(__ldcg(mine + at));
      for (int s = 0; s < world; ++s)
        if (s != me) sum += static_cast<float>(__ldcg(rs.received(me, s) + (long long)(row - lo) * l.n + col));
      rs.out[(long long)(row - lo) * rs.ldo + col] = T(sum);
    }
  }
}

// All-reduce: once a tile of rows this rank holds has its own rows final in `out` (= result),
// thread 0 counts it in `reduced` of its chunk, which the copy engine waits for before sending
// the chunk's own rows to every peer. A tile reduced on the way out stored them before the
// hand-off barrier, which orders them before this release; one reduced by route_finish meets the
// other consumers once more first. Tiles of rows held by others only: not counted.
// @pre every consumer thread calls it, after the hand-off barrier (and route_finish, if it ran)
template <class T, class Child>
CUTE_DSL_DEVICE void route_count_reduced(ReduceScatter<T, Child> const& rs, dist::ReduceScatterSchedule const& mine, int m_block,
                                         int n_block, bool finished_after_hand_off, int thread, unsigned barrier, int threads) {
  if (!rs.layout.all_reduce) return;
  const int row = m_block / mine.tile_rows, me = rs.window.rank;
  if (!mine.holds(me, row)) return;  // uniform across the consumers: no barrier skipped by some
  if (finished_after_hand_off) arch::named_barrier_sync(barrier, threads);
  if (thread == 0) arch::flag_add_release_gpu(rs.flag(me, rs.layout.reduced_offset(mine.chunk(row, mine.band_of(n_block), me))), 1u);
}

}  // namespace cute_dsl::epilogue

#endif  // __CUDACC__ || __CUDACC_RTC__
