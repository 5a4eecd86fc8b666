// Evaluating a tree at one element: the load phase (each distinct leaf reads once), then the
// compute phase (pure arithmetic; stores write, reductions hand their value to the sink).
// The device visitor (gemm_visit.hpp) and the host reference (host_reference.hpp) both call
// evaluate(); they differ only in their sinks -- where reductions go.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/epilogue/node.hpp"

namespace cute_dsl::epilogue {

// Compile-time facts about a whole tree (static_assert-able: a tree's shape is its type).
template <EpilogueNode Tree>
struct TreeInfo {
  static constexpr int kLeaves = Tree::kLeaves;                       // leaf positions
  static constexpr int kLoads = LeafTable<Tree>::data.unique;          // distinct inputs: loads per element
  static constexpr int kOutputs = Tree::kOutputs;                      // aux stores + reductions
};

// A sink for trees without reductions.
struct NoReductions {
  template <int Index, class Node, class V>
  CUTE_DSL_HOST_DEVICE void reduce(Node const&, ElementContext<V> const&, V) {
    static_assert(Index < 0, "epilogue::evaluate: this caller takes no reductions (pass a sink that does)");
  }
};

// The tree's value at ctx's element (the value D receives).
template <class V, EpilogueNode Tree, class Sink>
CUTE_DSL_HOST_DEVICE V evaluate(Tree const& tree, ElementContext<V> const& ctx, Sink& sink) {
  using Table = LeafTable<Tree>;
  static_assert(outputs_distinct<Tree>(), "epilogue tree: two aux stores, or two reductions of one axis and operation, share a slot");
  V values[Table::kUnique];
  tree.template load<0, Table>(ctx, values);
  return tree.template compute<0, 0, Table>(ctx, values, sink);
}

// Calls visit.template reduction<Index>(node) for every reduction node of the tree.
template <EpilogueNode Tree, class Visit>
CUTE_DSL_HOST_DEVICE constexpr void for_each_reduction(Tree const& tree, Visit& visit) {
  if constexpr (Tree::kOutputs > 0) tree.template visit_outputs<0>(visit);
}

}  // namespace cute_dsl::epilogue
