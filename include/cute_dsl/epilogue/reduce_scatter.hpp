// The communication node of an epilogue tree: a GEMM whose output tiles are reduce-scattered
// across GPUs as they finish (tensor-parallel row-parallel layers, docs/12_distributed.md).
//
//   auto tree = epilogue::reduce_scatter(window, layout, out, ldo, epoch, acc());
//   kernels::gemm_sm90_reduce_scatter<K, K, 256, 4, 2>(args, tree, stream);
//
// Every rank computes a partial product of the whole M x N output (its slice of K); rank r owns
// rows [begin(r), begin(r + 1)) of the sum (dist/row_owners.hpp). The node is the tree's root:
// its child's value at each element is this rank's partial. The kernel writes each finished tile
// of partials into this rank's copy of the symmetric buffer (local memory, the epilogue's
// ordinary coalesced stores) and counts it in its chunk (dist/reduce_scatter_schedule.hpp: the
// GEMM computes the other owners' rows first, its own last). The COPY ENGINES carry each
// finished chunk to its owners (a stream of waits on those counters, peer copies and flag writes
// beside the GEMM: gemm_sm90_reduce_scatter.hpp), so no SM is spent moving data. The RECEIVER
// reduces, in its own GEMM: a tile holding its own rows, once stored and published like any
// other, waits for every peer's chunk of those rows, adds them and writes `out`
// (gemm_reduce_scatter.hpp).
//
// Sum per element: the other ranks' partials in rank order, each rounded to T (as a GEMM writing
// T sees it), summed in f32, with the owner's product accumulated onto them (its partial never
// rounded), rounded to T once -- for a child that is acc() itself and a 16-bit T, on the owner's
// tiles of its own rows only (the operand ring's path, gemm_reduce_scatter.hpp); elsewhere the
// owner's partial is rounded to T too and comes first.
//
// Launches: each launch passes epoch = previous + 1 (from 1; the buffer starts zeroed). A sender
// copies a launch's chunks into a receiver only after that receiver's previous GEMM finished
// reading them (done flags), so one buffer serves back-to-back launches.
//
// All-reduce (all_reduce below): as each chunk of a rank's own rows is reduced, the copy engines
// send it on to every other rank's `result` (kernels/gemm_sm90_reduce_scatter.hpp), while the
// GEMM reduces the next.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/dist/reduce_scatter_layout.hpp"
#include "cute_dsl/dist/reduce_scatter_schedule.hpp"
#include "cute_dsl/dist/symmetric_view.hpp"
#include "cute_dsl/epilogue/leaves.hpp"
#include "cute_dsl/epilogue/node.hpp"

namespace cute_dsl::epilogue {

template <class T, class Child>
struct ReduceScatter : Transparent<Child> {
  using element_type = T;
  static constexpr bool kRoutesTiles = true;  // the kernel hands whole tiles to route_* below

  dist::SymmetricView window;        // the symmetric buffer, laid out as `layout` says
  dist::ReduceScatterLayout layout;  // M, N, world, sizeof(T)
  T* out;                            // this rank's rows: row begin(rank) + r at out + r * ldo
  long long ldo;
  unsigned epoch;                    // this launch: previous + 1, from 1
  int max_ctas = 0;                  // > 0: at most this many GEMM CTAs (tests that share one GPU)
  // This rank's tile order and chunks for the GEMM variant that runs it: filled by the launcher
  // (kernels::gemm_sm90_reduce_scatter_tree), read by the kernel from its parameters.
  dist::ReduceScatterSchedule schedule{};

  CUTE_DSL_HOST_DEVICE constexpr dist::RowOwners owners() const { return layout.owners(); }
  // Rank `peer`'s partial product (row-major, N columns apart), mapped into this GPU.
  CUTE_DSL_HOST_DEVICE T* partial(int peer) const { return window.at<T>(peer, layout.partial_offset()); }
  // Where rank `sender`'s partials of `receiver`'s rows land (row-major, N apart, from the
  // receiver's first row), in `receiver`'s copy as mapped into this GPU. @pre sender != receiver
  CUTE_DSL_HOST_DEVICE T* received(int receiver, int sender) const {
    return window.at<T>(receiver, layout.received_offset()) + dist::ReduceScatterLayout::slot(sender, receiver) * layout.slot_elements();
  }
  CUTE_DSL_HOST_DEVICE unsigned* flag(int peer, long long offset) const { return window.at<unsigned>(peer, offset); }
  // All-reduce: rank `peer`'s whole M x N result (row-major, N apart), mapped into this GPU.
  CUTE_DSL_HOST_DEVICE T* result(int peer) const { return window.at<T>(peer, layout.result_offset()); }
};

// @pre window: `layout.bytes()` bytes on every rank, zeroed before the first launch; out: this
// rank's layout.owners().rows(rank) x N rows, ldo >= N, 16-byte aligned rows for the fast path;
// epoch: 1, 2, ... per launch
template <class T, EpilogueNode Child>
CUTE_DSL_HOST_DEVICE constexpr ReduceScatter<T, Child> reduce_scatter(dist::SymmetricView window, dist::ReduceScatterLayout layout,
                                                                      T* out, long long ldo, unsigned epoch, Child const& child) {
  return {{child}, window, layout, out, ldo, epoch};
}

// The all-reduce: the same reduce-scatter, then each owner's reduced rows go to every rank, so
// that every rank ends with the whole sum in result(rank) (M x N, in the window). Same sum, bit
// for bit, on every rank. T (D's type) is named: all_reduce<__nv_bfloat16>(...).
// @pre window: `layout.bytes()` bytes (with layout.all_reduce set: this sets it) on every rank,
// zeroed before the first launch; epoch: 1, 2, ... per launch
template <class T, EpilogueNode Child>
CUTE_DSL_HOST_DEVICE ReduceScatter<T, Child> all_reduce(dist::SymmetricView window, dist::ReduceScatterLayout layout, unsigned epoch,
                                                        Child const& child) {
  layout.all_reduce = true;
  ReduceScatter<T, Child> node{{child}, window, layout, nullptr, layout.n, epoch};
  node.out = node.result(window.rank) + (long long)layout.owners().begin(window.rank) * layout.n;
  return node;
}

template <class Tree>
concept RoutesTiles = requires { Tree::kRoutesTiles; };

}  // namespace cute_dsl::epilogue
