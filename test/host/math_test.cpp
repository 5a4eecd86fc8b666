// numeric/math.hpp: each function against a plain reference over a whole range of operands,
// statically (C results) and at run time.
#include "cute_dsl/numeric/math.hpp"

#include <gtest/gtest.h>

namespace {
using namespace cute_dsl;

constexpr long ref_gcd(long a, long b) {
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b) { long t = a % b; a = b; b = t; }
  return a;
}

constexpr bool test_static() {
  static_assert(is_same_v<decltype(gcd(_12{}, _18{})), C<6>>);
  static_assert(is_same_v<decltype(gcd(_0{}, _7{})), C<7>>);
  static_assert(is_same_v<decltype(lcm(_4{}, _6{})), C<12>>);
  static_assert(is_same_v<decltype(abs(_m5{})), C<5>>);
  static_assert(is_same_v<decltype(signum(_m5{})), C<-1>> && is_same_v<decltype(signum(_0{})), C<0>>);
  static_assert(is_same_v<decltype(min(_3{}, _2{})), C<2>> && is_same_v<decltype(max(_3{}, _2{})), C<3>>);
  static_assert(is_same_v<decltype(ceil_div(_7{}, _2{})), C<4>> && is_same_v<decltype(ceil_div(_8{}, _2{})), C<4>>);
  // shape_div: exact quotient, or (one operand dividing the other) 1 with the sign of a*b
  static_assert(is_same_v<decltype(shape_div(_12{}, _4{})), C<3>>);
  static_assert(is_same_v<decltype(shape_div(_4{}, _12{})), C<1>>);
  static_assert(is_same_v<decltype(shape_div(_m4{}, _12{})), C<-1>>);
  static_assert(is_same_v<decltype(shape_div(_0{}, _4{})), C<0>>);
  static_assert(is_same_v<decltype(safe_div(_12{}, _4{})), C<3>>);
  // a static 1 decides the answer alone
  static_assert(is_same_v<decltype(gcd(_1{}, 17)), C<1>>);
  static_assert(is_same_v<decltype(ceil_div(17, _1{})), int>);
  return true;
}
static_assert(test_static());

constexpr bool test_runtime_range() {
  for (int a = -12; a <= 12; ++a) {
    if (cute_dsl::abs(a) != (a < 0 ? -a : a)) return false;  // qualified: ::abs(int) from <stdlib.h> is visible too
    if (signum(a) != (a > 0) - (a < 0)) return false;
    for (int b = -12; b <= 12; ++b) {
      if (gcd(a, b) != ref_gcd(a, b)) return false;
      long g = ref_gcd(a, b);
      if (lcm(a, b) != (g == 0 ? 0 : (a < 0 ? -a : a) / g * (b < 0 ? -b : b))) return false;
      if (min(a, b) != (a < b ? a : b) || max(a, b) != (a < b ? b : a)) return false;
      if (b > 0 && a >= 0 && ceil_div(a, b) != (a + b - 1) / b) return false;
      if (b != 0) {
        int q = shape_div(a, b);
        int expect = a / b != 0 ? a / b : ((a > 0) - (a < 0)) * ((b > 0) - (b < 0));
        if (q != expect) return false;
        if (a % b == 0 && safe_div(a, b) != a / b) return false;
      }
    }
  }
  return true;
}
static_assert(test_runtime_range());

// Static and run-time forms agree over a range (one instantiation per pair).
template <int A, int B>
constexpr bool agree() {
  bool ok = gcd(C<A>{}, C<B>{}) == gcd(A, B) && lcm(C<A>{}, C<B>{}) == lcm(A, B) &&
            min(C<A>{}, C<B>{}) == min(A, B) && max(C<A>{}, C<B>{}) == max(A, B) &&
            ceil_div(C<A>{}, C<B>{}) == ceil_div(A, B);
  if constexpr (A % B == 0 || B % A == 0) ok = ok && shape_div(C<A>{}, C<B>{}) == shape_div(A, B);
  // mixed operands give the same value
  ok = ok && gcd(C<A>{}, B) == gcd(A, B) && ceil_div(A, C<B>{}) == ceil_div(A, B);
  return ok;
}
template <int A, int... Bs>
constexpr bool agree_row(integer_sequence<int, Bs...>) { return (agree<A, Bs + 1>() && ...); }
template <int... As>
constexpr bool agree_all(integer_sequence<int, As...>) { return (agree_row<As + 1>(make_integer_sequence<int, 16>{}) && ...); }
static_assert(agree_all(make_integer_sequence<int, 16>{}));

TEST(Math, Static) { EXPECT_TRUE(test_static()); }
TEST(Math, RuntimeAgainstReference) { EXPECT_TRUE(test_runtime_range()); }
TEST(Math, Bits) {
  for (int x = 1; x < 4096; ++x) {
    int r = -1;
    for (int y = x; y; y >>= 1) ++r;
    EXPECT_EQ(log_2(x), r);
    EXPECT_EQ(has_single_bit(x), (x & (x - 1)) == 0);
  }
  EXPECT_EQ(log_2(0), -1);
}
}  // namespace
