// Integer math on static and run-time integers: two static operands give a static result.
//
// Scalars only; the int-tuple forms (shape_div of tuples, ...) live in layout/int_tuple.hpp.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"

namespace cute_dsl {

namespace detail {
template <class T> concept integral_scalar = is_integral_v<T>;
template <class A, class B> inline constexpr bool both_static_v = is_C_v<remove_cvref_t<A>> && is_C_v<remove_cvref_t<B>>;

// The plain-value kernels, usable in constant expressions to build C<...> results.
template <class T> CUTE_DSL_HOST_DEVICE constexpr T abs_value(T a) { return a < T(0) ? T(-a) : a; }
template <class T> CUTE_DSL_HOST_DEVICE constexpr int signum_value(T a) { return (T(0) < a) - (a < T(0)); }
template <class A, class B> CUTE_DSL_HOST_DEVICE constexpr auto gcd_value(A a, B b) {
  using R = decltype(a + b);
  R x = abs_value(R(a)), y = abs_value(R(b));
  while (y != R(0)) { R t = x % y; x = y; y = t; }
  return x;
}
template <class A, class B> CUTE_DSL_HOST_DEVICE constexpr auto lcm_value(A a, B b) {
  using R = decltype(a + b);
  R g = gcd_value(a, b);
  return g == R(0) ? R(0) : R(abs_value(R(a)) / g * abs_value(R(b)));
}
// Rounds towards +infinity for positive divisors, as CuTe's (a + b - 1) / b does.
template <class A, class B> CUTE_DSL_HOST_DEVICE constexpr auto ceil_div_value(A a, B b) { return (a + b - 1) / b; }
// a / b, rounding a non-zero quotient away from zero: the number of b-sized blocks in a shape
// a when b divides a, and 1 (with sign) when a divides b.
template <class A, class B> CUTE_DSL_HOST_DEVICE constexpr auto shape_div_value(A a, B b) {
  using R = decltype(a / b);
  return a / b != 0 ? R(a / b) : R(signum_value(a) * signum_value(b));
}
}  // namespace detail

template <detail::integral_scalar T>
CUTE_DSL_HOST_DEVICE constexpr auto abs(T const& a) {
  if constexpr (is_C_v<T>) return C<detail::abs_value(T::value)>{};
  else return detail::abs_value(a);
}

template <detail::integral_scalar T>
CUTE_DSL_HOST_DEVICE constexpr auto signum(T const& a) {
  if constexpr (is_C_v<T>) return C<detail::signum_value(T::value)>{};
  else return detail::signum_value(a);
}

template <detail::integral_scalar A, detail::integral_scalar B>
CUTE_DSL_HOST_DEVICE constexpr auto gcd(A const& a, B const& b) {
  if constexpr (detail::both_static_v<A, B>) return C<detail::gcd_value(A::value, B::value)>{};
  else if constexpr (is_constant_v<1, A> || is_constant_v<1, B>) return C<1>{};  // gcd(1, x) == 1 whatever x is
  else return detail::gcd_value(a + 0, b + 0);
}

template <detail::integral_scalar A, detail::integral_scalar B>
CUTE_DSL_HOST_DEVICE constexpr auto lcm(A const& a, B const& b) {
  if constexpr (detail::both_static_v<A, B>) return C<detail::lcm_value(A::value, B::value)>{};
  else return detail::lcm_value(a + 0, b + 0);
}

template <detail::integral_scalar A, detail::integral_scalar B>
CUTE_DSL_HOST_DEVICE constexpr auto min(A const& a, B const& b) {
  if constexpr (detail::both_static_v<A, B>) return C<(A::value < B::value ? A::value : B::value)>{};
  else { using R = decltype(a + b); return R(a) < R(b) ? R(a) : R(b); }
}

template <detail::integral_scalar A, detail::integral_scalar B>
CUTE_DSL_HOST_DEVICE constexpr auto max(A const& a, B const& b) {
  if constexpr (detail::both_static_v<A, B>) return C<(A::value < B::value ? B::value : A::value)>{};
  else { using R = decltype(a + b); return R(a) < R(b) ? R(b) : R(a); }
}

template <detail::integral_scalar A, detail::integral_scalar B>
CUTE_DSL_HOST_DEVICE constexpr auto ceil_div(A const& a, B const& b) {
  if constexpr (detail::both_static_v<A, B>) {
    static_assert(B::value != 0, "ceil_div: division by zero");
    return C<detail::ceil_div_value(A::value, B::value)>{};
  } else if constexpr (is_constant_v<1, B>) {
    return a;
  } else {
    return detail::ceil_div_value(a + 0, b + 0);
  }
}

// CuTe's shape_div: enforce "a divides b or b divides a" where it can be checked (statically),
// then divide rounding away from zero.
template <detail::integral_scalar A, detail::integral_scalar B>
CUTE_DSL_HOST_DEVICE constexpr auto shape_div(A const& a, B const& b) {
  if constexpr (detail::both_static_v<A, B>) {
    static_assert(B::value != 0, "shape_div: division by zero");
    static_assert(A::value % B::value == 0 || (A::value != 0 && B::value % A::value == 0),
                  "shape_div: Divisibility Condition (one operand must divide the other)");
    return C<detail::shape_div_value(A::value, B::value)>{};
  } else if constexpr (is_constant_v<1, B>) {
    return a;
  } else {
    return detail::shape_div_value(a + 0, b + 0);
  }
}

// Exact division: b must divide a (checked statically when both are static).
template <detail::integral_scalar A, detail::integral_scalar B>
CUTE_DSL_HOST_DEVICE constexpr auto safe_div(A const& a, B const& b) {
  if constexpr (detail::both_static_v<A, B>) {
    static_assert(B::value != 0 && A::value % B::value == 0, "safe_div: the divisor must divide the dividend");
    return C<A::value / B::value>{};
  } else if constexpr (is_constant_v<1, B>) {
    return a;
  } else {
    return a / b;
  }
}

// Bit helpers used by swizzles and by power-of-two shapes.
template <class T> CUTE_DSL_HOST_DEVICE constexpr bool has_single_bit(T x) { return x != 0 && (x & (x - 1)) == 0; }
// floor(log2(x)) for x > 0; -1 for 0.
template <class T> CUTE_DSL_HOST_DEVICE constexpr int log_2(T x) {
  int r = -1;
  while (x != 0) { x >>= 1; ++r; }
  return r;
}

}  // namespace cute_dsl
