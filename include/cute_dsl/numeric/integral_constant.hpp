// Compile-time integers: the one integral-constant family of the library.
//
// `C<v>` carries its value in the type, so a layout whose shape and stride are all C's is an
// empty object and every computation on it happens in the compiler. Arithmetic between two
// C's yields a C; mixing a C with a run-time integer yields a run-time integer (through the
// implicit conversion), except where the answer is known anyway (`_0 * x` is `_0`).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"

namespace cute_dsl {

template <auto v>
struct C {
  using type = C<v>;
  using value_type = decltype(v);
  static constexpr value_type value = v;
  CUTE_DSL_HOST_DEVICE constexpr operator value_type() const noexcept { return value; }
  CUTE_DSL_HOST_DEVICE constexpr value_type operator()() const noexcept { return value; }
};

template <int N> using Int = C<N>;
template <bool B> using bool_constant = C<B>;
using true_type = bool_constant<true>;
using false_type = bool_constant<false>;
template <class T, T v> using integral_constant = C<v>;

// ---- traits ----------------------------------------------------------------------------------

template <class T> inline constexpr bool is_C_v = false;
template <auto v> inline constexpr bool is_C_v<C<v>> = true;

// An integer: a built-in integer type or a C of one.
template <class T> inline constexpr bool is_integral_impl_v = is_std_integral_v<T>;
template <auto v> inline constexpr bool is_integral_impl_v<C<v>> = is_std_integral_v<decltype(v)>;
template <class T> inline constexpr bool is_integral_v = is_integral_impl_v<remove_cvref_t<T>>;
template <class T> struct is_integral : bool_constant<is_integral_v<T>> {};
template <class T> struct is_std_integral : bool_constant<is_std_integral_v<T>> {};

// Static: everything is known from the type. An empty type carries no run-time state, which
// covers C's, tuples of C's, layouts of C's and the underscore alike.
template <class T> inline constexpr bool is_static_v = is_empty_v<remove_cvref_t<T>>;
template <class T> struct is_static : bool_constant<is_static_v<T>> {};

// T is the static integer n.
template <auto n, class T> inline constexpr bool is_constant_impl_v = false;
template <auto n, auto v> inline constexpr bool is_constant_impl_v<n, C<v>> = (v == n);
template <auto n, class T> inline constexpr bool is_constant_v = is_constant_impl_v<n, remove_cvref_t<T>>;
template <auto n, class T> struct is_constant : bool_constant<is_constant_v<n, T>> {};

// ---- the usual names -------------------------------------------------------------------------

using _m32 = Int<-32>; using _m24 = Int<-24>; using _m16 = Int<-16>; using _m12 = Int<-12>;
using _m10 = Int<-10>; using _m9 = Int<-9>;  using _m8 = Int<-8>;   using _m7 = Int<-7>;
using _m6 = Int<-6>;   using _m5 = Int<-5>;  using _m4 = Int<-4>;   using _m3 = Int<-3>;
using _m2 = Int<-2>;   using _m1 = Int<-1>;
using _0 = Int<0>;   using _1 = Int<1>;   using _2 = Int<2>;   using _3 = Int<3>;
using _4 = Int<4>;   using _5 = Int<5>;   using _6 = Int<6>;   using _7 = Int<7>;
using _8 = Int<8>;   using _9 = Int<9>;   using _10 = Int<10>; using _11 = Int<11>;
using _12 = Int<12>; using _13 = Int<13>; using _14 = Int<14>; using _15 = Int<15>;
using _16 = Int<16>; using _17 = Int<17>; using _18 = Int<18>; using _19 = Int<19>;
using _20 = Int<20>; using _21 = Int<21>; using _22 = Int<22>; using _23 = Int<23>;
using _24 = Int<24>; using _25 = Int<25>; using _26 = Int<26>; using _27 = Int<27>;
using _28 = Int<28>; using _29 = Int<29>; using _30 = Int<30>; using _31 = Int<31>;
using _32 = Int<32>; using _48 = Int<48>; using _64 = Int<64>; using _80 = Int<80>;
using _96 = Int<96>; using _112 = Int<112>; using _128 = Int<128>; using _144 = Int<144>;
using _160 = Int<160>; using _192 = Int<192>; using _224 = Int<224>; using _256 = Int<256>;
using _384 = Int<384>; using _512 = Int<512>; using _768 = Int<768>; using _1024 = Int<1024>;
using _2048 = Int<2048>; using _4096 = Int<4096>; using _8192 = Int<8192>;
using _16384 = Int<16384>; using _32768 = Int<32768>; using _65536 = Int<65536>;
using _131072 = Int<131072>; using _262144 = Int<262144>; using _524288 = Int<524288>;

// ---- operators between C's: the answer is a C -------------------------------------------------

#define CUTE_DSL_C_UNARY_OP(OP)                                                          \
  template <auto t>                                                                      \
  CUTE_DSL_HOST_DEVICE constexpr C<(OP t)> operator OP(C<t>) noexcept { return {}; }
CUTE_DSL_C_UNARY_OP(-)
CUTE_DSL_C_UNARY_OP(+)
CUTE_DSL_C_UNARY_OP(!)
CUTE_DSL_C_UNARY_OP(~)
#undef CUTE_DSL_C_UNARY_OP

#define CUTE_DSL_C_BINARY_OP(OP)                                                         \
  template <auto t, auto u>                                                              \
  CUTE_DSL_HOST_DEVICE constexpr C<(t OP u)> operator OP(C<t>, C<u>) noexcept { return {}; }
CUTE_DSL_C_BINARY_OP(+)
CUTE_DSL_C_BINARY_OP(-)
CUTE_DSL_C_BINARY_OP(*)
CUTE_DSL_C_BINARY_OP(/)
CUTE_DSL_C_BINARY_OP(%)
CUTE_DSL_C_BINARY_OP(&)
CUTE_DSL_C_BINARY_OP(|)
CUTE_DSL_C_BINARY_OP(^)
CUTE_DSL_C_BINARY_OP(<<)
CUTE_DSL_C_BINARY_OP(>>)
CUTE_DSL_C_BINARY_OP(&&)
CUTE_DSL_C_BINARY_OP(||)
CUTE_DSL_C_BINARY_OP(==)
CUTE_DSL_C_BINARY_OP(!=)
CUTE_DSL_C_BINARY_OP(<)
CUTE_DSL_C_BINARY_OP(>)
CUTE_DSL_C_BINARY_OP(<=)
CUTE_DSL_C_BINARY_OP(>=)
#undef CUTE_DSL_C_BINARY_OP

// ---- mixed static/run-time: results known from the static side alone stay static -------------
// (Without these, `_0 * n` would be a run-time 0 and a stride-0 mode would lose its static-ness.)

namespace detail {
template <class T> concept std_integral = is_std_integral_v<T>;
}

template <detail::std_integral T> CUTE_DSL_HOST_DEVICE constexpr C<0> operator*(C<0>, T) noexcept { return {}; }
template <detail::std_integral T> CUTE_DSL_HOST_DEVICE constexpr C<0> operator*(T, C<0>) noexcept { return {}; }
template <detail::std_integral T> CUTE_DSL_HOST_DEVICE constexpr C<0> operator/(C<0>, T) noexcept { return {}; }
template <detail::std_integral T> CUTE_DSL_HOST_DEVICE constexpr C<0> operator%(C<0>, T) noexcept { return {}; }
template <detail::std_integral T> CUTE_DSL_HOST_DEVICE constexpr C<0> operator%(T, C<1>) noexcept { return {}; }
template <detail::std_integral T> CUTE_DSL_HOST_DEVICE constexpr C<0> operator%(T, C<-1>) noexcept { return {}; }
template <detail::std_integral T> CUTE_DSL_HOST_DEVICE constexpr C<0> operator&(C<0>, T) noexcept { return {}; }
template <detail::std_integral T> CUTE_DSL_HOST_DEVICE constexpr C<0> operator&(T, C<0>) noexcept { return {}; }
template <detail::std_integral T> CUTE_DSL_HOST_DEVICE constexpr C<false> operator&&(C<false>, T) noexcept { return {}; }
template <detail::std_integral T> CUTE_DSL_HOST_DEVICE constexpr C<false> operator&&(T, C<false>) noexcept { return {}; }
template <detail::std_integral T> CUTE_DSL_HOST_DEVICE constexpr C<true> operator||(C<true>, T) noexcept { return {}; }
template <detail::std_integral T> CUTE_DSL_HOST_DEVICE constexpr C<true> operator||(T, C<true>) noexcept { return {}; }

// ---- helpers ---------------------------------------------------------------------------------

// The value of a static integer as a constant expression, from its type alone.
template <class T> inline constexpr auto static_value_v = remove_cvref_t<T>::value;

// Make an integer C<v> when `v` is known at compile time through a type; used by generic code.
template <auto v> inline constexpr C<v> c_v{};

// Choose between two values by a compile-time condition without a common type.
template <bool B, class T, class F>
CUTE_DSL_HOST_DEVICE constexpr decltype(auto) conditional_return(T&& t, F&& f) {
  if constexpr (B) return static_cast<T&&>(t);
  else return static_cast<F&&>(f);
}

}  // namespace cute_dsl
