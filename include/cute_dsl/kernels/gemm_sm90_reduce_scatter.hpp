// Launches the fused GEMM + reduce-scatter (epilogue/reduce_scatter.hpp) on one rank: the GEMM
// on `stream` with every SM, and beside it, on a side stream, the transfers -- run by the copy
// engines, not by kernels. Every rank calls it with the same shape, variant and epoch. Host code,
// nvcc only.
//
// The side stream, per chunk of this rank's schedule (dist/reduce_scatter_schedule.hpp) that
// holds other ranks' rows, in the GEMM's order:
//   wait   counter[chunk] >= its tile count   (cuStreamWaitValue32: the GEMM published them all)
//   copy   its rows of owner q -> q's `received` slot for this rank   (cudaMemcpy2DAsync, peer
//          memory: a copy engine; first, once per launch and peer, wait for done[q] >= epoch - 1)
//   write  q's arrived[this rank][chunk] = epoch   (cuStreamWriteValue32, fenced after the copy)
// and after the GEMM, on `stream`: done[this rank] = epoch in every peer. The stream memory
// operations come from the driver through cudart's entry-point query (no -lcuda).
//
// All-reduce (epilogue::all_reduce): besides, as the launch starts, result_free[this rank] = epoch
// in every peer, and on a SECOND side stream, per chunk of rows this rank holds (which the GEMM
// reduces a round after the peers computed them: ReduceScatterSchedule), in the GEMM's order:
//   wait   reduced[chunk] >= its tile count   (the GEMM wrote those rows' sums into `result`)
//   copy   the chunk's own rows -> each peer's `result` (first, once per peer, wait for its
//          result_free >= epoch)
// then result_sent[this rank] = epoch in every peer; after the GEMM, `stream` waits until every
// peer's result_sent here is epoch. A second stream, because the first must never wait for this
// rank's reductions: those need the peers' partials, and a peer's partials of a tile that
// straddles two owners may wait for this rank's chunks queued behind. (One stream per peer
// instead measured no faster: the copies share one GPU's ~370 GB/s out; docs/design/distributed.md.)
#pragma once

#include "cute_dsl/config.hpp"

#if CUTE_DSL_HOST_ONLY_CODE && defined(__CUDACC__)

#include <string>

#include "cute_dsl/dist/reduce_scatter_schedule.hpp"
#include "cute_dsl/epilogue/gemm_reduce_scatter.hpp"
#include "cute_dsl/epilogue/reduce_scatter.hpp"
#include "cute_dsl/kernels/comm_stream.hpp"
#include "cute_dsl/kernels/comm_trace.hpp"
#include "cute_dsl/kernels/gemm_sm90_launch.hpp"

namespace cute_dsl::kernels {

// The GEMM's own arguments: its D is this rank's partial product in the window (M x N), whatever
// args.d says (the launch writes `out`, never args.d).
template <class TA, class T, class Child>
GemmSm90Arguments<TA, T> gemm_sm90_reduce_scatter_gemm_arguments(const GemmSm90Arguments<TA, T>& args,
                                                                  const epilogue::ReduceScatter<T, Child>& rs) {
  GemmSm90Arguments<TA, T> x = args;
  x.d = rs.partial(rs.window.rank), x.ldd = rs.layout.n, x.batch_stride_d = (long long)rs.layout.m * rs.layout.n;
  return x;
}

// The tree as the kernel of variant (TileN, ClusterM) needs it: with this rank's schedule.
template <int TileN, int ClusterM, class T, class Child>
epilogue::ReduceScatter<T, Child> gemm_sm90_reduce_scatter_tree(epilogue::ReduceScatter<T, Child> tree) {
  constexpr int kTileM = gemm_sm90_impl::kTileM;
  tree.schedule = epilogue::route_schedule<kTileM, TileN, ClusterM, GemmTileScheduler<kTileM, TileN, ClusterM>::kBand>(tree, tree.window.rank);
  return tree;
}

// Empty when the fused GEMM + reduce-scatter can run these arguments; otherwise the rule broken.
template <class TA, class T, class Child>
std::string gemm_sm90_reduce_scatter_unsupported(const GemmSm90Arguments<TA, T>& args, const epilogue::ReduceScatter<T, Child>& rs) {
  const dist::ReduceScatterLayout& l = rs.layout;
  if (args.shape.m != l.m || args.shape.n != l.n)
    return "gemm_sm90_reduce_scatter: the layout's M x N must be the GEMM's";
  if (args.shape.l != 1) return "gemm_sm90_reduce_scatter: one batch (L = 1)";
  if (l.world < 1 || l.world > dist::kMaxRanks || rs.window.world != l.world || rs.window.rank < 0 || rs.window.rank >= l.world)
    return "gemm_sm90_reduce_scatter: rank / world out of range (world <= " + std::to_string(dist::kMaxRanks) + ")";
  if (l.element_bytes != int(sizeof(T))) return "gemm_sm90_reduce_scatter: the layout's element size must be sizeof(D)";
  if (rs.epoch == 0) return "gemm_sm90_reduce_scatter: epochs count from 1";
  if (l.owners().rows(rs.window.rank) > 0 && (rs.out == nullptr || rs.ldo < l.n))
    return "gemm_sm90_reduce_scatter: out must hold this rank's rows (ldo >= N)";
  if (l.all_reduce && l.owners().rows(rs.window.rank) > 0 &&
      (rs.out != rs.result(rs.window.rank) + (long long)l.owners().begin(rs.window.rank) * l.n || rs.ldo != l.n))
    return "gemm_sm90_reduce_scatter: an all-reduce writes the window's result rows (build the tree with epilogue::all_reduce)";
  for (int s = 0; s < l.world; ++s)
    if (rs.window.base[s] == nullptr) return "gemm_sm90_reduce_scatter: the window has no mapping of rank " + std::to_string(s);
  return gemm_sm90_fused_unsupported(gemm_sm90_reduce_scatter_gemm_arguments(args, rs));
}

// comm_stream (and result_stream, all-reduce only): where the transfers are queued; null: side
// streams of the device, made once (then concurrent callers on one device, e.g. several simulated
// ranks, must each pass their own). trace: if given, cleared and filled with this launch's timeline.
// @pre tree built by epilogue::reduce_scatter or epilogue::all_reduce with this rank's window; see
// the header comment
template <GmmaMajor MajorA, GmmaMajor MajorB, int TileN, int Stages, int ClusterM, class TA, class T, class Child>
cudaError_t gemm_sm90_reduce_scatter(const GemmSm90Arguments<TA, T>& args, epilogue::ReduceScatter<T, Child> tree,
                                     cudaStream_t stream = nullptr, cudaStream_t comm_stream = nullptr,
                                     cudaStream_t result_stream = nullptr, CommTrace* trace = nullptr) {
  constexpr int kTileM = gemm_sm90_impl::kTileM;
  static_assert(GemmTileScheduler<kTileM, TileN, ClusterM>::kBand * TileN >= dist::ReduceScatterLayout::kMinBandCols,
                "gemm_sm90_reduce_scatter: the window's chunk bounds assume bands of >= 512 columns");
  if (!gemm_sm90_reduce_scatter_unsupported(args, tree).empty()) return cudaErrorInvalidValue;
  tree = gemm_sm90_reduce_scatter_tree<TileN, ClusterM>(tree);
  const dist::ReduceScatterSchedule& plan = tree.schedule;
  if (plan.order.overflow) return cudaErrorInvalidValue;
  detail::StreamMemoryOps ops;
  if (cudaError_t err = detail::stream_memory_ops(ops); err != cudaSuccess) return err;
  const dist::ReduceScatterLayout& l = tree.layout;
  const int me = tree.window.rank, world = l.world;
  const bool all_reduce = l.all_reduce;
  detail::CommStream comm, results;
  cudaError_t err = comm.open(comm_stream, 0);
  if (all_reduce && err == cudaSuccess) err = results.open(result_stream, 1);
  const dist::RowOwners owners = l.owners();
  const auto address = detail::device_address;
  const std::size_t element = sizeof(T), pitch = std::size_t(l.n) * element;

  // This launch's tile counts start from zero (the GEMM adds one per tile).
  if (err == cudaSuccess)
    err = cudaMemsetAsync(tree.flag(me, dist::ReduceScatterLayout::counter_offset(0)), 0, 4 * std::size_t(l.max_chunks()), stream);
  if (all_reduce) {
    // Its own reduction counts, from zero; this rank's `result` may receive this launch's rows (the
    // caller's work on the previous result came before, on this stream).
    if (err == cudaSuccess) err = cudaMemsetAsync(tree.flag(me, l.reduced_offset(0)), 0, 4 * std::size_t(l.max_chunks()), stream);
    for (int s = 0; s < world && err == cudaSuccess; ++s)
      if (s != me) err = detail::from_driver(ops.write(stream, address(tree.flag(s, l.result_free_offset(me))), tree.epoch, 0));
    if (err == cudaSuccess) err = results.fork_from(stream);
  }
  if (err == cudaSuccess) err = comm.fork_from(stream);
  if (trace != nullptr && err == cudaSuccess) trace->clear(), err = trace->record_start(stream);
  if (err == cudaSuccess)
    err = gemm_sm90_fused_variant<MajorA, MajorB, TileN, Stages, ClusterM>(gemm_sm90_reduce_scatter_gemm_arguments(args, tree), tree, stream);
  if (trace != nullptr && err == cudaSuccess) err = trace->record_gemm_end(stream);
  // The GEMM (which read every partial received for this epoch) is done: tell the peers.
  for (int s = 0; s < world && err == cudaSuccess; ++s)
    if (s != me) err = detail::from_driver(ops.write(stream, address(tree.flag(s, dist::ReduceScatterLayout::done_offset(me))), tree.epoch, 0));
  // All-reduce: every peer's rows have arrived in this rank's result.
  for (int s = 0; s < world && err == cudaSuccess && all_reduce; ++s)
    if (s != me)
      err = detail::from_driver(ops.wait(stream, address(tree.flag(me, l.result_sent_offset(s))), tree.epoch, CU_STREAM_WAIT_VALUE_GEQ));

  // All-reduce: the own rows of each chunk of held rows, once reduced, to every peer.
  if (all_reduce && err == cudaSuccess) {
    const int lo = owners.begin(me), hi = owners.begin(me + 1);
    bool freed[dist::kMaxRanks] = {};
    for (int i = 0; i < plan.order.segments && err == cudaSuccess; ++i) {
      if (!plan.segment_held(i)) continue;
      const int t0 = plan.order.first[i] * plan.tile_rows, t1 = t0 + plan.order.height[i] * plan.tile_rows;
      const int y0 = t0 > lo ? t0 : lo, y1 = t1 < hi ? t1 : hi;  // the segment's own rows
      for (int c = 0; c < plan.chunk_cols() && y0 < y1 && err == cudaSuccess; ++c) {
        const int c0 = plan.col_begin(c), c1 = plan.col_end(c);
        err = detail::from_driver(ops.wait(results.side, address(tree.flag(me, l.reduced_offset(plan.segment_chunk(i, c)))),
                                           plan.chunk_tiles(i, c), CU_STREAM_WAIT_VALUE_GEQ));
        // Peers rank + 1, rank + 2, ...: at each step every rank sends to a different one (in rank
        // order, three ranks sent to rank 0 at once and each copy crawled at ~184 GB/s: 4 x H100).
        for (int j = 1; j < world && err == cudaSuccess; ++j) {
          const int q = (me + j) % world;
          if (!freed[q])
            err = detail::from_driver(ops.wait(results.side, address(tree.flag(me, l.result_free_offset(q))), tree.epoch, CU_STREAM_WAIT_VALUE_GEQ));
          freed[q] = true;
          const long long at = (long long)y0 * l.n + c0;
          const std::size_t width = std::size_t(c1 - c0) * element;
          if (trace != nullptr && err == cudaSuccess) err = trace->record_copy_ready(results.side, "result", q, i, width * (y1 - y0));
          if (err == cudaSuccess)
            err = cudaMemcpy2DAsync(tree.result(q) + at, pitch, tree.result(me) + at, pitch, width, std::size_t(y1 - y0), cudaMemcpyDefault,
                                    results.side);
          if (trace != nullptr && err == cudaSuccess) err = trace->record_copy_done(results.side);
        }
      }
    }
    for (int q = 0; q < world && err == cudaSuccess; ++q)
      if (q != me) err = detail::from_driver(ops.write(results.side, address(tree.flag(q, l.result_sent_offset(me))), tree.epoch, 0));
  }
  if (all_reduce) err = results.join_into(stream, err);

  // Each chunk with other owners' rows, in the GEMM's order, to those owners.
  bool cleared[dist::kMaxRanks] = {};  // peers whose previous epoch is known read
  for (int i = 0; i < plan.order.segments && err == cudaSuccess; ++i) {
    const int t0 = plan.order.first[i] * plan.tile_rows, t1 = (plan.order.first[i] + plan.order.height[i]) * plan.tile_rows;
    for (int c = 0; c < plan.chunk_cols() && err == cudaSuccess; ++c) {
      const int chunk = plan.segment_chunk(i, c), c0 = plan.col_begin(c), c1 = plan.col_end(c);
      bool waited = false, sent[dist::kMaxRanks] = {};
      for (int q = 0; q < world && err == cudaSuccess; ++q) {
        const int y0 = t0 > owners.begin(q) ? t0 : owners.begin(q);
        const int y1 = t1 < owners.begin(q + 1) ? t1 : owners.begin(q + 1);
        if (q == me || y0 >= y1) continue;
        if (!waited) {
          err = detail::from_driver(ops.wait(comm.side, address(tree.flag(me, dist::ReduceScatterLayout::counter_offset(chunk))),
                                             plan.chunk_tiles(i, c), CU_STREAM_WAIT_VALUE_GEQ));
          waited = true;
        }
        if (err == cudaSuccess && !cleared[q]) {
          err = detail::from_driver(ops.wait(comm.side, address(tree.flag(me, dist::ReduceScatterLayout::done_offset(q))), tree.epoch - 1,
                                             CU_STREAM_WAIT_VALUE_GEQ));
          cleared[q] = true;
        }
        const std::size_t width = std::size_t(c1 - c0) * element;
        if (trace != nullptr && err == cudaSuccess) err = trace->record_copy_ready(comm.side, "partials", q, i, width * (y1 - y0));
        if (err == cudaSuccess)
          err = cudaMemcpy2DAsync(tree.received(q, me) + (long long)(y0 - owners.begin(q)) * l.n + c0, pitch,
                                  tree.partial(me) + (long long)y0 * l.n + c0, pitch, width, std::size_t(y1 - y0), cudaMemcpyDefault, comm.side);
        if (trace != nullptr && err == cudaSuccess) err = trace->record_copy_done(comm.side);
        sent[q] = true;
      }
      for (int q = 0; q < world && err == cudaSuccess; ++q)
        if (sent[q]) err = detail::from_driver(ops.write(comm.side, address(tree.flag(q, l.arrived_offset(me, chunk))), tree.epoch, 0));
    }
  }
  return comm.join_into(stream, err);
}

}  // namespace cute_dsl::kernels

#endif  // CUTE_DSL_HOST_ONLY_CODE && __CUDACC__
