// Auxiliary stores: a node that writes its input's value at every element into a tensor of its
// own element type and layout, and passes the value on unchanged -- e.g. the pre-activation that
// the backward pass needs:
//   auto e = gelu(aux_store<0>(pre, row_major(ldp), acc() + col_broadcast(bias)));
// D is the tree's root; any number of aux stores, each with its own slot (outputs_distinct).
// Element types convert from the compute type by their own constructor (bf16/f16/fp8: round to
// nearest even; fp8's constructors saturate), float and double directly.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/epilogue/leaves.hpp"
#include "cute_dsl/epilogue/node.hpp"

namespace cute_dsl::epilogue {

template <int Slot, class T, class Child>
struct AuxStore : PassThrough<Child, make_key(int(OutputKind::aux_store), Slot)> {
  using element_type = T;
  T* ptr;
  Strides strides;

  template <int Pos, int Out, class Table, class V, class Sink>
  CUTE_DSL_HOST_DEVICE V compute(ElementContext<V> const& ctx, V const* values, Sink& sink) const {
    const V v = this->child.template compute<Pos, Out, Table>(ctx, values, sink);
    if (ctx.valid) ptr[strides.offset(ctx.row, ctx.col, ctx.batch)] = from_value<T>(v);
    return v;
  }
  template <int Out, class Visit>
  CUTE_DSL_HOST_DEVICE constexpr void visit_outputs(Visit& visit) const {
    this->template visit_child_outputs<Out>(visit);
  }
};

// @pre ptr covers every (row, col, batch) of the output through `strides`
template <int Slot = 0, class T, EpilogueNode Child>
CUTE_DSL_HOST_DEVICE constexpr AuxStore<Slot, T, Child> aux_store(T* ptr, Strides strides, Child const& child) {
  static_assert(is_same_v<T, remove_cv_t<T>>, "epilogue::aux_store: the tensor must be writable (a pointer to non-const)");
  return {{child}, ptr, strides};
}

}  // namespace cute_dsl::epilogue
