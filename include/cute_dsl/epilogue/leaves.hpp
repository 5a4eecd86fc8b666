// The leaves of an epilogue tree: what an output element's value is computed FROM.
//
//   acc()                               the GEMM accumulator at this element (f32)
//   c_source(c, ldc, batch_stride)      C(row, col), row-major, any element type
//   scalar(x)                           a run-time constant, by value (no load)
//   scalar_ptr<S>(p, batch_stride)      *p (per batch: p[batch * batch_stride]), read on the device
//   row_broadcast<S>(v, batch_stride)   v[row]  (one value per output row: per-token scales)
//   col_broadcast<S>(v, batch_stride)   v[col]  (one per column: bias, per-channel scales)
//   aux_load<S>(p, Strides{...})        p[row * row_stride + col * col_stride + batch * batch_stride]
//                                       (row-major: {ld, 1}; column-major: {1, ld})
// S is the leaf's slot: leaves of one kind and slot are ONE input, loaded once (node.hpp).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/epilogue/node.hpp"

namespace cute_dsl::epilogue {

// A 2-D tensor's strides in elements (a batch adds batch * batch_stride).
struct Strides {
  long long row_stride, col_stride, batch_stride = 0;
  CUTE_DSL_HOST_DEVICE constexpr long long offset(int row, int col, int batch) const {
    return row * row_stride + col * col_stride + batch * batch_stride;
  }
};
// Row-major (rows `ld` elements apart) and column-major (columns `ld` apart) tensors.
CUTE_DSL_HOST_DEVICE constexpr Strides row_major(long long ld, long long batch_stride = 0) { return {ld, 1, batch_stride}; }
CUTE_DSL_HOST_DEVICE constexpr Strides col_major(long long ld, long long batch_stride = 0) { return {1, ld, batch_stride}; }

// The common part of keyed leaves: one leaf position, no outputs; phase 1 reads through the
// derived leaf's read() when this position is the first of its key, phase 2 returns the value.
template <class Self, LeafKind Kind, int Slot, class T>
struct KeyedLeaf {
  using epilogue_node = void;
  using element_type = T;
  static constexpr int kLeaves = 1, kOutputs = 0;
  CUTE_DSL_HOST_DEVICE static constexpr int leaf_key(int) { return make_key(int(Kind), Slot); }
  CUTE_DSL_HOST_DEVICE static constexpr int leaf_code(int) { return element_code<T>(); }
  CUTE_DSL_HOST_DEVICE static constexpr int output_key(int) { return 0; }
  template <int Pos, class Table, class V>
  CUTE_DSL_HOST_DEVICE void load(ElementContext<V> const& ctx, V* values) const {
    if constexpr (Table::first(Pos)) values[Table::slot(Pos)] = ctx.valid ? static_cast<Self const&>(*this).template read<V>(ctx) : V(0);
  }
  template <int Pos, int Out, class Table, class V, class Sink>
  CUTE_DSL_HOST_DEVICE V compute(ElementContext<V> const&, V const* values, Sink&) const {
    return values[Table::slot(Pos)];
  }
};

struct Acc : KeyedLeaf<Acc, LeafKind::acc, 0, float> {
  template <class V>
  CUTE_DSL_HOST_DEVICE V read(ElementContext<V> const& ctx) const { return ctx.acc; }
};

// Trees whose value at every element is the accumulator itself (acc(), or a node that passes its
// child on, such as the reduce-scatter root over acc()): the GEMM stores the accumulators without
// evaluating the tree. Evaluating the identity anyway cost registers: the 128 x 256 kernels
// spilled ~10 epilogue addresses and reloaded them every tile (ptxas / nvdisasm, 2026-11-26).
template <class Tree>
inline constexpr bool kEvaluatesToAccumulator = is_same_v<Tree, Acc>;
// A root that passes its child on (node.hpp: Transparent) evaluates to what the child does.
template <class Tree>
  requires requires { typename Tree::transparent_child; }
inline constexpr bool kEvaluatesToAccumulator<Tree> = kEvaluatesToAccumulator<typename Tree::transparent_child>;

template <class T>
struct CSource : KeyedLeaf<CSource<T>, LeafKind::c_source, 0, T> {
  const T* ptr;
  long long ld, batch_stride;
  template <class V>
  CUTE_DSL_HOST_DEVICE V read(ElementContext<V> const& ctx) const {
    return to_value<V>(ptr[ctx.batch * batch_stride + ctx.row * ld + ctx.col]);
  }
};

template <int Slot>
struct ScalarPtr : KeyedLeaf<ScalarPtr<Slot>, LeafKind::scalar_ptr, Slot, float> {
  const float* ptr;
  long long batch_stride;
  template <class V>
  CUTE_DSL_HOST_DEVICE V read(ElementContext<V> const& ctx) const { return V(ptr[ctx.batch * batch_stride]); }
};

// One value per output row (Kind row_broadcast: v[row]) or per column (col_broadcast: v[col]).
template <LeafKind Kind, int Slot, class T>
struct Broadcast : KeyedLeaf<Broadcast<Kind, Slot, T>, Kind, Slot, T> {
  const T* ptr;
  long long batch_stride;
  template <class V>
  CUTE_DSL_HOST_DEVICE V read(ElementContext<V> const& ctx) const {
    return to_value<V>(ptr[ctx.batch * batch_stride + (Kind == LeafKind::row_broadcast ? ctx.row : ctx.col)]);
  }
};
template <int Slot, class T>
using RowBroadcast = Broadcast<LeafKind::row_broadcast, Slot, T>;
template <int Slot, class T>
using ColBroadcast = Broadcast<LeafKind::col_broadcast, Slot, T>;

template <int Slot, class T>
struct AuxLoad : KeyedLeaf<AuxLoad<Slot, T>, LeafKind::aux_load, Slot, T> {
  const T* ptr;
  Strides strides;
  template <class V>
  CUTE_DSL_HOST_DEVICE V read(ElementContext<V> const& ctx) const {
    return to_value<V>(ptr[strides.offset(ctx.row, ctx.col, ctx.batch)]);
  }
};

// A constant: no load, no key (two different constants are two leaves that read nothing).
struct Scalar {
  using epilogue_node = void;
  static constexpr int kLeaves = 0, kOutputs = 0;
  CUTE_DSL_HOST_DEVICE static constexpr int leaf_key(int) { return 0; }
  CUTE_DSL_HOST_DEVICE static constexpr int leaf_code(int) { return 0; }
  CUTE_DSL_HOST_DEVICE static constexpr int output_key(int) { return 0; }
  float value;
  template <int Pos, class Table, class V>
  CUTE_DSL_HOST_DEVICE void load(ElementContext<V> const&, V*) const {}
  template <int Pos, int Out, class Table, class V, class Sink>
  CUTE_DSL_HOST_DEVICE V compute(ElementContext<V> const&, V const*, Sink&) const {
    return V(value);
  }
};

CUTE_DSL_HOST_DEVICE constexpr Acc acc() { return {}; }
template <class T>
CUTE_DSL_HOST_DEVICE constexpr CSource<T> c_source(const T* c, long long ldc, long long batch_stride = 0) {
  CSource<T> l{};
  l.ptr = c, l.ld = ldc, l.batch_stride = batch_stride;
  return l;
}
CUTE_DSL_HOST_DEVICE constexpr Scalar scalar(float x) { return {x}; }
template <int Slot = 0>
CUTE_DSL_HOST_DEVICE constexpr ScalarPtr<Slot> scalar_ptr(const float* p, long long batch_stride = 0) {
  ScalarPtr<Slot> l{};
  l.ptr = p, l.batch_stride = batch_stride;
  return l;
}
template <int Slot = 0, class T>
CUTE_DSL_HOST_DEVICE constexpr RowBroadcast<Slot, T> row_broadcast(const T* v, long long batch_stride = 0) {
  return {{}, v, batch_stride};
}
template <int Slot = 0, class T>
CUTE_DSL_HOST_DEVICE constexpr ColBroadcast<Slot, T> col_broadcast(const T* v, long long batch_stride = 0) {
  return {{}, v, batch_stride};
}
template <int Slot = 0, class T>
CUTE_DSL_HOST_DEVICE constexpr AuxLoad<Slot, T> aux_load(const T* p, Strides s) {
  AuxLoad<Slot, T> l{};
  l.ptr = p, l.strides = s;
  return l;
}

}  // namespace cute_dsl::epilogue
