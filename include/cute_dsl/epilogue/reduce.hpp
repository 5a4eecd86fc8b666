// Reductions: a node that folds its input's values along rows, columns or the whole tensor
// into a float vector (or scalar) and passes the value on unchanged:
//   row_sum / row_max / row_abs_max (out, child)       out[batch * batch_stride + row]
//   col_sum / col_max / col_abs_max (out, child)       out[batch * batch_stride + col]   (col_sum: bias gradient)
//   tensor_sum / tensor_max / tensor_abs_max (out, child)   out[batch * batch_stride]
// Elements outside M x N take no part.
//
// The output is ACCUMULATED INTO: it must hold the operation's identity before the GEMM (sum:
// 0, abs-max: 0, max: -inf) -- or a previous result to fold into. On the device each thread
// folds its own values, then its warp (shuffles), then one global atomic per warp and row /
// column / tensor (gemm_visit.hpp). Exactness: max and abs-max are exact and deterministic
// (order does not matter); sum is a float sum in an unspecified order -- within the usual f32
// rounding of a sum, not bitwise reproducible run to run. A deterministic sum needs a second
// pass (store the per-tile partials, add them in order): not provided yet.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/epilogue/functors.hpp"
#include "cute_dsl/epilogue/node.hpp"

namespace cute_dsl::epilogue {

enum class ReduceAxis : int { row, col, tensor };

struct SumOp {
  static constexpr int kId = 0;
  template <class V> CUTE_DSL_HOST_DEVICE static constexpr V identity() { return V(0); }
  template <class V> CUTE_DSL_HOST_DEVICE static V input(V x) { return x; }
  template <class V> CUTE_DSL_HOST_DEVICE static V combine(V a, V b) { return a + b; }
};
struct MaxOp {
  static constexpr int kId = 1;
  // -inf, by its bits: every compiler here has __builtin_bit_cast (C++20), constexpr. NVRTC has
  // no __builtin_huge_val*, and <cuda/std/limits> made NVRTC's parse of the GEMM's and the
  // epilogue's headers 0.25-0.31 s instead of 0.20 s (a probe, build machine, 2026-11-27).
  template <class V> CUTE_DSL_HOST_DEVICE static constexpr V identity() {
    if constexpr (is_same_v<V, double>) return __builtin_bit_cast(double, 0xfff0000000000000ull);
    else return V(__builtin_bit_cast(float, 0xff800000u));
  }
  template <class V> CUTE_DSL_HOST_DEVICE static V input(V x) { return x; }
  template <class V> CUTE_DSL_HOST_DEVICE static V combine(V a, V b) { return math::max(a, b); }
};
struct AbsMaxOp {
  static constexpr int kId = 2;
  template <class V> CUTE_DSL_HOST_DEVICE static constexpr V identity() { return V(0); }
  template <class V> CUTE_DSL_HOST_DEVICE static V input(V x) { return math::abs(x); }
  template <class V> CUTE_DSL_HOST_DEVICE static V combine(V a, V b) { return math::max(a, b); }
};

template <ReduceAxis Axis, class Op, int Slot, class Child>
struct Reduce : PassThrough<Child, make_key(int(OutputKind::reduce) + 3 * int(Axis) + Op::kId, Slot)> {
  using op = Op;
  static constexpr ReduceAxis axis = Axis;
  float* out;
  long long batch_stride;

  // Where element (row, col, batch)'s fold lands in `out`.
  CUTE_DSL_HOST_DEVICE long long index(int row, int col, int batch) const {
    return batch * batch_stride + (Axis == ReduceAxis::row ? row : Axis == ReduceAxis::col ? col : 0);
  }
  // The sink folds the value into this output's partial (index Out + the child's outputs).
  CUTE_DSL_NO_EXEC_CHECK
  template <int Pos, int Out, class Table, class V, class Sink>
  CUTE_DSL_HOST_DEVICE V compute(ElementContext<V> const& ctx, V const* values, Sink& sink) const {
    const V v = this->child.template compute<Pos, Out, Table>(ctx, values, sink);
    sink.template reduce<Out + Child::kOutputs>(*this, ctx, v);
    return v;
  }
  CUTE_DSL_NO_EXEC_CHECK
  template <int Out, class Visit>
  CUTE_DSL_HOST_DEVICE constexpr void visit_outputs(Visit& visit) const {
    this->template visit_child_outputs<Out>(visit);
    visit.template reduction<Out + Child::kOutputs>(*this);
  }
};

// reduce<Axis, Op, Slot>(out, child, batch_stride): the general form of the named ones below.
template <ReduceAxis Axis, class Op, int Slot = 0, class Out, EpilogueNode Child>
CUTE_DSL_HOST_DEVICE constexpr auto reduce(Out* out, Child const& child, long long batch_stride = 0) {
  static_assert(is_same_v<Out, float>,
                "epilogue reduction (row_/col_/tensor_ sum, max, abs_max): the output must be float* (32-bit float atomics)");
  return Reduce<Axis, Op, Slot, Child>{{child}, out, batch_stride};
}
template <int S = 0, class O, EpilogueNode C> CUTE_DSL_HOST_DEVICE constexpr auto row_sum(O* o, C const& c, long long bs = 0) { return reduce<ReduceAxis::row, SumOp, S>(o, c, bs); }
template <int S = 0, class O, EpilogueNode C> CUTE_DSL_HOST_DEVICE constexpr auto row_max(O* o, C const& c, long long bs = 0) { return reduce<ReduceAxis::row, MaxOp, S>(o, c, bs); }
template <int S = 0, class O, EpilogueNode C> CUTE_DSL_HOST_DEVICE constexpr auto row_abs_max(O* o, C const& c, long long bs = 0) { return reduce<ReduceAxis::row, AbsMaxOp, S>(o, c, bs); }
template <int S = 0, class O, EpilogueNode C> CUTE_DSL_HOST_DEVICE constexpr auto col_sum(O* o, C const& c, long long bs = 0) { return reduce<ReduceAxis::col, SumOp, S>(o, c, bs); }
template <int S = 0, class O, EpilogueNode C> CUTE_DSL_HOST_DEVICE constexpr auto col_max(O* o, C const& c, long long bs = 0) { return reduce<ReduceAxis::col, MaxOp, S>(o, c, bs); }
template <int S = 0, class O, EpilogueNode C> CUTE_DSL_HOST_DEVICE constexpr auto col_abs_max(O* o, C const& c, long long bs = 0) { return reduce<ReduceAxis::col, AbsMaxOp, S>(o, c, bs); }
template <int S = 0, class O, EpilogueNode C> CUTE_DSL_HOST_DEVICE constexpr auto tensor_sum(O* o, C const& c, long long bs = 0) { return reduce<ReduceAxis::tensor, SumOp, S>(o, c, bs); }
template <int S = 0, class O, EpilogueNode C> CUTE_DSL_HOST_DEVICE constexpr auto tensor_max(O* o, C const& c, long long bs = 0) { return reduce<ReduceAxis::tensor, MaxOp, S>(o, c, bs); }
template <int S = 0, class O, EpilogueNode C> CUTE_DSL_HOST_DEVICE constexpr auto tensor_abs_max(O* o, C const& c, long long bs = 0) { return reduce<ReduceAxis::tensor, AbsMaxOp, S>(o, c, bs); }

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
// One value into the global result. Sum: float atomicAdd. Max of floats with the integer atomics:
// non-negative floats order like their bit patterns as signed ints (atomicMax), negative ones
// order in reverse as unsigned ints (atomicMin); a value of one sign never displaces one of the
// other wrongly (a stored positive is a small unsigned, a stored negative a negative int).
// -0.0 may lose to +0.0 (equal values). NaN inputs: unspecified (a thread's and a warp's folds
// skip them, maxNum; a warp whose values are all NaN folds an unspecified result).
template <class Op>
CUTE_DSL_DEVICE void atomic_fold(float* out, float v) {
  if constexpr (is_same_v<Op, SumOp>) {
    atomicAdd(out, v);
  } else if (v >= 0.f) {  // abs-max values are always here
    atomicMax(reinterpret_cast<int*>(out), __float_as_int(v));
  } else {
    atomicMin(reinterpret_cast<unsigned int*>(out), __float_as_uint(v));
  }
}
#endif

}  // namespace cute_dsl::epilogue
