// composition(A, B): the layout R with R(i) == A(B(i)) for every i < size(B), shaped like B.
//
//   composition((6,2):(8,2), (4,3):(3,1))  ==  ((2,2),3):((24,2),8)
//   composition(A, make_tile(l0, l1, ...))     mode i of A composed with li; A's other modes dropped
//   composition(A, _4{})                       the tile 4:1
//
// Static A and B: the tree algorithm decides (layout/tree_composition.hpp), the answer is a type,
// a refused input a static_assert naming the rule, e.g.
//   "composition: Stride Divisibility Condition: every stride of B must divide, or be a multiple
//    of, the extents of A it crosses".
// Run-time leaves in A or B: the same rules are checked on the values (LayoutError on the host,
// trap on the device). The result has B's nesting; each leaf n:d of B becomes
//   n : d*a            when A has a single leaf a (the local_tile case: static stays static),
//   the static answer  when A and the leaf are static,
//   a tuple of rank(flatten(A)) run-time modes otherwise: the static answer's modes, right-aligned,
//                      after 1:0 padding (same function, same size).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/static_bridge.hpp"
#include "cute_dsl/layout/dynamic_support.hpp"

namespace cute_dsl {

namespace detail {

template <class A, class B> struct CompositionOp {
  CUTE_DSL_HOST_DEVICE static constexpr tree::Result<tree::Tree> run() {
    return tree::composition(static_tree<A>(), static_tree<B>());
  }
};
template <class A, class T> struct CompositionTilerOp {
  CUTE_DSL_HOST_DEVICE static constexpr tree::Result<tree::Tree> run() {
    return tree::composition(static_tree<A>(), static_tiler<T>());
  }
};

// ---- run-time composition of one leaf n:d of B with a flat A of R leaves ------------------------------

template <int R>
struct SlotModes {
  tree::index_t shape[R];
  tree::index_t stride[R];
  int count;
};

// tree::detail::coalesce_modes on R run-time modes. keep_last is composition's variant: the last
// mode is kept whatever its size, because its stride carries A past its size.
template <int R>
CUTE_DSL_HOST_DEVICE constexpr SlotModes<R> coalesce_values(const tree::index_t (&s)[R], const tree::index_t (&d)[R],
                                                          bool keep_last) {
  SlotModes<R> rev{};
  rev.shape[0] = s[R - 1];
  rev.stride[0] = d[R - 1];
  rev.count = 1;
  bool front_is_unit = !keep_last && s[R - 1] == 1;
  for (int i = R - 2; i >= 0; --i) {
    if (s[i] == 1) continue;
    const int f = rev.count - 1;
    if (front_is_unit) {
      rev.shape[f] = s[i];
      rev.stride[f] = d[i];
      front_is_unit = false;
    } else if (s[i] * d[i] == rev.stride[f]) {
      rev.shape[f] *= s[i];
      rev.stride[f] = d[i];
    } else {
      rev.shape[rev.count] = s[i];
      rev.stride[rev.count] = d[i];
      ++rev.count;
    }
  }
  SlotModes<R> out{};
  out.count = rev.count;
  for (int k = 0; k < rev.count; ++k) {
    out.shape[k] = rev.shape[rev.count - 1 - k];
    out.stride[k] = rev.stride[rev.count - 1 - k];
  }
  if (front_is_unit) out.stride[0] = 0;
  return out;
}

// The modes of A∘(n:d) as the tree builds them (tree::detail::compose_leaf), right-aligned in R
// slots after 1:0 padding. Assumes the rules hold (the tree check ran before).
template <int R>
CUTE_DSL_HOST_DEVICE constexpr SlotModes<R> compose_leaf_values(const tree::index_t (&s)[R], const tree::index_t (&d)[R],
                                                              tree::index_t n, tree::index_t b_stride) {
  SlotModes<R> m{};  // in order, then shifted right
  if (b_stride == 0) {
    m.shape[0] = n;
    m.stride[0] = 0;
    m.count = 1;
  } else {
    const SlotModes<R> a = coalesce_values(s, d, true);
    tree::index_t r = b_stride;
    for (int i = 0; i + 1 < a.count; ++i) {
      const tree::index_t e = a.shape[i];
      const tree::index_t k = (e + r - 1) / r;
      if (k != 1 && n != 1) {
        const tree::index_t cut = k < n ? k : n;
        m.shape[m.count] = cut;
        m.stride[m.count] = r * a.stride[i];
        ++m.count;
        n /= cut;
      }
      r = (r + e - 1) / e;
    }
    if (m.count == 0 || n != 1) {
      m.shape[m.count] = n;
      m.stride[m.count] = r * a.stride[a.count - 1];
      ++m.count;
    }
  }
  SlotModes<R> out{};
  out.count = R;
  const int pad = R - m.count;
  for (int k = 0; k < R; ++k) {
    out.shape[k] = k < pad ? 1 : m.shape[k - pad];
    out.stride[k] = k < pad ? 0 : m.stride[k - pad];
  }
  return out;
}

template <class V, int R, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr auto slot_layout(SlotModes<R> const& m, index_sequence<Is...>) {
  return make_layout(make_tuple(V(m.shape[Is])...), make_tuple(V(m.stride[Is])...));
}

template <class T, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr void load_values(tree::index_t (&out)[sizeof...(Is)], T const& t, index_sequence<Is...>) {
  ((out[Is] = tree::index_t(get<Is>(t))), ...);
}

// A∘(n:d) for one leaf of B; A given as its flat shapes and strides (tuples).
template <class AS, class AD, class N, class D>
CUTE_DSL_HOST_DEVICE constexpr auto compose_leaf(AS const& as, AD const& ad, N const& n, D const& d) {
  constexpr int R = int(tuple_size_v<AS>);
  if constexpr (R == 1) {
    return make_layout(n, d * get<0>(ad));
  } else if constexpr (is_static_v<AS> && is_static_v<AD> && is_static_v<N> && is_static_v<D>) {
    using R_ = StaticResult<CompositionOp<Layout<AS, AD>, Layout<N, D>>>;
    CUTE_DSL_STATIC_RESULT_CHECKS(R_::result, "composition");
    return decode_layout_t<R_>{};
  } else {
    using V = layout_int_t<AS, AD, N, D>;
    tree::index_t s[R] = {}, st[R] = {};
    load_values(s, as, make_index_sequence<R>{});
    load_values(st, ad, make_index_sequence<R>{});
    return slot_layout<V>(compose_leaf_values<R>(s, st, tree::index_t(n), tree::index_t(d)), make_index_sequence<R>{});
  }
}

template <class AS, class AD>
struct compose_leaf_fn {
  AS const& as;
  AD const& ad;
  template <class N, class D>
  CUTE_DSL_HOST_DEVICE constexpr auto operator()(N const& n, D const& d) const { return compose_leaf(as, ad, n, d); }
};
struct shape_of_fn {
  template <class L> CUTE_DSL_HOST_DEVICE constexpr auto operator()(L const& l) const { return l.shape(); }
};
struct stride_of_fn {
  template <class L> CUTE_DSL_HOST_DEVICE constexpr auto operator()(L const& l) const { return l.stride(); }
};

// A nested tuple of layouts (or one layout) as one layout of the same nesting.
template <class T>
CUTE_DSL_HOST_DEVICE constexpr auto layout_of_nest(T const& t) {
  if constexpr (is_layout_v<T>) return t;
  else return make_layout(transform_leaf(t, shape_of_fn{}), transform_leaf(t, stride_of_fn{}));
}

// ---- the typed checks (device code; see dynamic_support.hpp) -----------------------------------------
// The rules of tree::detail::composition on the few modes at hand: each leaf of B must walk the
// coalesced A by CuTe's rules, then R(i) == A(B(i)) must hold: at once when every leaf walks A
// exactly and no digits carry between A's modes, otherwise by evaluating both over B's domain.

template <int R, int NB>
struct CompositionValues {
  SlotModes<R> a;  // coalesced, keeping the last mode
  tree::index_t b_shape[NB];
  tree::index_t b_stride[NB];
};

template <class AS, class AD, class B>
CUTE_DSL_HOST_DEVICE constexpr auto composition_values(AS const& as, AD const& ad, B const& b) {
  constexpr int R = int(tuple_size_v<AS>);
  auto bs = flatten_to_tuple(b.shape());
  auto bd = flatten_to_tuple(b.stride());
  constexpr int NB = int(tuple_size_v<decltype(bs)>);
  tree::index_t s[R] = {}, d[R] = {};
  load_values(s, as, make_index_sequence<R>{});
  load_values(d, ad, make_index_sequence<R>{});
  CompositionValues<R, NB> v{};
  v.a = coalesce_values<R>(s, d, true);
  load_values(v.b_shape, bs, make_index_sequence<NB>{});
  load_values(v.b_stride, bd, make_index_sequence<NB>{});
  return v;
}

template <int R, int NB>
CUTE_DSL_HOST_DEVICE constexpr void check_composition_walk(const char* fn, CompositionValues<R, NB> const& v) {
  for (int j = 0; j < NB; ++j) {
    CUTE_DSL_CHECK_VALUES(v.b_stride[j] >= 0, fn, negative_stride, v.b_stride[j], 0);
    if (v.b_stride[j] == 0) continue;
    tree::index_t n = v.b_shape[j], r = v.b_stride[j];
    for (int i = 0; i + 1 < v.a.count; ++i) {
      const tree::index_t e = v.a.shape[i];
      CUTE_DSL_CHECK_VALUES(r % e == 0 || r < e, fn, stride_divisibility, r, e);
      const tree::index_t k = (e + r - 1) / r;
      if (k != 1 && n != 1) {
        const tree::index_t m = k < n ? k : n;
        CUTE_DSL_CHECK_VALUES(n % m == 0, fn, shape_divisibility, n, m);
        n /= m;
      }
      r = (r + e - 1) / e;
    }
  }
}

// tree::detail::composition_is_exact on the few modes at hand.
template <int R, int NB>
CUTE_DSL_HOST_DEVICE constexpr bool composition_exact(CompositionValues<R, NB> const& v, tree::index_t& bad_stride,
                                                      tree::index_t& bad_extent) {
  tree::index_t digit_sum[R] = {};
  for (int j = 0; j < NB; ++j) {
    tree::index_t n = v.b_shape[j], r = v.b_stride[j];
    if (n == 1 || r == 0) continue;
    for (int i = 0; i + 1 < v.a.count && n > 1; ++i) {
      const tree::index_t e = v.a.shape[i];
      if (r % e == 0) {
        r /= e;
        continue;
      }
      if (r > e || e % r != 0) {
        bad_stride = r;
        bad_extent = e;
        return false;
      }
      const tree::index_t m = e / r < n ? e / r : n;
      digit_sum[i] += r * (m - 1);
      if (digit_sum[i] >= e) {
        bad_stride = v.b_stride[j];
        bad_extent = e;
        return false;
      }
      n /= m;
      r = 1;
    }
  }
  return true;
}

template <int R, int NB, class A, class B, class Res>
CUTE_DSL_HOST_DEVICE constexpr void check_composition_result(const char* fn, CompositionValues<R, NB> const& v,
                                                             A const& a, B const& b, Res const& result) {
  if (v.a.count == 1) return;  // one mode of A is linear everywhere
  tree::index_t bad_stride = 0, bad_extent = 0;
  if (composition_exact(v, bad_stride, bad_extent)) return;
  const tree::index_t n = tree::index_t(size(b));
  bool holds = n <= tree::detail::kMaxEnumeratedDomain;
  for (tree::index_t i = 0; holds && i < n; ++i) holds = tree::index_t(result(i)) == tree::index_t(a(b(i)));
  CUTE_DSL_CHECK_VALUES(holds, fn, stride_divisibility, bad_stride, bad_extent);
}

struct non_negative_stride_fn {
  const char* function;
  template <class D>
  CUTE_DSL_HOST_DEVICE constexpr void operator()(D const& d) const {
    if constexpr (!is_C_v<D>) CUTE_DSL_CHECK_VALUES(d >= 0, function, negative_stride, d, 0);
  }
};

template <class A, class B>
CUTE_DSL_HOST_DEVICE constexpr auto composition_dynamic(const char* fn, A const& a, B const& b) {
  auto as = flatten_to_tuple(a.shape());
  auto ad = flatten_to_tuple(a.stride());
  // With one leaf in A there is no walk and nothing to check but the shapes and B's strides.
  constexpr bool walk = int(tuple_size_v<decltype(as)>) > 1;
  if constexpr (typed_checks) {
    check_positive_shapes(fn, a.shape());
    check_positive_shapes(fn, b.shape());
    if constexpr (walk) check_composition_walk(fn, composition_values(as, ad, b));
    else for_each_leaf(b.stride(), non_negative_stride_fn{fn});
  }
  auto result = layout_of_nest(transform_leaf(b.shape(), b.stride(), compose_leaf_fn<decltype(as), decltype(ad)>{as, ad}));
  if constexpr (typed_checks && walk) check_composition_result(fn, composition_values(as, ad, b), a, b, result);
  return result;
}

template <int K, class A, class T>
CUTE_DSL_HOST_DEVICE constexpr auto composition_mode_dynamic(const char* fn, A const& a, T const& t) {
  return composition_dynamic(fn, mode<K>(a), tiler_layout(get<K>(t)));
}
template <class A, class T, unsigned long... Ks>
CUTE_DSL_HOST_DEVICE constexpr auto composition_tiler_dynamic(const char* fn, A const& a, T const& t, index_sequence<Ks...>) {
  return layout_of_modes(composition_mode_dynamic<int(Ks)>(fn, a, t)...);
}

// composition without the run-time tree check: for the operations built on it (divides,
// products), which check their own rules once on the whole input.
template <class A, class B>
CUTE_DSL_HOST_DEVICE constexpr auto composition_impl(const char* fn, A const& a, B const& b) {
  if constexpr (is_static_v<A> && is_static_v<B>) {
    if constexpr (is_tuple_v<B>) {
      using R = StaticResult<CompositionTilerOp<A, B>>;
      CUTE_DSL_STATIC_RESULT_CHECKS(R::result, "composition");
      return decode_layout_t<R>{};
    } else {
      using R = StaticResult<CompositionOp<A, decltype(tiler_layout(b))>>;
      CUTE_DSL_STATIC_RESULT_CHECKS(R::result, "composition");
      return decode_layout_t<R>{};
    }
  } else {
    if constexpr (is_tuple_v<B>) return composition_tiler_dynamic(fn, a, b, make_index_sequence<tuple_size_v<B>>{});
    else return composition_dynamic(fn, a, tiler_layout(b));
  }
}

}  // namespace detail

template <class S, class D, class B>
  requires Tiler<B>
CUTE_DSL_HOST_DEVICE constexpr auto composition(Layout<S, D> const& a, B const& b) {
  if constexpr (is_tuple_v<B>) {
    static_assert(tuple_size_v<B> <= rank_v<S>, "composition: " CUTE_DSL_RULE_TEXT(rank_mismatch));
  }
  if constexpr (!(is_static_v<Layout<S, D>> && is_static_v<B>))
    CUTE_DSL_CHECK_BY_TREE("composition", tree::composition(detail::value_tree(a), detail::value_arg(b)));
  return detail::composition_impl("composition", a, b);
}

}  // namespace cute_dsl
