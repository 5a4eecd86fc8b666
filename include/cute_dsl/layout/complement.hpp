// complement(L, cotarget): the layout of the offsets below the cotarget that L leaves out, so
// that (L, complement) is injective and covers them.
//
//   complement(4:2, 24)                == (2,3):(1,8)
//   complement((16,1,6):(4,256,1024))  == (4,16):(1,64)     default cotarget: cosize(filter(L))
//   complement(L, (6,4))               a tuple cotarget, consumed mode by mode (logical_divide)
//
// Static L and cotarget: the tree algorithm decides (layout/tree_complement.hpp).
// Run-time leaves: L's strides must be static (its modes are ordered by stride at compile time);
// its shapes and the cotarget may be run-time values. The rules (injectivity, exact nesting) are
// checked on the values as for the static path. A mode whose run-time shape is 1 is skipped at
// run time, as the static filter would drop it; its gap is then a run-time 1.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/static_bridge.hpp"
#include "cute_dsl/layout/dynamic_support.hpp"
#include "cute_dsl/layout/coalesce.hpp"

namespace cute_dsl {

namespace detail {

template <class L> struct ComplementOp {
  CUTE_DSL_HOST_DEVICE static constexpr tree::Result<tree::Tree> run() { return tree::complement(static_tree<L>()); }
};
template <class L, class T> struct ComplementCotargetOp {
  CUTE_DSL_HOST_DEVICE static constexpr tree::Result<tree::Tree> run() {
    if constexpr (is_tuple_v<T>) return tree::complement(static_tree<L>(), static_shape_tree<T>());
    else return tree::complement(static_tree<L>(), tree::index_t(T::value));
  }
};

// ---- the typed walk -----------------------------------------------------------------------------------

// The flat modes that take part (static stride not 0, shape not a static 1), by increasing
// stride, ties in order of appearance (tree::detail::complement_impl's selection).
template <int N>
struct ModeOrder {
  int index[N];
  int count;
};

template <class S, class D> struct complement_order;
template <class... S, class... D>
struct complement_order<tuple<S...>, tuple<D...>> {
  static constexpr int N = int(sizeof...(S));
  CUTE_DSL_HOST_DEVICE static constexpr ModeOrder<N> compute() {
    const tree::index_t stride[N] = {tree::index_t(D::value)...};
    const bool part[N] = {(D::value != 0 && !is_constant_v<1, S>)...};
    bool taken[N] = {};
    ModeOrder<N> o{};
    for (int step = 0; step < N; ++step) {
      int next = -1;
      for (int k = 0; k < N; ++k)
        if (part[k] && !taken[k] && (next < 0 || stride[k] < stride[next])) next = k;
      if (next < 0) break;
      taken[next] = true;
      o.index[o.count++] = next;
    }
    return o;
  }
  static constexpr ModeOrder<N> value = compute();
};

// The typed check of one gap (tree::detail::complement_impl's rules).
template <class Dk, class E>
CUTE_DSL_HOST_DEVICE constexpr void check_gap(const char* fn, Dk const& dk, E const& extent) {
  CUTE_DSL_CHECK_VALUES(dk / extent != 0, fn, complement_injective, dk, extent);
  CUTE_DSL_CHECK_VALUES(dk % extent == 0, fn, complement_divisibility, dk, extent);
}

// Gap modes (gs, gd) so far and the extent where the next gap starts.
template <int J, class Order, class S, class D, class E, class GS, class GD>
CUTE_DSL_HOST_DEVICE constexpr auto complement_walk(const char* fn, S const& s, D const& d, E const& extent, GS const& gs,
                                                    GD const& gd) {
  if constexpr (J == Order::value.count) {
    return make_tuple(extent, gs, gd);
  } else {
    constexpr int K = Order::value.index[J];
    auto sk = get<K>(s);
    auto dk = get<K>(d);
    if constexpr (is_C_v<decltype(sk)>) {
      if constexpr (typed_checks && !is_C_v<E>) check_gap(fn, dk, extent);
      return complement_walk<J + 1, Order>(fn, s, d, sk * dk, append(gs, dk / extent), append(gd, extent));
    } else {
      using V = dynamic_int_t<decltype(sk), E>;
      const bool unit = sk == 1;  // the static filter would have dropped this mode
      if constexpr (typed_checks)
        if (!unit) check_gap(fn, dk, extent);
      const V gap = unit ? V(1) : V(dk / extent);
      const V next = unit ? V(extent) : V(sk * dk);
      return complement_walk<J + 1, Order>(fn, s, d, next, append(gs, gap), append(gd, V(extent)));
    }
  }
}

// The last mode covers the cotarget: each cotarget leaf divided by what is left of the extent.
struct cotarget_rest_fn {
  template <class Acc, class Ck>
  CUTE_DSL_HOST_DEVICE constexpr auto operator()(Acc const& acc, Ck const& ck) const {
    auto rest = get<0>(acc);
    auto remaining = get<1>(acc);
    return make_tuple(rest * ceil_div(ck, remaining), ceil_div(remaining, ck));
  }
};

template <class L, class T>
CUTE_DSL_HOST_DEVICE constexpr auto complement_dynamic(const char* fn, L const& l, T const& cotarget) {
  auto s = flatten_to_tuple(l.shape());
  auto d = flatten_to_tuple(l.stride());
  check_positive_shapes(fn, l.shape());
  check_positive_shapes(fn, cotarget);
  using Order = complement_order<decltype(s), decltype(d)>;
  auto walked = complement_walk<0, Order>(fn, s, d, Int<1>{}, tuple<>{}, tuple<>{});
  auto extent = get<0>(walked);
  auto rest = get<0>(fold(flatten_to_tuple(cotarget), make_tuple(Int<1>{}, extent), cotarget_rest_fn{}));
  return coalesce_flat(append(get<1>(walked), rest), append(get<2>(walked), extent));
}

// complement without the run-time tree check (for logical_divide and logical_product).
template <class L, class T>
CUTE_DSL_HOST_DEVICE constexpr auto complement_impl(const char* fn, L const& l, T const& cotarget) {
  if constexpr (is_static_v<L> && is_static_v<T>) {
    using R = StaticResult<ComplementCotargetOp<L, T>>;
    CUTE_DSL_STATIC_RESULT_CHECKS(R::result, "complement");
    return decode_layout_t<R>{};
  } else if constexpr (!is_static_v<typename L::stride_type>) {
    CUTE_DSL_UNSUPPORTED_DYNAMIC(is_static_v<typename L::stride_type>, "complement",
                                 "run-time strides are not supported (the modes are ordered by stride at compile time)");
    return l;
  } else {
    return complement_dynamic(fn, l, cotarget);
  }
}

template <class L, class T>
CUTE_DSL_HOST_DEVICE constexpr auto complement_any(L const& l, T const& cotarget) {
  if constexpr (is_static_v<L> && !is_static_v<T>) {  // the rules do not depend on the cotarget
    using R = StaticResult<ComplementOp<L>>;
    CUTE_DSL_STATIC_RESULT_CHECKS(R::result, "complement");
  }
  if constexpr (!(is_static_v<L> && is_static_v<T>)) {
    if constexpr (is_tuple_v<T>)
      CUTE_DSL_CHECK_BY_TREE("complement", tree::complement(value_tree(l), to_tree(cotarget)));
    else
      CUTE_DSL_CHECK_BY_TREE("complement", tree::complement(value_tree(l), tree::index_t(cotarget)));
  }
  // As a result of its own it may become the left side of a composition: continue it past its
  // size as the static answer would (complement_impl alone serves logical_divide, where it is
  // only a right side and its static strides are worth keeping).
  if constexpr (is_static_v<L> && is_static_v<T>) return complement_impl("complement", l, cotarget);
  else return normalize_tail(complement_impl("complement", l, cotarget));
}

}  // namespace detail

// Cotarget an integer or an int-tuple (a tuple is consumed mode by mode, as logical_divide needs).
template <class S, class D, class T>
  requires is_int_tuple_v<T>
CUTE_DSL_HOST_DEVICE constexpr auto complement(Layout<S, D> const& layout, T const& cotarget) {
  return detail::complement_any(layout, cotarget);
}

// Default cotarget: cosize(layout) (equal to that of filter(layout)).
template <class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto complement(Layout<S, D> const& layout) {
  if constexpr (is_static_v<Layout<S, D>>) {
    using R = detail::StaticResult<detail::ComplementOp<Layout<S, D>>>;
    CUTE_DSL_STATIC_RESULT_CHECKS(R::result, "complement");
    return decode_layout_t<R>{};
  } else {
    return detail::complement_any(layout, cosize(layout));
  }
}

}  // namespace cute_dsl
