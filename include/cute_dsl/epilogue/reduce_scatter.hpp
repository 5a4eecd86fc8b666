// The communication node of an epilogue tree: a GEMM whose output tiles are reduce-scattered
// across GPUs as they finish (tensor-parallel row-parallel layers, docs/12_distributed.md).
//
//   auto tree = epilogue::reduce_scatter(window, layout, out, ldo, epoch, acc());
//
// Every rank computes a partial product of the whole M x N output (its slice of K); rank r owns
// rows [begin(r), begin(r + 1)) of the sum (dist/row_owners.hpp). The node is the tree's root: its
// child's value at each element is this rank's partial, and instead of the GEMM's plain D store
// the kernel hands each finished tile to the node (kRoutesTiles), which
//   - sends the rows other ranks own into their copy of the symmetric buffer (slot [this rank],
//     16-byte stores through the epilogue's shared-memory stage, over NVLink), then one thread
//     signals each owner: ready[this rank][tile] = epoch (system-scope release);
//   - for the rows it owns: if every other rank's partial of the tile has already landed, adds
//     them (the receiver reduces) and writes `out`; otherwise parks its own partial in its slot
//     and marks the tile deferred. After its last tile the CTA finishes its deferred tiles,
//     waiting for the partials then: no CTA ever blocks on another GPU before it has sent all it
//     sends, so ranks cannot wait on each other in a cycle.
// The tile scheduler orders each rank's tiles by row groups starting after its own rows
// (GemmTileScheduler::set_row_groups): a rank computes the others' rows first, so its partials
// leave early and its own tiles, computed last, usually find the others' partials there.
//
// Sum per element: the owner's partial, then the other ranks' in rank order, each partial first
// rounded to T (as a GEMM writing T and a reduce-scatter of T would see it), the sum in f32,
// rounded to T once. The same order whether the tile was reduced inline or deferred.
//
// Launches: each launch passes epoch = previous + 1 (from 1; the buffer starts zeroed). A rank
// sends epoch e's partials into a peer only after the peer's done flag says it finished reading
// epoch e - 1, so one buffer serves back-to-back launches.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/dist/reduce_scatter_layout.hpp"
#include "cute_dsl/dist/symmetric_view.hpp"
#include "cute_dsl/epilogue/node.hpp"

namespace cute_dsl::epilogue {

template <class T, class Child>
struct ReduceScatter {
  using epilogue_node = void;
  using element_type = T;
  static constexpr bool kRoutesTiles = true;  // the kernel hands whole tiles to route_* below
  static constexpr int kLeaves = Child::kLeaves;
  static constexpr int kOutputs = Child::kOutputs;
  CUTE_DSL_HOST_DEVICE static constexpr int leaf_key(int i) { return Child::leaf_key(i); }
  CUTE_DSL_HOST_DEVICE static constexpr int leaf_code(int i) { return Child::leaf_code(i); }
  CUTE_DSL_HOST_DEVICE static constexpr int output_key(int i) { return Child::output_key(i); }

  Child child;
  dist::SymmetricView window;        // the symmetric buffer, laid out as `layout` says
  dist::ReduceScatterLayout layout;  // M, N, world, sizeof(T)
  T* out;                            // this rank's rows: row begin(rank) + r at out + r * ldo
  long long ldo;
  unsigned epoch;                    // this launch: previous + 1, from 1
  int max_ctas = 0;                  // > 0: at most this many CTAs (tests that share one GPU)

  template <int Pos, class Table, class V>
  CUTE_DSL_HOST_DEVICE void load(ElementContext<V> const& ctx, V* values) const {
    child.template load<Pos, Table>(ctx, values);
  }
  template <int Pos, int Out, class Table, class V, class Sink>
  CUTE_DSL_HOST_DEVICE V compute(ElementContext<V> const& ctx, V const* values, Sink& sink) const {
    return child.template compute<Pos, Out, Table>(ctx, values, sink);
  }
  template <int Out, class Visit>
  CUTE_DSL_HOST_DEVICE void visit_outputs(Visit& visit) const {
    if constexpr (requires { child.template visit_outputs<Out>(visit); }) child.template visit_outputs<Out>(visit);
  }

  CUTE_DSL_HOST_DEVICE constexpr dist::RowOwners owners() const { return layout.owners(); }
  CUTE_DSL_HOST_DEVICE constexpr long long tile_id(int m_block, int n_block) const {
    return (long long)(m_block / 64) * ((layout.n + 63) / 64) + n_block / 64;
  }
  // The rank's slot `source` of rank `peer`'s copy, indexed by the owner's global row: partial
  // (row, col) at slot_rows(...) + row * N + col. (Offset by begin(peer) rows: only that owner's
  // rows are ever addressed.)
  CUTE_DSL_HOST_DEVICE T* slot_rows(int peer, int source) const {
    return window.at<T>(peer, layout.slot_offset(source)) - (long long)owners().begin(peer) * layout.n;
  }
  CUTE_DSL_HOST_DEVICE unsigned* flag(int peer, long long offset) const { return window.at<unsigned>(peer, offset); }
};

// @pre window: `layout.bytes()` bytes on every rank, zeroed before the first launch; out: this
// rank's layout.owners().rows(rank) x N rows, ldo >= N; epoch: 1, 2, ... per launch
template <class T, EpilogueNode Child>
CUTE_DSL_HOST_DEVICE constexpr ReduceScatter<T, Child> reduce_scatter(dist::SymmetricView window, dist::ReduceScatterLayout layout,
                                                                      T* out, long long ldo, unsigned epoch, Child const& child) {
  return {child, window, layout, out, ldo, epoch};
}

template <class Tree>
concept RoutesTiles = requires { Tree::kRoutesTiles; };

}  // namespace cute_dsl::epilogue
