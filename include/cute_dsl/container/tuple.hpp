// A small tuple that NVRTC compiles cheaply (no std::tuple), with empty members taking no space.
//
// Why empty members matter: a layout of static integers must itself be an empty type, so that
// "static" can be read from the type (is_static_v == is_empty_v). A member whose type is empty
// is therefore never stored; get<I> makes a fresh one on demand.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"

namespace cute_dsl {

namespace detail {

// One element. Public members so that tuples of structural types stay structural (usable as
// class-type template arguments).
template <unsigned long I, class T, bool = is_empty_v<T>>
struct tuple_leaf {
  T value;
  CUTE_DSL_HOST_DEVICE constexpr tuple_leaf() : value() {}
  template <class U>
  CUTE_DSL_HOST_DEVICE constexpr tuple_leaf(U&& u) : value(static_cast<U&&>(u)) {}
};

template <unsigned long I, class T>
struct tuple_leaf<I, T, true> {
  CUTE_DSL_HOST_DEVICE constexpr tuple_leaf() {}
  template <class U>
  CUTE_DSL_HOST_DEVICE constexpr tuple_leaf(U&&) {}
};

template <unsigned long I, class T>
CUTE_DSL_HOST_DEVICE constexpr T& get_leaf(tuple_leaf<I, T, false>& l) noexcept { return l.value; }
template <unsigned long I, class T>
CUTE_DSL_HOST_DEVICE constexpr T const& get_leaf(tuple_leaf<I, T, false> const& l) noexcept { return l.value; }
template <unsigned long I, class T>
CUTE_DSL_HOST_DEVICE constexpr T&& get_leaf(tuple_leaf<I, T, false>&& l) noexcept { return static_cast<T&&>(l.value); }
template <unsigned long I, class T>
CUTE_DSL_HOST_DEVICE constexpr T get_leaf(tuple_leaf<I, T, true> const&) noexcept { return {}; }

template <class Seq, class... Ts> struct tuple_base;

template <unsigned long... Is, class... Ts>
struct tuple_base<index_sequence<Is...>, Ts...> : tuple_leaf<Is, Ts>... {
  CUTE_DSL_HOST_DEVICE constexpr tuple_base() {}
  template <class... Us>
  CUTE_DSL_HOST_DEVICE constexpr explicit tuple_base(int, Us&&... us) : tuple_leaf<Is, Ts>(static_cast<Us&&>(us))... {}
};

}  // namespace detail

template <class... Ts>
struct tuple : detail::tuple_base<index_sequence_for<Ts...>, Ts...> {
  using base_type = detail::tuple_base<index_sequence_for<Ts...>, Ts...>;
  CUTE_DSL_HOST_DEVICE constexpr tuple() {}
  CUTE_DSL_HOST_DEVICE constexpr tuple(Ts const&... ts) requires(sizeof...(Ts) > 0) : base_type(0, ts...) {}
};

template <class... Ts> tuple(Ts...) -> tuple<Ts...>;

// ---- traits ----------------------------------------------------------------------------------

template <class T> inline constexpr bool is_tuple_impl_v = false;
template <class... Ts> inline constexpr bool is_tuple_impl_v<tuple<Ts...>> = true;
template <class T> inline constexpr bool is_tuple_v = is_tuple_impl_v<remove_cvref_t<T>>;
template <class T> struct is_tuple : bool_constant<is_tuple_v<T>> {};

template <class T> struct tuple_size;
template <class... Ts> struct tuple_size<tuple<Ts...>> : C<sizeof...(Ts)> {};
template <class T> struct tuple_size<T const> : tuple_size<T> {};
template <class T> inline constexpr unsigned long tuple_size_v = tuple_size<remove_cvref_t<T>>::value;

template <unsigned long I, class T> struct tuple_element;
template <unsigned long I, class... Ts> struct tuple_element<I, tuple<Ts...>> {
  using type = type_pack_element_t<I, Ts...>;
};
template <unsigned long I, class T> struct tuple_element<I, T const> {
  using type = typename tuple_element<I, T>::type const;
};
template <unsigned long I, class T> using tuple_element_t = typename tuple_element<I, T>::type;

// ---- access ----------------------------------------------------------------------------------

// A stored element comes back by reference; an empty (static) one as a fresh value.
template <unsigned long I, class... Ts>
CUTE_DSL_HOST_DEVICE constexpr decltype(auto) get(tuple<Ts...>& t) noexcept {
  static_assert(I < sizeof...(Ts), "get<I>(tuple): index out of range");
  return detail::get_leaf<I>(t);
}
template <unsigned long I, class... Ts>
CUTE_DSL_HOST_DEVICE constexpr decltype(auto) get(tuple<Ts...> const& t) noexcept {
  static_assert(I < sizeof...(Ts), "get<I>(tuple): index out of range");
  return detail::get_leaf<I>(t);
}
template <unsigned long I, class... Ts>
CUTE_DSL_HOST_DEVICE constexpr decltype(auto) get(tuple<Ts...>&& t) noexcept {
  static_assert(I < sizeof...(Ts), "get<I>(tuple): index out of range");
  return detail::get_leaf<I>(static_cast<tuple<Ts...>&&>(t));
}

// ---- construction ----------------------------------------------------------------------------

template <class... Ts>
CUTE_DSL_HOST_DEVICE constexpr tuple<remove_cvref_t<Ts>...> make_tuple(Ts const&... ts) {
  return tuple<remove_cvref_t<Ts>...>(ts...);
}

// ---- comparison ------------------------------------------------------------------------------
// Static operands compare to a static bool (C<true>/C<false>); tuples of different ranks are
// never equal.

namespace detail {
template <class A, class B, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr auto tuple_equal(A const& a, B const& b, index_sequence<Is...>) {
  return (true_type{} && ... && (get<Is>(a) == get<Is>(b)));
}
}  // namespace detail

template <class... As, class... Bs>
CUTE_DSL_HOST_DEVICE constexpr auto operator==(tuple<As...> const& a, tuple<Bs...> const& b) {
  if constexpr (sizeof...(As) != sizeof...(Bs)) return false_type{};
  else return detail::tuple_equal(a, b, index_sequence_for<As...>{});
}
template <class... As, class... Bs>
CUTE_DSL_HOST_DEVICE constexpr auto operator!=(tuple<As...> const& a, tuple<Bs...> const& b) {
  return !(a == b);
}

}  // namespace cute_dsl

// Structured bindings (`auto [m, n] = shape;`) look for std::tuple_size/std::tuple_element.
// Declaring the two primary templates ourselves avoids including <utility> (NVRTC has none and
// the host versions cost compile time). Define CUTE_DSL_NO_STRUCTURED_BINDINGS to opt out, e.g.
// with a standard library whose std names live in an inline namespace (libc++).
#if !defined(CUTE_DSL_NO_STRUCTURED_BINDINGS)
namespace std {
template <class T> struct tuple_size;
template <unsigned long I, class T> struct tuple_element;
template <class... Ts>
struct tuple_size<::cute_dsl::tuple<Ts...>> {
  static constexpr unsigned long value = sizeof...(Ts);
};
template <unsigned long I, class... Ts>
struct tuple_element<I, ::cute_dsl::tuple<Ts...>> {
  using type = ::cute_dsl::type_pack_element_t<I, Ts...>;
};
}  // namespace std
#endif
