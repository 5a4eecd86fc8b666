// The protocol every node of an epilogue expression tree follows, and the compile-time tables
// that make "each input is loaded once" and "each output is named once" hold.
//
// A tree is a value of nested node types, e.g.
//   Map<Gelu, Map<Add, Map<Mul, Scalar, Acc>, ColBroadcast<0, float>>>
// built with operator syntax (compute.hpp): gelu(scalar(alpha) * acc() + col_broadcast(bias)).
// Its type says what is computed; its value holds the run-time parameters (scalars, pointers,
// leading dimensions). Every type is nameable in source, so a generator (the JIT's expression
// grammar, issue 11 item 2) can spell a tree as a template argument.
//
// Evaluating a tree at one output element runs two phases (evaluate.hpp):
//   load     each DISTINCT input leaf reads memory once, into a small array of values;
//   compute  pure arithmetic over those values; stores and reductions see the results.
// Leaves are identified by a key, (kind, slot): the same bias used three times in a tree is
// one load, because all three are col_broadcast<0>. Two DIFFERENT inputs of one kind need
// different slots (col_broadcast<1>(scale)). A slot used with two element types is a compile
// error (LeafTable's static_assert); two leaves with one slot and type but different pointers
// are the caller's mistake, not detected: the first in tree order is the one read.
//
// A node type N provides:
//   kLeaves, leaf_key(i), leaf_code(i)   its keyed leaves in tree order (loads)
//   kOutputs, output_key(i)              its stores and reductions in tree order
//   load<Pos, Table>(ctx, values)        phase 1 (leaves: read when first of their key)
//   compute<Pos, Out, Table>(ctx, values, sink) -> V   phase 2
// Pos and Out are the node's first leaf / output position in the whole tree; Table is the
// root's LeafTable.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"

// The narrow float types, declared (not defined) so that element codes can tell them apart
// without including <cuda_bf16.h> / <cuda_fp16.h> / <cuda_fp8.h> (costly under NVRTC).
struct __nv_bfloat16;
struct __half;
struct __nv_fp8_e4m3;
struct __nv_fp8_e5m2;

namespace cute_dsl::epilogue {

// What a leaf reads or an output writes: its kind, with the slot, forms the key.
enum class LeafKind : int { acc = 1, c_source, scalar_ptr, row_broadcast, col_broadcast, aux_load };
// Reductions add 3 * axis + operation to `reduce`: row_sum<0> and row_max<0> are two outputs.
enum class OutputKind : int { aux_store = 1, reduce };

CUTE_DSL_HOST_DEVICE constexpr int make_key(int kind, int slot) { return kind * 4096 + slot; }

// A small code per element type: leaves that share a key must share it.
template <class T>
CUTE_DSL_HOST_DEVICE constexpr int element_code() {
  if constexpr (is_same_v<T, float>) return 1;
  else if constexpr (is_same_v<T, double>) return 2;
  else if constexpr (is_same_v<T, __half>) return 3;
  else if constexpr (is_same_v<T, __nv_bfloat16>) return 4;
  else if constexpr (is_same_v<T, __nv_fp8_e4m3>) return 5;
  else if constexpr (is_same_v<T, __nv_fp8_e5m2>) return 6;
  else return 64 + int(sizeof(T));  // other types: by size (documented limit of the check)
}

// Where one element is: its place in the output (row < m, col < n of batch `batch`), whether
// it is inside the output (`valid`; masked elements load nothing, store nothing and reduce the
// operation's identity), the accumulator's value there, and which of the thread's row / column
// partials a reduction feeds (`row_slot`, `col_slot`: 0 on the host).
template <class V>
struct ElementContext {
  int row, col, batch;
  bool valid;
  V acc;
  int row_slot, col_slot;
};

// Every node type says it is one (`using epilogue_node = void;`); EpilogueNode is the concept
// the public functions take, so that operator syntax never captures unrelated types.
template <class T>
concept EpilogueNode = requires { typename remove_cvref_t<T>::epilogue_node; };

// Values enter and leave the tree in the compute type V (float on the device, double or float
// in the host reference): narrow types through float, the way their headers convert.
template <class V, class T>
CUTE_DSL_HOST_DEVICE V to_value(T x) {
  if constexpr (is_same_v<T, float> || is_same_v<T, double>) return V(x);
  else return V(static_cast<float>(x));
}
template <class T, class V>
CUTE_DSL_HOST_DEVICE T from_value(V v) {
  if constexpr (is_same_v<T, float> || is_same_v<T, double>) return T(v);
  else return T(static_cast<float>(v));
}

// Leaf positions of the whole tree -> a slot in the loaded-values array, the first position of
// each key (the one that loads), and the check that a key means one element type.
template <class Root>
struct LeafTable {
  static constexpr int kCount = Root::kLeaves;
  struct Data {
    int slot[kCount > 0 ? kCount : 1];
    bool first[kCount > 0 ? kCount : 1];
    int unique;
    bool consistent;
  };
  CUTE_DSL_HOST_DEVICE static constexpr Data build() {
    Data d{};
    d.unique = 0;
    d.consistent = true;
    for (int i = 0; i < kCount; ++i) {
      d.first[i] = true;
      d.slot[i] = d.unique;
      for (int j = 0; j < i; ++j)
        if (Root::leaf_key(j) == Root::leaf_key(i)) {
          d.first[i] = false;
          d.slot[i] = d.slot[j];
          if (Root::leaf_code(j) != Root::leaf_code(i)) d.consistent = false;
          break;
        }
      if (d.first[i]) ++d.unique;
    }
    return d;
  }
  static constexpr Data data = build();
  static_assert(data.consistent,
                "epilogue tree: two leaves of one kind share a slot but differ in element type (give each input its own slot)");
  static constexpr int kUnique = data.unique > 0 ? data.unique : 1;  // array size (>= 1)
  CUTE_DSL_HOST_DEVICE static constexpr int slot(int pos) { return data.slot[pos]; }
  CUTE_DSL_HOST_DEVICE static constexpr bool first(int pos) { return data.first[pos]; }
};

// The common part of stores and reductions: one child whose leaves are theirs, whose outputs
// come first (this node's own is output Child::kOutputs), and whose value passes through.
template <class Child, int OwnKey>
struct PassThrough {
  using epilogue_node = void;
  static constexpr int kLeaves = Child::kLeaves;
  static constexpr int kOutputs = Child::kOutputs + 1;
  CUTE_DSL_HOST_DEVICE static constexpr int leaf_key(int i) { return Child::leaf_key(i); }
  CUTE_DSL_HOST_DEVICE static constexpr int leaf_code(int i) { return Child::leaf_code(i); }
  CUTE_DSL_HOST_DEVICE static constexpr int output_key(int i) { return i < Child::kOutputs ? Child::output_key(i) : OwnKey; }
  Child child;
  template <int Pos, class Table, class V>
  CUTE_DSL_HOST_DEVICE void load(ElementContext<V> const& ctx, V* values) const {
    child.template load<Pos, Table>(ctx, values);
  }
  // Every node with outputs (kOutputs > 0) has visit_outputs. Not a requires-expression on the
  // call: nvcc's device pass judged it false for a reduction nested under another one, so the
  // inner reduction was never flushed (its output stayed 0; found on an H100, 2026-11-26).
  template <int Out, class Visit>
  CUTE_DSL_HOST_DEVICE constexpr void visit_child_outputs(Visit& visit) const {
    if constexpr (Child::kOutputs > 0) child.template visit_outputs<Out>(visit);
  }
};

// The common part of roots that add communication around the tree (reduce_scatter.hpp,
// all_gather.hpp): the child's leaves, outputs and value are the root's own.
template <class Child>
struct Transparent {
  using epilogue_node = void;
  using transparent_child = Child;
  static constexpr int kLeaves = Child::kLeaves;
  static constexpr int kOutputs = Child::kOutputs;
  CUTE_DSL_HOST_DEVICE static constexpr int leaf_key(int i) { return Child::leaf_key(i); }
  CUTE_DSL_HOST_DEVICE static constexpr int leaf_code(int i) { return Child::leaf_code(i); }
  CUTE_DSL_HOST_DEVICE static constexpr int output_key(int i) { return Child::output_key(i); }
  Child child;
  template <int Pos, class Table, class V>
  CUTE_DSL_HOST_DEVICE void load(ElementContext<V> const& ctx, V* values) const {
    child.template load<Pos, Table>(ctx, values);
  }
  template <int Pos, int Out, class Table, class V, class Sink>
  CUTE_DSL_HOST_DEVICE V compute(ElementContext<V> const& ctx, V const* values, Sink& sink) const {
    return child.template compute<Pos, Out, Table>(ctx, values, sink);
  }
  template <int Out, class Visit>
  CUTE_DSL_HOST_DEVICE constexpr void visit_outputs(Visit& visit) const {
    if constexpr (Child::kOutputs > 0) child.template visit_outputs<Out>(visit);
  }
};

// Outputs (stores, reductions) of the whole tree: each key once.
template <class Root>
CUTE_DSL_HOST_DEVICE constexpr bool outputs_distinct() {
  for (int i = 0; i < Root::kOutputs; ++i)
    for (int j = 0; j < i; ++j)
      if (Root::output_key(i) == Root::output_key(j)) return false;
  return true;
}

}  // namespace cute_dsl::epilogue
