// numeric/integral_constant.hpp: C<v> arithmetic stays static; mixing with run-time ints
// gives run-time ints, except where the static side alone decides the answer.
#include "cute_dsl/numeric/integral_constant.hpp"

#include <gtest/gtest.h>

namespace {
using namespace cute_dsl;


constexpr bool test_static_arithmetic() {
  static_assert(is_same_v<Int<4>, C<4>> && is_same_v<_4, C<4>> && is_same_v<_m3, C<-3>>);
  static_assert(_1024::value == 1024 && _524288::value == 524288 && _32::value == 32);
  static_assert(is_same_v<decltype(_2{} + _3{}), C<5>>);
  static_assert(is_same_v<decltype(_2{} - _3{}), C<-1>>);
  static_assert(is_same_v<decltype(_4{} * _3{}), C<12>>);
  static_assert(is_same_v<decltype(_7{} / _2{}), C<3>>);
  static_assert(is_same_v<decltype(_7{} % _4{}), C<3>>);
  static_assert(is_same_v<decltype(_6{} & _3{}), C<2>>);
  static_assert(is_same_v<decltype(_6{} | _3{}), C<7>>);
  static_assert(is_same_v<decltype(_6{} ^ _3{}), C<5>>);
  static_assert(is_same_v<decltype(_1{} << _4{}), C<16>>);
  static_assert(is_same_v<decltype(_16{} >> _2{}), C<4>>);
  static_assert(is_same_v<decltype(-_4{}), C<-4>>);
  static_assert(is_same_v<decltype(~_0{}), C<-1>>);
  static_assert(is_same_v<decltype(!_0{}), C<true>>);
  static_assert(is_same_v<decltype(_2{} == _2{}), C<true>>);
  static_assert(is_same_v<decltype(_2{} != _2{}), C<false>>);
  static_assert(is_same_v<decltype(_2{} < _3{}), C<true>>);
  static_assert(is_same_v<decltype(_2{} >= _3{}), C<false>>);
  static_assert(is_same_v<decltype(true_type{} && false_type{}), C<false>>);
  // value types follow the C++ rules of the operands
  static_assert(is_same_v<decltype(C<2L>{} * _3{}), C<6L>>);
  return true;
}

constexpr bool test_mixed(int n) {
  // run-time operand: run-time result, same value
  auto a = _2{} + n;
  static_assert(is_same_v<decltype(a), int>);
  auto b = n * _4{};
  static_assert(is_same_v<decltype(b), int>);
  auto c = _3{} * static_cast<long>(n);
  static_assert(is_same_v<decltype(c), long>);
  // static answers regardless of n
  static_assert(is_same_v<decltype(_0{} * n), _0> && is_same_v<decltype(n * _0{}), _0>);
  static_assert(is_same_v<decltype(_0{} / n), _0> && is_same_v<decltype(_0{} % n), _0>);
  static_assert(is_same_v<decltype(n % _1{}), _0> && is_same_v<decltype(n & _0{}), _0>);
  static_assert(is_same_v<decltype(false_type{} && n), false_type> && is_same_v<decltype(n || true_type{}), true_type>);
  // conversion
  int v = _5{};
  return a == 2 + n && b == 4 * n && c == 3L * n && v == 5 && _7{}() == 7 && (_3{} < n) == (3 < n);
}

constexpr bool test_traits() {
  static_assert(is_integral_v<int> && is_integral_v<_3> && is_integral_v<C<4u> const&> && !is_integral_v<C<nullptr>>);
  static_assert(is_static_v<_3> && !is_static_v<int> && is_static_v<_3 const&>);
  static_assert(is_constant_v<3, _3> && !is_constant_v<3, _4> && !is_constant_v<3, int> && is_constant_v<1, C<1L>>);
  static_assert(is_C_v<_1> && !is_C_v<int>);
  static_assert(static_value_v<_8 const&> == 8);
  static_assert(is_std_integral<int>::value && !is_std_integral<_1>::value);
  static_assert(sizeof(_1) == 1 && is_empty_v<_1>);
  return true;
}

static_assert(test_static_arithmetic());
static_assert(test_mixed(5) && test_mixed(-3) && test_mixed(0));
static_assert(test_traits());

TEST(IntegralConstant, StaticArithmetic) { EXPECT_TRUE(test_static_arithmetic()); }
TEST(IntegralConstant, MixedWithRuntime) {
  for (int n = -20; n <= 20; ++n) EXPECT_TRUE(test_mixed(n)) << n;
}
TEST(IntegralConstant, Traits) { EXPECT_TRUE(test_traits()); }
TEST(IntegralConstant, ConditionalReturn) {
  auto x = conditional_return<true>(_1{}, 2);
  auto y = conditional_return<false>(_1{}, 2);
  static_assert(is_same_v<decltype(x), _1> && is_same_v<decltype(y), int>);
  EXPECT_EQ(y, 2);
}
}  // namespace
