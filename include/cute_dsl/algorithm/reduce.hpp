// Reductions over tensors.
//
//   reduce(t, init, op)           op(...op(op(init, t(0)), t(1))..., t(n-1)), 1-D order
//   reduce_sum(t), reduce_max(t)  with init = 0 / t(0)
//   reduce_mode<I>(t, out, init, op)   out(j) = reduction of t along mode I, for each j
//                                      indexing the other modes (colexicographically, as a
//                                      tensor of those modes in order would): for a (M,N) t,
//                                      reduce_mode<1> gives row reductions into an (M) out.
//   reduce_sum<I>(t, out), reduce_max<I>(t, out)
// op is any callable object (plus_op, max_op below; a user's lambda in user code).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/tensor/tensor.hpp"

namespace cute_dsl {

struct plus_op {
  template <class A, class B> CUTE_DSL_HOST_DEVICE constexpr auto operator()(A const& a, B const& b) const { return a + b; }
};
// a < b ? b : a, so a NaN element never replaces the accumulator (a NaN accumulator stays).
struct max_op {
  template <class A, class B> CUTE_DSL_HOST_DEVICE constexpr auto operator()(A const& a, B const& b) const { return a < b ? b : a; }
};

template <class T, class V, class Op>
  requires is_tensor_v<T>
CUTE_DSL_HOST_DEVICE constexpr V reduce(T const& t, V init, Op const& op) {
  const int n = int(size(t));
  CUTE_DSL_UNROLL
  for (int i = 0; i < n; ++i) init = op(init, t(i));
  return init;
}

template <class T>
  requires is_tensor_v<T>
CUTE_DSL_HOST_DEVICE constexpr auto reduce_sum(T const& t) {
  return reduce(t, typename T::value_type{}, plus_op{});
}
// @pre size(t) > 0
template <class T>
  requires is_tensor_v<T>
CUTE_DSL_HOST_DEVICE constexpr auto reduce_max(T const& t) {
  return reduce(t, typename T::value_type(t(0)), max_op{});
}

namespace detail {
// t's layout as (the other modes, mode I): out's index walks the first, the reduction the second.
template <int I, class S, class D, unsigned long... Ks>
CUTE_DSL_HOST_DEVICE constexpr auto split_mode(Layout<S, D> const& l, index_sequence<Ks...>) {
  constexpr int R = rank_v<S>;
  static_assert(I >= 0 && I < R, "reduce_mode: the mode index must be below the tensor's rank");
  // modes 0..I-1 and I+1..R-1, then mode I
  return make_layout(make_layout(make_shape(l.template shape<(int(Ks) < I ? int(Ks) : int(Ks) + 1)>()...),
                                 make_stride(l.template stride<(int(Ks) < I ? int(Ks) : int(Ks) + 1)>()...)),
                     layout<I>(l));
}
}  // namespace detail

namespace detail {
// FromFirst: start each reduction from its own first element (max has no neutral init).
template <int I, bool FromFirst, class T, class Out, class V, class Op>
CUTE_DSL_HOST_DEVICE constexpr void reduce_mode_impl(T const& t, Out&& out, V const& init, Op const& op) {
  constexpr int R = remove_cvref_t<T>::rank;
  static_assert(R >= 2, "reduce_mode: the tensor needs at least two modes (use reduce for one)");
  auto split = make_tensor(t.data(), split_mode<I>(t.layout(), make_index_sequence<R - 1>{}));
  const int n_out = int(size<0>(split)), n_red = int(size<1>(split));
  CUTE_DSL_UNROLL
  for (int j = 0; j < n_out; ++j) {
    V acc = FromFirst ? V(split(j, 0)) : init;
    CUTE_DSL_UNROLL
    for (int k = FromFirst ? 1 : 0; k < n_red; ++k) acc = op(acc, split(j, k));
    out(j) = acc;
  }
}
}  // namespace detail

template <int I, class T, class Out, class V, class Op>
  requires(is_tensor_v<T> && is_tensor_v<Out>)
CUTE_DSL_HOST_DEVICE constexpr void reduce_mode(T const& t, Out&& out, V const& init, Op const& op) {
  detail::reduce_mode_impl<I, false>(t, out, init, op);
}

template <int I, class T, class Out>
  requires(is_tensor_v<T> && is_tensor_v<Out>)
CUTE_DSL_HOST_DEVICE constexpr void reduce_sum(T const& t, Out&& out) {
  detail::reduce_mode_impl<I, false>(t, out, typename T::value_type{}, plus_op{});
}
// @pre size<I>(t) > 0
template <int I, class T, class Out>
  requires(is_tensor_v<T> && is_tensor_v<Out>)
CUTE_DSL_HOST_DEVICE constexpr void reduce_max(T const& t, Out&& out) {
  detail::reduce_mode_impl<I, true>(t, out, typename T::value_type{}, max_op{});
}

}  // namespace cute_dsl
