// coalesce, coalesce by profile, filter: the same function with fewer modes.
//
//   coalesce((2,(1,6)):(1,(6,2)))  == 12:1
//   coalesce((2,4),(3,8)):..., (_1,_1)) coalesces each top-level mode on its own
//   filter((6,(3,8)):(1,(0,0)))    == 6:1      (stride-0 modes dropped, then coalesced)
//
// Static layouts: the tree algorithm (layout/tree_coalesce.hpp) decides, the answer is a type.
// Dynamic layouts: the result keeps every mode whose merge the types cannot prove (a merge needs
// s_i * d_i == d_next as a static `true`), and keeps run-time-sized modes even if they are 1 at
// run time. The function is the same as the static answer's; only the grouping may differ.
// filter on a dynamic stride: the mode's shape becomes (d == 0 ? 1 : s) at run time, so the
// result is the static answer's function and size (CuTe instead keeps such modes whole).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/static_bridge.hpp"
#include "cute_dsl/layout/dynamic_support.hpp"

namespace cute_dsl {

namespace detail {

template <class L> struct CoalesceOp {
  CUTE_DSL_HOST_DEVICE static constexpr tree::Result<tree::Tree> run() { return tree::coalesce(static_tree<L>()); }
};
template <class L, class P> struct CoalesceProfileOp {
  CUTE_DSL_HOST_DEVICE static constexpr tree::Result<tree::Tree> run() {
    return tree::coalesce(static_tree<L>(), static_shape_tree<P>());
  }
};
template <class L> struct FilterOp {
  CUTE_DSL_HOST_DEVICE static constexpr tree::Result<tree::Tree> run() { return tree::filter(static_tree<L>()); }
};

// Only the nesting of a profile matters: every leaf as a static 1, so that a profile with
// run-time leaves still selects the static path.
template <class P> struct profile_of { using type = Int<1>; };
template <class... Ps> struct profile_of<tuple<Ps...>> { using type = tuple<typename profile_of<Ps>::type...>; };

// ---- the typed walk -----------------------------------------------------------------------------------
// Right to left over the flat modes (s, d), keeping the kept modes (ks, kd), front first. Mirrors
// tree::detail::coalesce_modes: skip static size-1 modes; a static size-1 last mode is replaced by
// the first mode to its left; merge where the types prove s_i * d_i == front stride.

template <int I, bool FrontIsUnit, class S, class D, class KS, class KD>
CUTE_DSL_HOST_DEVICE constexpr auto coalesce_walk(S const& s, D const& d, KS const& ks, KD const& kd) {
  if constexpr (I < 0) {
    if constexpr (FrontIsUnit) return make_layout(Int<1>{}, Int<0>{});
    else return layout_of_flat(ks, kd);
  } else {
    auto si = get<I>(s);
    auto di = get<I>(d);
    constexpr int K = int(tuple_size_v<KS>);
    if constexpr (is_constant_v<1, decltype(si)>) {
      return coalesce_walk<I - 1, FrontIsUnit>(s, d, ks, kd);
    } else if constexpr (FrontIsUnit) {
      return coalesce_walk<I - 1, false>(s, d, prepend(take<1, K>(ks), si), prepend(take<1, K>(kd), di));
    } else if constexpr (proven_v<decltype(si * di == get<0>(kd))>) {
      return coalesce_walk<I - 1, false>(s, d, prepend(take<1, K>(ks), si * get<0>(ks)),
                                         prepend(take<1, K>(kd), di));
    } else {
      return coalesce_walk<I - 1, false>(s, d, prepend(ks, si), prepend(kd, di));
    }
  }
}

template <class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto coalesce_flat(S const& s, D const& d) {
  constexpr int N = int(tuple_size_v<S>);
  auto last_s = get<N - 1>(s);
  return coalesce_walk<N - 2, is_constant_v<1, decltype(last_s)>>(s, d, make_tuple(last_s), make_tuple(get<N - 1>(d)));
}

template <class L>
CUTE_DSL_HOST_DEVICE constexpr auto coalesce_dynamic(L const& l) {
  return coalesce_flat(flatten_to_tuple(l.shape()), flatten_to_tuple(l.stride()));
}

// A stride-0 mode has no extent: its shape becomes 1 (statically when the stride is static).
struct filter_shape_fn {
  template <class S, class D>
  CUTE_DSL_HOST_DEVICE constexpr auto operator()(S const& s, D const& d) const {
    if constexpr (is_constant_v<0, D>) return Int<1>{};
    else if constexpr (is_C_v<D>) return s;
    else return dynamic_int_t<S, D>(d == 0 ? dynamic_int_t<S, D>(1) : dynamic_int_t<S, D>(s));
  }
};

template <class L>
CUTE_DSL_HOST_DEVICE constexpr auto filter_dynamic(L const& l) {
  auto d = flatten_to_tuple(l.stride());
  return coalesce_flat(transform(flatten_to_tuple(l.shape()), d, filter_shape_fn{}), d);
}

// A typed result may end in modes whose run-time shape is 1, which the static answer would have
// removed. Inside the size that changes nothing, but past it a layout continues through its last
// mode, and composition relies on that continuation. So the last stride of a run-time-sized last
// mode is chosen at run time to continue as the static answer does: through the last mode whose
// shape is not 1 (stride shape*stride), or not at all (0) when every mode is 1.
template <class S, class D, unsigned long... Ks>
CUTE_DSL_HOST_DEVICE constexpr auto normalize_tail_flat(S const& s, D const& d, index_sequence<Ks...>) {
  constexpr int N = int(sizeof...(Ks)) + 1;
  using V = layout_int_t<Layout<S, D>>;
  const tree::index_t shapes[N] = {tree::index_t(get<Ks>(s))..., tree::index_t(get<N - 1>(s))};
  const tree::index_t strides[N] = {tree::index_t(get<Ks>(d))..., tree::index_t(get<N - 1>(d))};
  tree::index_t last = strides[N - 1];
  if (shapes[N - 1] == 1) {
    last = 0;
    for (int k = N - 2; k >= 0; --k)
      if (shapes[k] != 1) {
        last = shapes[k] * strides[k];
        break;
      }
  }
  return make_layout(s, make_tuple(get<Ks>(d)..., V(last)));
}

template <class L>
CUTE_DSL_HOST_DEVICE constexpr auto normalize_tail(L const& l) {
  using S = typename L::shape_type;
  if constexpr (!is_tuple_v<S>) {
    if constexpr (is_C_v<S>) return l;
    else return make_layout(l.shape(), layout_int_t<L>(l.shape() == 1 ? 0 : l.stride()));
  } else {
    constexpr int N = int(tuple_size_v<S>);
    if constexpr (is_C_v<remove_cvref_t<decltype(get<N - 1>(l.shape()))>>) return l;
    else return normalize_tail_flat(l.shape(), l.stride(), make_index_sequence<N - 1>{});
  }
}

template <class L, class P>
CUTE_DSL_HOST_DEVICE constexpr auto coalesce_profile_dynamic(L const& l, P const& p);

template <int K, class L, class P>
CUTE_DSL_HOST_DEVICE constexpr auto coalesce_mode_by(L const& l, P const& p) {
  if constexpr (K < int(tuple_size_v<P>)) return coalesce_profile_dynamic(mode<K>(l), get<K>(p));
  else return mode<K>(l);
}

template <class L, class P, unsigned long... Ks>
CUTE_DSL_HOST_DEVICE constexpr auto coalesce_modes_by(L const& l, P const& p, index_sequence<Ks...>) {
  return layout_of_modes(coalesce_mode_by<int(Ks)>(l, p)...);
}

template <class L, class P>
CUTE_DSL_HOST_DEVICE constexpr auto coalesce_profile_dynamic(L const& l, P const& p) {
  if constexpr (!is_tuple_v<P>) {
    return normalize_tail(coalesce_dynamic(l));
  } else {
    constexpr int LR = rank_v<typename L::shape_type>;
    static_assert(int(tuple_size_v<P>) <= LR, "coalesce: " CUTE_DSL_RULE_TEXT(rank_mismatch));
    return coalesce_modes_by(l, p, make_index_sequence<LR>{});
  }
}

}  // namespace detail

// The same function with the fewest modes: flattened, size-1 modes dropped, neighbours merged
// where s_i * d_i == d_{i+1}. One mode left is an integral layout; none is `1:0`.
template <class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto coalesce(Layout<S, D> const& layout) {
  if constexpr (is_static_v<Layout<S, D>>) {
    using R = detail::StaticResult<detail::CoalesceOp<Layout<S, D>>>;
    CUTE_DSL_STATIC_RESULT_CHECKS(R::result, "coalesce");
    return decode_layout_t<R>{};
  } else {
    CUTE_DSL_CHECK_BY_TREE("coalesce", tree::coalesce(detail::value_tree(layout)));
    detail::check_positive_shapes("coalesce", layout.shape());
    return detail::normalize_tail(detail::coalesce_dynamic(layout));
  }
}

// CuTe's coalesce(layout, profile): where the profile is a tuple, each of the first
// rank(profile) modes is coalesced by the matching element and the other modes are kept; where
// it is an integer, the whole (sub)layout is coalesced. Only the profile's nesting matters.
template <class S, class D, class P>
  requires is_int_tuple_v<P>
CUTE_DSL_HOST_DEVICE constexpr auto coalesce(Layout<S, D> const& layout, P const& profile) {
  if constexpr (is_static_v<Layout<S, D>>) {
    using R = detail::StaticResult<detail::CoalesceProfileOp<Layout<S, D>, typename detail::profile_of<P>::type>>;
    CUTE_DSL_STATIC_RESULT_CHECKS(R::result, "coalesce");
    return decode_layout_t<R>{};
  } else {
    CUTE_DSL_CHECK_BY_TREE("coalesce", tree::coalesce(detail::value_tree(layout),
                                                      detail::static_shape_tree<typename detail::profile_of<P>::type>()));
    detail::check_positive_shapes("coalesce", layout.shape());
    return detail::coalesce_profile_dynamic(layout, profile);
  }
}

// coalesce after giving every stride-0 mode size 1: the layout's image without broadcasts.
template <class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto filter(Layout<S, D> const& layout) {
  if constexpr (is_static_v<Layout<S, D>>) {
    using R = detail::StaticResult<detail::FilterOp<Layout<S, D>>>;
    CUTE_DSL_STATIC_RESULT_CHECKS(R::result, "filter");
    return decode_layout_t<R>{};
  } else {
    CUTE_DSL_CHECK_BY_TREE("filter", tree::filter(detail::value_tree(layout)));
    detail::check_positive_shapes("filter", layout.shape());
    return detail::normalize_tail(detail::filter_dynamic(layout));
  }
}

}  // namespace cute_dsl
