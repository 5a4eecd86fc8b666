// The host reference of an epilogue tree: the SAME tree type, evaluated on the host in V
// (double by default) at every element of an M x N x L output, with host pointers in its leaves
// and outputs. Aux stores write their host tensors; reductions fold in V and are then combined
// into their float outputs the way the device does (into what the output already holds).
//
//   auto tree = [](auto bias, auto pre, auto amax) { return gelu(aux_store(pre, row_major(n), acc() + col_broadcast(bias))); };
//   epilogue::evaluate_host(tree(h_bias, h_pre), m, n, l, [&](int b, int r, int c) { return ref_acc(b, r, c); },
//                           [&](int b, int r, int c, double v) { ref_d(b, r, c) = v; });
// Host-only (a plain host compiler or nvcc's host pass); empty under NVRTC.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/epilogue/evaluate.hpp"
#include "cute_dsl/epilogue/reduce.hpp"

#if CUTE_DSL_HOST_ONLY_CODE

#include <map>

namespace cute_dsl::epilogue {

// Reductions on the host: one V per output index of every reduction node, folded in element order.
template <class V, int Outputs>
struct HostSink {
  std::map<long long, V> folded[Outputs > 0 ? Outputs : 1];

  template <int Index, class Node>
  void reduce(Node const& node, ElementContext<V> const& ctx, V v) {
    using Op = typename Node::op;
    if (!ctx.valid) return;
    auto [it, fresh] = folded[Index].try_emplace(node.index(ctx.row, ctx.col, ctx.batch), Op::template identity<V>());
    (void)fresh;
    it->second = Op::combine(it->second, Op::input(v));
  }
  // for_each_reduction's visitor: combine with the output's current value, store as float.
  template <int Index, class Node>
  void reduction(Node const& node) {
    using Op = typename Node::op;
    for (auto const& [index, v] : folded[Index]) node.out[index] = float(Op::combine(V(node.out[index]), v));
  }
};

// Evaluates `tree` at every (batch, row, col) of L x M x N, the accumulator from acc(b, r, c),
// handing the root's value to d(b, r, c, value). Returns nothing; outputs land in the tree's tensors.
template <class V = double, EpilogueNode Tree, class AccFn, class DFn>
void evaluate_host(Tree const& tree, int m, int n, int l, AccFn&& acc, DFn&& d) {
  HostSink<V, Tree::kOutputs> sink;
  for (int b = 0; b < l; ++b)
    for (int r = 0; r < m; ++r)
      for (int c = 0; c < n; ++c) {
        const ElementContext<V> ctx{r, c, b, true, V(acc(b, r, c)), 0, 0};
        d(b, r, c, evaluate(tree, ctx, sink));
      }
  for_each_reduction(tree, sink);
}

}  // namespace cute_dsl::epilogue

#endif  // CUTE_DSL_HOST_ONLY_CODE
