// All-gather + GEMM (tensor-parallel column-parallel layers, docs/12_distributed.md): every rank
// holds a shard of A's rows; the GEMM multiplies the WHOLE of A, gathered across the ranks, by
// this rank's B, and starts before the gathering ends.
//
//   auto tree = epilogue::all_gather_a<__nv_bfloat16>(window, layout, epoch, acc());  // T: A's type; any tree inside
//   // the caller's shard is at tree.shard(rank) (rows begin(rank).. of the gathered A, K apart)
//   kernels::gemm_sm90_all_gather<K, K, 256, 4, 2>(args, tree, stream);
//
// The node is the tree's root and passes its child's value through (the epilogue is whatever the
// child computes); what it adds is on the input side. The gathered A lives in the symmetric
// buffer (dist/all_gather_layout.hpp); the COPY ENGINES pull each peer's shard into this rank's
// copy, piece by piece, in the order the GEMM needs them (gemm_sm90_all_gather.hpp), while the
// GEMM computes its own rows first (dist/all_gather_order.hpp). The TMA producer waits, per tile,
// until the pieces of the tile's rows have arrived (wait_for_tile_rows below) and only then loads
// them: the consumers and the epilogue are the plain GEMM's.
//
// Result: bit for bit the GEMM of the same variant on A gathered by NCCL (each tile's sum does not
// depend on when its rows arrived).
//
// Launches: each launch passes epoch = previous + 1 (from 1; the buffer starts zeroed). A launch
// announces its shard (ready) as it starts, and ends only once every peer has copied it (pulled),
// so the caller may overwrite the shard for the next launch on the same stream.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/dist/all_gather_layout.hpp"
#include "cute_dsl/dist/symmetric_view.hpp"
#include "cute_dsl/epilogue/leaves.hpp"
#include "cute_dsl/epilogue/node.hpp"
#include "cute_dsl/kernels/gemm_tile_scheduler.hpp"

namespace cute_dsl::epilogue {

template <class T, class Child>
struct AllGatherA : Transparent<Child> {
  using input_type = T;                   // A's element type
  static constexpr bool kGatesTiles = true;  // the kernel's producer calls wait_for_tile_rows

  dist::SymmetricView window;      // the symmetric buffer, laid out as `layout` says
  dist::AllGatherLayout layout;    // M, K, world, sizeof(T)
  unsigned epoch;                  // this launch: previous + 1, from 1
  int max_ctas = 0;                // > 0: at most this many GEMM CTAs (tests that share one GPU)
  // This rank's row order for the variant that runs it (cluster tiles of order_tile_rows rows):
  // filled by the launcher (kernels::gemm_sm90_all_gather_tree), read by the kernel.
  kernels::GemmRowOrder order{};
  int order_tile_rows = 0;

  // The whole of A as rank `peer`'s copy holds it (row-major, K apart), mapped into this GPU.
  CUTE_DSL_HOST_DEVICE T* gathered(int peer) const { return window.at<T>(peer, layout.gathered_offset()); }
  // Where rank `rank`'s shard sits in this rank's copy: its first row.
  CUTE_DSL_HOST_DEVICE T* shard(int rank) const {
    return gathered(window.rank) + (long long)layout.owners().begin(rank) * layout.k;
  }
  CUTE_DSL_HOST_DEVICE unsigned* flag(int peer, long long offset) const { return window.at<unsigned>(peer, offset); }
};

// @pre window: `layout.bytes()` bytes on every rank, zeroed before the first launch; the caller's
// shard written at shard(window.rank) before the launch (on its stream); epoch: 1, 2, ... per launch.
// T (A's element type) is named: all_gather_a<__nv_bfloat16>(...)
template <class T, EpilogueNode Child>
CUTE_DSL_HOST_DEVICE constexpr AllGatherA<T, Child> all_gather_a(dist::SymmetricView window, dist::AllGatherLayout layout, unsigned epoch,
                                                                Child const& child) {
  return {{child}, window, layout, epoch};
}

template <class Tree>
concept GatesTiles = requires { Tree::kGatesTiles; };

}  // namespace cute_dsl::epilogue

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

#include "cute_dsl/arch/sm90/fence.hpp"
#include "cute_dsl/arch/system_flags.hpp"

namespace cute_dsl::epilogue {

// The producer thread, before it loads a tile: waits until every piece of the rows
// [m_block, m_block + rows) that another rank owns has arrived in this rank's copy, then makes
// them visible to the TMA unit (the copy engine wrote them; the acquire orders them for this
// thread's generic view, the proxy fence for the async proxy its TMA loads read through).
template <class T, class Child>
CUTE_DSL_DEVICE void wait_for_tile_rows(AllGatherA<T, Child> const& ag, int m_block, int rows) {
  const dist::AllGatherLayout& l = ag.layout;
  const dist::RowOwners owners = l.owners();
  const int me = ag.window.rank, end = m_block + rows < l.m ? m_block + rows : l.m;
  bool waited = false;
  for (int row = m_block; row < end;) {
    const int s = owners.owner(row), j = l.piece_of(row);
    if (s != me) {
      arch::flag_wait_at_least_system(ag.flag(me, dist::AllGatherLayout::arrived_offset(s, j)), ag.epoch);
      waited = true;
    }
    row = l.piece_begin(s, j + 1);  // past piece j (the last piece ends where the shard does)
  }
  if (waited) arch::fence_view_async_global();
}

}  // namespace cute_dsl::epilogue

#endif  // __CUDACC__ || __CUDACC_RTC__
