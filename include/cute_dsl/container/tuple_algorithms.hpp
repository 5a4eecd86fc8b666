// Generic algorithms over cute_dsl::tuple, each a single pack expansion over an index sequence
// where it can be (NVRTC pays per template instantiation).
//
// No generic lambdas inside the library: NVRTC treats the call operator of a generic lambda in
// a __host__ __device__ function as a host function and rejects it ("host functions are not
// allowed in JIT mode"), unless the JIT passes -default-device. Named function objects with
// annotated call operators work everywhere, so the library uses those. Users passing their own
// callables to transform/for_each/fold under NVRTC should do the same.
//
// Convention, as in CuTe: an algorithm given a non-tuple treats it as a one-element list where
// that makes sense (transform(x, f) is f(x)), so the same code walks int-tuples and integers.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/container/tuple.hpp"

namespace cute_dsl {

// Rank of a tuple, 1 for anything else (an integer is a rank-1 int-tuple).
template <class T, bool = is_tuple_v<T>> inline constexpr int tuple_rank_v = 1;
template <class T> inline constexpr int tuple_rank_v<T, true> = int(tuple_size_v<T>);

template <class T> using tuple_seq = make_index_sequence<tuple_size_v<T>>;

// ---- apply, transform, for_each ----------------------------------------------------------------

template <class T, class F, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr decltype(auto) apply(T&& t, F&& f, index_sequence<Is...>) {
  return f(get<Is>(static_cast<T&&>(t))...);
}
// f(t0, t1, ...)
template <class T, class F>
CUTE_DSL_HOST_DEVICE constexpr decltype(auto) apply(T&& t, F&& f) {
  return apply(static_cast<T&&>(t), f, tuple_seq<T>{});
}

namespace detail {
template <class T, class F, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr auto transform1(T const& t, F& f, index_sequence<Is...>) {
  return make_tuple(f(get<Is>(t))...);
}
template <class T0, class T1, class F, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr auto transform2(T0 const& t0, T1 const& t1, F& f, index_sequence<Is...>) {
  return make_tuple(f(get<Is>(t0), get<Is>(t1))...);
}
template <class T0, class T1, class T2, class F, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr auto transform3(T0 const& t0, T1 const& t1, T2 const& t2, F& f, index_sequence<Is...>) {
  return make_tuple(f(get<Is>(t0), get<Is>(t1), get<Is>(t2))...);
}
template <class T, class F, class G, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr decltype(auto) transform_apply1(T const& t, F& f, G& g, index_sequence<Is...>) {
  return g(f(get<Is>(t))...);
}
template <class T0, class T1, class F, class G, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr decltype(auto) transform_apply2(T0 const& t0, T1 const& t1, F& f, G& g, index_sequence<Is...>) {
  return g(f(get<Is>(t0), get<Is>(t1))...);
}
template <class T, class F, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr void for_each1(T&& t, F& f, index_sequence<Is...>) {
  (f(get<Is>(static_cast<T&&>(t))), ...);
}
}  // namespace detail

// (f(t0), f(t1), ...), or f(t) for a non-tuple.
template <class T, class F>
CUTE_DSL_HOST_DEVICE constexpr auto transform(T const& t, F&& f) {
  if constexpr (is_tuple_v<T>) return detail::transform1(t, f, tuple_seq<T>{});
  else return f(t);
}

// (f(a0, b0), f(a1, b1), ...); both tuples of the same rank, or both non-tuples.
template <class T0, class T1, class F>
CUTE_DSL_HOST_DEVICE constexpr auto transform(T0 const& t0, T1 const& t1, F&& f) {
  if constexpr (is_tuple_v<T0>) {
    static_assert(tuple_rank_v<T0> == tuple_rank_v<T1>, "transform: the tuples must have the same rank");
    return detail::transform2(t0, t1, f, tuple_seq<T0>{});
  } else {
    return f(t0, t1);
  }
}

template <class T0, class T1, class T2, class F>
CUTE_DSL_HOST_DEVICE constexpr auto transform(T0 const& t0, T1 const& t1, T2 const& t2, F&& f) {
  if constexpr (is_tuple_v<T0>) {
    static_assert(tuple_rank_v<T0> == tuple_rank_v<T1> && tuple_rank_v<T0> == tuple_rank_v<T2>,
                  "transform: the tuples must have the same rank");
    return detail::transform3(t0, t1, t2, f, tuple_seq<T0>{});
  } else {
    return f(t0, t1, t2);
  }
}

// g(f(t0), f(t1), ...); g(f(t)) for a non-tuple.
template <class T, class F, class G>
CUTE_DSL_HOST_DEVICE constexpr decltype(auto) transform_apply(T const& t, F&& f, G&& g) {
  if constexpr (is_tuple_v<T>) return detail::transform_apply1(t, f, g, tuple_seq<T>{});
  else return g(f(t));
}
// g(f(a0, b0), f(a1, b1), ...)
template <class T0, class T1, class F, class G>
CUTE_DSL_HOST_DEVICE constexpr decltype(auto) transform_apply(T0 const& t0, T1 const& t1, F&& f, G&& g) {
  static_assert(tuple_rank_v<T0> == tuple_rank_v<T1>, "transform_apply: the tuples must have the same rank");
  return detail::transform_apply2(t0, t1, f, g, tuple_seq<T0>{});
}

template <class T, class F>
CUTE_DSL_HOST_DEVICE constexpr void for_each(T&& t, F&& f) {
  if constexpr (is_tuple_v<T>) detail::for_each1(static_cast<T&&>(t), f, tuple_seq<T>{});
  else f(static_cast<T&&>(t));
}

// Apply f to every leaf of a nested tuple, keeping the nesting.
template <class T, class F>
CUTE_DSL_HOST_DEVICE constexpr auto transform_leaf(T const& t, F&& f);
template <class T0, class T1, class F>
CUTE_DSL_HOST_DEVICE constexpr auto transform_leaf(T0 const& t0, T1 const& t1, F&& f);
template <class T, class F>
CUTE_DSL_HOST_DEVICE constexpr void for_each_leaf(T&& t, F&& f);

namespace detail {
template <class F> struct transform_leaf_fn {
  F& f;
  template <class A> CUTE_DSL_HOST_DEVICE constexpr auto operator()(A const& a) const { return transform_leaf(a, f); }
  template <class A, class B> CUTE_DSL_HOST_DEVICE constexpr auto operator()(A const& a, B const& b) const {
    return transform_leaf(a, b, f);
  }
};
template <class F> struct for_each_leaf_fn {
  F& f;
  template <class A> CUTE_DSL_HOST_DEVICE constexpr void operator()(A&& a) const { for_each_leaf(static_cast<A&&>(a), f); }
};
}  // namespace detail

template <class T, class F>
CUTE_DSL_HOST_DEVICE constexpr auto transform_leaf(T const& t, F&& f) {
  if constexpr (is_tuple_v<T>) return transform(t, detail::transform_leaf_fn<remove_reference_t<F>>{f});
  else return f(t);
}
template <class T0, class T1, class F>
CUTE_DSL_HOST_DEVICE constexpr auto transform_leaf(T0 const& t0, T1 const& t1, F&& f) {
  if constexpr (is_tuple_v<T0>) return transform(t0, t1, detail::transform_leaf_fn<remove_reference_t<F>>{f});
  else return f(t0, t1);
}
template <class T, class F>
CUTE_DSL_HOST_DEVICE constexpr void for_each_leaf(T&& t, F&& f) {
  if constexpr (is_tuple_v<T>) for_each(static_cast<T&&>(t), detail::for_each_leaf_fn<remove_reference_t<F>>{f});
  else f(static_cast<T&&>(t));
}

// ---- fold ------------------------------------------------------------------------------------

namespace detail {
// A left fold whose accumulator may change type at each step, written as a C++ fold expression
// over a wrapper so that it needs no recursion.
template <class V, class F>
struct fold_step {
  V value;
  F& f;
  template <class U>
  CUTE_DSL_HOST_DEVICE constexpr auto operator<<(U const& u) const {
    using R = decltype(f(value, u));
    return fold_step<R, F>{f(value, u), f};
  }
};
template <class T, class V, class F, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr auto fold1(T const& t, V const& init, F& f, index_sequence<Is...>) {
  return (fold_step<V, F>{init, f} << ... << get<Is>(t)).value;
}
}  // namespace detail

// f(...f(f(init, t0), t1)..., tn); f(init, t) for a non-tuple.
template <class T, class V, class F>
CUTE_DSL_HOST_DEVICE constexpr auto fold(T const& t, V const& init, F&& f) {
  if constexpr (is_tuple_v<T>) return detail::fold1(t, init, f, tuple_seq<T>{});
  else return f(init, t);
}

// ---- building and slicing --------------------------------------------------------------------

// A one-element tuple around a non-tuple; a tuple unchanged.
template <class T>
CUTE_DSL_HOST_DEVICE constexpr auto wrap(T const& t) {
  if constexpr (is_tuple_v<T>) return t;
  else return make_tuple(t);
}

// The element of a one-element tuple (recursively); anything else unchanged.
template <class T>
CUTE_DSL_HOST_DEVICE constexpr auto unwrap(T const& t) {
  if constexpr (is_tuple_v<T>) {
    if constexpr (tuple_size_v<T> == 1) return unwrap(get<0>(t));
    else return t;
  } else {
    return t;
  }
}

namespace detail {
template <class T, class X, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr auto append_impl(T const& t, X const& x, index_sequence<Is...>) {
  return make_tuple(get<Is>(t)..., x);
}
template <class T, class X, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr auto prepend_impl(T const& t, X const& x, index_sequence<Is...>) {
  return make_tuple(x, get<Is>(t)...);
}
template <unsigned long... Is, class X>
CUTE_DSL_HOST_DEVICE constexpr auto repeat_impl(X const& x, index_sequence<Is...>) {
  return make_tuple(((void)Is, x)...);
}
}  // namespace detail

// N copies of x.
template <int N, class X>
CUTE_DSL_HOST_DEVICE constexpr auto repeat(X const& x) {
  return detail::repeat_impl(x, make_index_sequence<N>{});
}

// x in place of every leaf of t (keeping the nesting); x itself if t is not a tuple.
template <class T, class X>
CUTE_DSL_HOST_DEVICE constexpr auto repeat_like(T const& t, X const& x);
namespace detail {
template <class X> struct repeat_like_fn {
  X const& x;
  template <class A> CUTE_DSL_HOST_DEVICE constexpr auto operator()(A const& a) const { return repeat_like(a, x); }
};
}  // namespace detail
template <class T, class X>
CUTE_DSL_HOST_DEVICE constexpr auto repeat_like(T const& t, X const& x) {
  if constexpr (is_tuple_v<T>) return transform(t, detail::repeat_like_fn<X>{x});
  else return x;
}

// t with x added at the end. A non-tuple t counts as a one-element tuple.
template <class T, class X>
CUTE_DSL_HOST_DEVICE constexpr auto append(T const& t, X const& x) {
  if constexpr (is_tuple_v<T>) return detail::append_impl(t, x, tuple_seq<T>{});
  else return make_tuple(t, x);
}
// t padded with copies of x up to rank N.
template <int N, class T, class X>
CUTE_DSL_HOST_DEVICE constexpr auto append(T const& t, X const& x) {
  constexpr int R = tuple_rank_v<T>;
  static_assert(R <= N, "append<N>: the tuple is already longer than N");
  if constexpr (R == N) return wrap(t);
  else return append<N>(append(wrap(t), x), x);
}

template <class T, class X>
CUTE_DSL_HOST_DEVICE constexpr auto prepend(T const& t, X const& x) {
  if constexpr (is_tuple_v<T>) return detail::prepend_impl(t, x, tuple_seq<T>{});
  else return make_tuple(x, t);
}
template <int N, class T, class X>
CUTE_DSL_HOST_DEVICE constexpr auto prepend(T const& t, X const& x) {
  constexpr int R = tuple_rank_v<T>;
  static_assert(R <= N, "prepend<N>: the tuple is already longer than N");
  if constexpr (R == N) return wrap(t);
  else return prepend<N>(prepend(wrap(t), x), x);
}

// (t_I...) for the listed indices.
template <int... Is, class T>
CUTE_DSL_HOST_DEVICE constexpr auto select(T const& t) {
  return make_tuple(get<Is>(t)...);
}

namespace detail {
template <int B, class T, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr auto take_impl(T const& t, index_sequence<Is...>) {
  return make_tuple(get<B + Is>(t)...);
}
template <class... As, class... Bs, unsigned long... Ia, unsigned long... Ib>
CUTE_DSL_HOST_DEVICE constexpr auto tuple_cat_impl(tuple<As...> const& a, tuple<Bs...> const& b,
                                                   index_sequence<Ia...>, index_sequence<Ib...>) {
  return tuple<As..., Bs...>(get<Ia>(a)..., get<Ib>(b)...);
}
}  // namespace detail

// Elements [B, E) of t.
template <int B, int E, class T>
CUTE_DSL_HOST_DEVICE constexpr auto take(T const& t) {
  static_assert(0 <= B && B <= E && E <= int(tuple_size_v<T>), "take<B,E>: the range must lie within the tuple");
  return detail::take_impl<B>(t, make_index_sequence<E - B>{});
}

// Concatenation of tuples.
CUTE_DSL_HOST_DEVICE constexpr tuple<> tuple_cat() { return {}; }
template <class T>
CUTE_DSL_HOST_DEVICE constexpr T tuple_cat(T const& t) { return t; }
template <class A, class B, class... Rest>
CUTE_DSL_HOST_DEVICE constexpr auto tuple_cat(A const& a, B const& b, Rest const&... rest) {
  auto ab = detail::tuple_cat_impl(a, b, tuple_seq<A>{}, tuple_seq<B>{});
  if constexpr (sizeof...(Rest) == 0) return ab;
  else return tuple_cat(ab, rest...);
}

// The leaves of a nested tuple as one flat tuple (a non-tuple becomes a one-element tuple).
template <class T>
CUTE_DSL_HOST_DEVICE constexpr auto flatten_to_tuple(T const& t);
namespace detail {
template <class T, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr auto flatten_impl(T const& t, index_sequence<Is...>) {
  return tuple_cat(tuple<>{}, flatten_to_tuple(get<Is>(t))...);
}
}  // namespace detail
template <class T>
CUTE_DSL_HOST_DEVICE constexpr auto flatten_to_tuple(T const& t) {
  if constexpr (is_tuple_v<T>) return detail::flatten_impl(t, tuple_seq<T>{});
  else return make_tuple(t);
}

// As flatten_to_tuple, but a non-tuple stays itself.
template <class T>
CUTE_DSL_HOST_DEVICE constexpr auto flatten(T const& t) {
  if constexpr (is_tuple_v<T>) return flatten_to_tuple(t);
  else return t;
}

// t with elements [B, E) replaced by the single element (t_B, ..., t_{E-1}).
template <int B, int E, class T>
CUTE_DSL_HOST_DEVICE constexpr auto group(T const& t) {
  constexpr int R = int(tuple_size_v<T>);
  return tuple_cat(take<0, B>(t), make_tuple(take<B, E>(t)), take<E, R>(t));
}

// t with element I replaced by x.
template <int I, class T, class X>
CUTE_DSL_HOST_DEVICE constexpr auto replace(T const& t, X const& x) {
  constexpr int R = int(tuple_size_v<T>);
  return tuple_cat(take<0, I>(t), make_tuple(x), take<I + 1, R>(t));
}

// t without element I.
template <int I, class T>
CUTE_DSL_HOST_DEVICE constexpr auto remove(T const& t) {
  constexpr int R = int(tuple_size_v<T>);
  return tuple_cat(take<0, I>(t), take<I + 1, R>(t));
}

// t with x inserted before element I.
template <int I, class T, class X>
CUTE_DSL_HOST_DEVICE constexpr auto insert(T const& t, X const& x) {
  constexpr int R = int(tuple_size_v<T>);
  return tuple_cat(take<0, I>(t), make_tuple(x), take<I, R>(t));
}

namespace detail {
template <class T, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr auto reverse_impl(T const& t, index_sequence<Is...>) {
  return make_tuple(get<sizeof...(Is) - 1 - Is>(t)...);
}
template <unsigned long I, class... Ts>
CUTE_DSL_HOST_DEVICE constexpr auto zip_column(Ts const&... ts) { return make_tuple(get<I>(ts)...); }
template <class... Ts, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr auto zip_impl(index_sequence<Is...>, Ts const&... ts) {
  return make_tuple(zip_column<Is>(ts...)...);
}
template <class T, class F, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr bool any_of_impl(T const& t, F& f, index_sequence<Is...>) {
  return (false || ... || bool(f(get<Is>(t))));
}
template <class T, class F, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr bool all_of_impl(T const& t, F& f, index_sequence<Is...>) {
  return (true && ... && bool(f(get<Is>(t))));
}
template <class T, class F, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr int find_if_impl(T const& t, F& f, index_sequence<Is...>) {
  int r = int(sizeof...(Is));
  bool found = false;
  ((found = found || (bool(f(get<Is>(t))) && (r = int(Is), true))), ...);
  return r;
}
}  // namespace detail

template <class T>
CUTE_DSL_HOST_DEVICE constexpr auto reverse(T const& t) {
  if constexpr (is_tuple_v<T>) return detail::reverse_impl(t, tuple_seq<T>{});
  else return t;
}

// zip((a0,a1,...), (b0,b1,...)) = ((a0,b0), (a1,b1), ...); all of the same rank.
template <class T0, class... Ts>
CUTE_DSL_HOST_DEVICE constexpr auto zip(T0 const& t0, Ts const&... ts) {
  static_assert(((tuple_size_v<T0> == tuple_size_v<Ts>) && ...), "zip: the tuples must have the same rank");
  return detail::zip_impl(tuple_seq<T0>{}, t0, ts...);
}

template <class T, class F>
CUTE_DSL_HOST_DEVICE constexpr bool any_of(T const& t, F&& f) {
  if constexpr (is_tuple_v<T>) return detail::any_of_impl(t, f, tuple_seq<T>{});
  else return bool(f(t));
}
template <class T, class F>
CUTE_DSL_HOST_DEVICE constexpr bool all_of(T const& t, F&& f) {
  if constexpr (is_tuple_v<T>) return detail::all_of_impl(t, f, tuple_seq<T>{});
  else return bool(f(t));
}
// Index of the first element for which f holds; the rank if none.
template <class T, class F>
CUTE_DSL_HOST_DEVICE constexpr int find_if(T const& t, F&& f) {
  return detail::find_if_impl(t, f, tuple_seq<T>{});
}

}  // namespace cute_dsl
