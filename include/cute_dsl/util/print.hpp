// Printing in CuTe's notation, host only: static integers as `_N`, run-time integers plain,
// tuples as `(a,b)`, layouts as `shape:stride`, e.g. `((_2,_2),3):((_1,4),_2)`;
// swizzles as `Sw<B,M,S>` and composed layouts as `A o offset o B`.
#pragma once

#include "cute_dsl/config.hpp"

#if CUTE_DSL_HOST_ONLY_CODE
#include <ostream>
#include <sstream>
#include <string>

#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/container/tuple.hpp"
#include "cute_dsl/layout/underscore.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/swizzle.hpp"
#include "cute_dsl/layout/composed_layout.hpp"

namespace cute_dsl {

template <auto v>
std::ostream& operator<<(std::ostream& os, C<v>) {
  if constexpr (is_same_v<decltype(v), bool>) return os << (v ? "_true" : "_false");
  else if constexpr (is_same_v<decltype(v), char> || is_same_v<decltype(v), signed char> || is_same_v<decltype(v), unsigned char>)
    return os << '_' << int(v);
  else return os << '_' << v;
}

inline std::ostream& operator<<(std::ostream& os, Underscore) { return os << '_'; }

namespace detail {
template <class T>
void print_element(std::ostream& os, T const& x) {
  if constexpr (is_std_integral_v<T> && sizeof(T) == 1) os << int(x);  // char-sized integers as numbers
  else os << x;
}
template <class... Ts, unsigned long... Is>
void print_tuple(std::ostream& os, tuple<Ts...> const& t, index_sequence<Is...>) {
  os << '(';
  ((os << (Is == 0 ? "" : ","), print_element(os, get<Is>(t))), ...);
  os << ')';
}
}  // namespace detail

template <class... Ts>
std::ostream& operator<<(std::ostream& os, tuple<Ts...> const& t) {
  detail::print_tuple(os, t, index_sequence_for<Ts...>{});
  return os;
}

template <class S, class D>
std::ostream& operator<<(std::ostream& os, Layout<S, D> const& l) {
  detail::print_element(os, l.shape());
  os << ':';
  detail::print_element(os, l.stride());
  return os;
}

template <int B, int M, int S>
std::ostream& operator<<(std::ostream& os, Swizzle<B, M, S> const&) {
  return os << "Sw<" << B << ',' << M << ',' << S << '>';
}

template <class A, class O, class B>
std::ostream& operator<<(std::ostream& os, ComposedLayout<A, O, B> const& l) {
  detail::print_element(os, l.layout_a());
  os << " o ";
  detail::print_element(os, l.offset());
  os << " o ";
  detail::print_element(os, l.layout_b());
  return os;
}

// The printed form as a string: to_string(make_layout(make_shape(_4{}, 8))) == "(_4,8):(_1,_4)".
template <class T>
std::string to_string(T const& x) {
  std::ostringstream os;
  detail::print_element(os, x);
  return os.str();
}

}  // namespace cute_dsl
#endif  // CUTE_DSL_HOST_ONLY_CODE
