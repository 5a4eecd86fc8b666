// Launches the fused all-gather + GEMM (epilogue/all_gather.hpp) on one rank: the GEMM on
// `stream` with every SM, and beside it, on a side stream, the copy engines pulling the peers'
// shards of A into this rank's copy of the symmetric buffer. Every rank calls it with the same
// shape, variant and epoch. Host code, nvcc only.
//
//   stream  write ready[this rank] = epoch in every peer  (its shard, written before this call
//           on `stream`, may be read: cuStreamWriteValue32 fences what came before it)
//           the GEMM  (its producer waits per tile for the pieces of the tile's rows)
//           wait until every peer's pulled[..] of this rank's window >= epoch  (the shard may be
//           overwritten after this launch: cuStreamWaitValue32)
//   side    for each peer s = rank + 1, rank + 2, ... (the order the GEMM needs them):
//             wait ready[s] >= epoch (local flag)
//             per piece j: copy it from s's copy into this rank's (cudaMemcpyAsync from peer
//             memory: a copy engine), then write arrived[s][j] = epoch (local, fenced after it)
//             write s's pulled[this rank] = epoch
//   joined back into `stream` after the GEMM.
// Nothing waits in a cycle: the ready writes come before anything that waits, and the GEMM waits
// only for copies, which wait only for ready flags.
#pragma once

#include "cute_dsl/config.hpp"

#if CUTE_DSL_HOST_ONLY_CODE && defined(__CUDACC__)

#include <string>

#include "cute_dsl/dist/all_gather_order.hpp"
#include "cute_dsl/epilogue/all_gather.hpp"
#include "cute_dsl/kernels/comm_stream.hpp"
#include "cute_dsl/kernels/gemm_sm90_launch.hpp"

namespace cute_dsl::kernels {

// The GEMM's own arguments: its A is the gathered input in this rank's window (M x K, K-major),
// whatever args.a says.
template <class TA, class TD, class Child>
GemmSm90Arguments<TA, TD> gemm_sm90_all_gather_gemm_arguments(const GemmSm90Arguments<TA, TD>& args,
                                                              const epilogue::AllGatherA<TA, Child>& ag) {
  GemmSm90Arguments<TA, TD> x = args;
  x.a = ag.gathered(ag.window.rank), x.lda = ag.layout.k, x.batch_stride_a = (long long)ag.layout.m * ag.layout.k;
  x.major_a = GmmaMajor::K;
  return x;
}

// The tree as the kernel of variant ClusterM needs it: with this rank's row order.
template <int ClusterM, class TA, class Child>
epilogue::AllGatherA<TA, Child> gemm_sm90_all_gather_tree(epilogue::AllGatherA<TA, Child> tree) {
  tree.order_tile_rows = gemm_sm90_impl::kTileM * ClusterM;
  tree.order = dist::all_gather_row_order(tree.layout, tree.window.rank, tree.order_tile_rows);
  return tree;
}

// Empty when the fused all-gather + GEMM can run these arguments; otherwise the rule broken.
template <class TA, class TD, class Child>
std::string gemm_sm90_all_gather_unsupported(const GemmSm90Arguments<TA, TD>& args, const epilogue::AllGatherA<TA, Child>& ag) {
  const dist::AllGatherLayout& l = ag.layout;
  if (args.major_a != GmmaMajor::K) return "gemm_sm90_all_gather: A must be K-major (each shard whole rows of the gathered A)";
  if (args.shape.m != l.m || args.shape.k != l.k) return "gemm_sm90_all_gather: the layout's M x K must be the GEMM's";
  if (args.shape.l != 1) return "gemm_sm90_all_gather: one batch (L = 1)";
  if (l.world < 1 || l.world > dist::kMaxRanks || ag.window.world != l.world || ag.window.rank < 0 || ag.window.rank >= l.world)
    return "gemm_sm90_all_gather: rank / world out of range (world <= " + std::to_string(dist::kMaxRanks) + ")";
  if (l.element_bytes != int(sizeof(TA))) return "gemm_sm90_all_gather: the layout's element size must be sizeof(A)";
  if (ag.epoch == 0) return "gemm_sm90_all_gather: epochs count from 1";
  for (int s = 0; s < l.world; ++s)
    if (ag.window.base[s] == nullptr) return "gemm_sm90_all_gather: the window has no mapping of rank " + std::to_string(s);
  const GemmSm90Arguments<TA, TD> x = gemm_sm90_all_gather_gemm_arguments(args, ag);
  if (!gemm_sm90_tma_describable(x)) return "gemm_sm90_all_gather: A and B must be 16-byte aligned with 16-byte rows (for 16-bit types: K and B's leading dimension multiples of 8)";
  return gemm_sm90_fused_unsupported(x);
}

// comm_stream: where the transfers are queued; null: one side stream per device, made once (then
// concurrent callers on one device, e.g. several simulated ranks, must each pass their own).
// @pre tree built by epilogue::all_gather_a with this rank's window; see the header comment
template <GmmaMajor MajorA, GmmaMajor MajorB, int TileN, int Stages, int ClusterM, class TA, class TD, class Child>
cudaError_t gemm_sm90_all_gather(const GemmSm90Arguments<TA, TD>& args, epilogue::AllGatherA<TA, Child> tree, cudaStream_t stream = nullptr,
                                 cudaStream_t comm_stream = nullptr) {
  static_assert(MajorA == GmmaMajor::K, "gemm_sm90_all_gather: A must be K-major (each shard whole rows of the gathered A)");
  if (!gemm_sm90_all_gather_unsupported(args, tree).empty()) return cudaErrorInvalidValue;
  tree = gemm_sm90_all_gather_tree<ClusterM>(tree);
  if (tree.order.overflow) return cudaErrorInvalidValue;  // not expected: <= world + 2 segments
  detail::StreamMemoryOps ops;
  if (cudaError_t err = detail::stream_memory_ops(ops); err != cudaSuccess) return err;
  detail::CommStream comm;
  if (cudaError_t err = comm.open(comm_stream); err != cudaSuccess) return err;

  const dist::AllGatherLayout& l = tree.layout;
  const int me = tree.window.rank, world = l.world;
  const auto address = detail::device_address;
  const std::size_t row_bytes = std::size_t(l.row_bytes());

  cudaError_t err = cudaSuccess;
  for (int s = 0; s < world && err == cudaSuccess; ++s)  // this rank's shard is ready
    if (s != me) err = detail::from_driver(ops.write(stream, address(tree.flag(s, dist::AllGatherLayout::ready_offset(me))), tree.epoch, 0));
  if (err == cudaSuccess) err = comm.fork_from(stream);
  if (err == cudaSuccess) err = gemm_sm90_fused_variant<MajorA, MajorB, TileN, Stages, ClusterM>(gemm_sm90_all_gather_gemm_arguments(args, tree), tree, stream);
  // Every peer has its copy of this rank's shard: the caller may overwrite it.
  for (int s = 0; s < world && err == cudaSuccess; ++s)
    if (s != me)
      err = detail::from_driver(ops.wait(stream, address(tree.flag(me, dist::AllGatherLayout::pulled_offset(s))), tree.epoch, CU_STREAM_WAIT_VALUE_GEQ));

  TA* local = tree.gathered(me);
  for (int d = 1; d < world && err == cudaSuccess; ++d) {
    const int s = (me + d) % world;
    err = detail::from_driver(ops.wait(comm.side, address(tree.flag(me, dist::AllGatherLayout::ready_offset(s))), tree.epoch, CU_STREAM_WAIT_VALUE_GEQ));
    for (int j = 0; j < l.pieces() && err == cudaSuccess; ++j) {
      const int r0 = l.piece_begin(s, j), r1 = l.piece_begin(s, j + 1);
      if (r0 == r1) continue;  // a shard of fewer rows than pieces: nothing here, and no tile waits for it
      err = cudaMemcpyAsync(local + (long long)r0 * l.k, tree.gathered(s) + (long long)r0 * l.k, std::size_t(r1 - r0) * row_bytes,
                            cudaMemcpyDefault, comm.side);
      if (err == cudaSuccess)
        err = detail::from_driver(ops.write(comm.side, address(tree.flag(me, dist::AllGatherLayout::arrived_offset(s, j))), tree.epoch, 0));
    }
    if (err == cudaSuccess) err = detail::from_driver(ops.write(comm.side, address(tree.flag(s, dist::AllGatherLayout::pulled_offset(me))), tree.epoch, 0));
  }
  return comm.join_into(stream, err);
}

}  // namespace cute_dsl::kernels

#endif  // CUTE_DSL_HOST_ONLY_CODE && __CUDACC__
