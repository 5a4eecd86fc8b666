// layout/int_tuple.hpp: rank, depth, size, congruence and the shape division rules, with static,
// dynamic and mixed leaves. Static inputs must give static results.
#include "cute_dsl/layout/int_tuple.hpp"

#include <gtest/gtest.h>

namespace {
using namespace cute_dsl;

constexpr bool test_rank_depth_size(int n) {
  auto s = make_shape(make_shape(_2{}, _3{}), _4{});
  static_assert(is_same_v<decltype(rank(s)), _2> && is_same_v<decltype(rank(_4{})), _1> && is_same_v<decltype(rank(n)), _1>);
  static_assert(is_same_v<decltype(rank<0>(s)), _2> && is_same_v<decltype(rank<1>(s)), _1>);
  static_assert(is_same_v<decltype(depth(s)), _2> && is_same_v<decltype(depth(_4{})), _0>);
  static_assert(is_same_v<decltype(depth(make_shape(n))), _1> && is_same_v<decltype(depth<0>(s)), _1>);
  static_assert(is_same_v<decltype(depth(tuple<>{})), _1>);
  static_assert(rank_v<decltype(s)> == 2 && depth_v<decltype(s)> == 2);
  static_assert(is_same_v<decltype(size(s)), C<24>> && is_same_v<decltype(size<0>(s)), C<6>>);
  static_assert(is_same_v<decltype(size<0, 1>(s)), _3> && is_same_v<decltype(product(tuple<>{})), _1>);
  static_assert(is_same_v<decltype(product_each(s)), tuple<C<6>, _4>>);
  static_assert(is_same_v<decltype(product_each(_5{})), tuple<_5>>);
  static_assert(is_same_v<decltype(sum(s)), C<9>>);
  static_assert(is_same_v<decltype(inner_product(s, make_shape(make_shape(_1{}, _2{}), _3{}))), C<20>>);
  static_assert(is_same_v<decltype(get<0, 1>(s)), _3> && is_same_v<remove_cvref_t<decltype(get<0>(_7{}))>, _7>);
  auto m = make_shape(make_shape(_2{}, n), _4{});
  static_assert(is_same_v<decltype(size(m)), int> && is_same_v<decltype(rank(m)), _2>);
  static_assert(is_same_v<decltype(size(make_shape(_0{}, n))), _0>);  // _0 * n is known
  return size(m) == 8 * n && sum(m) == 6 + n && inner_product(m, m) == 4 + n * n + 16 &&
         product_each(m) == make_tuple(2 * n, _4{}) && get<0, 1>(m) == n;
}
static_assert(test_rank_depth_size(5));

constexpr bool test_reductions(int n) {
  auto t = make_tuple(make_tuple(_6{}, _4{}), _8{});
  static_assert(is_same_v<decltype(max(t)), _8> && is_same_v<decltype(min(t)), _4> && is_same_v<decltype(gcd(t)), _2>);
  auto d = make_tuple(_6{}, make_tuple(n, _4{}));
  return max(d) == (n > 6 ? n : 6) && min(d) == (n < 4 ? n : 4) && gcd(d) == gcd(2, n);
}
static_assert(test_reductions(3) && test_reductions(9));

constexpr bool test_elementwise(int n) {
  auto a = make_tuple(_2{}, make_tuple(_3{}, n));
  auto b = make_tuple(_5{}, make_tuple(_1{}, _2{}));
  static_assert(is_same_v<decltype(elem_add(make_tuple(_1{}, _2{}), make_tuple(_3{}, _4{}))), tuple<_4, _6>>);
  static_assert(is_same_v<decltype(elem_mul(a, b)), tuple<C<10>, tuple<_3, int>>>);
  static_assert(is_same_v<decltype(elem_min(make_tuple(_1{}, _5{}), make_tuple(_3{}, _4{}))), tuple<_1, _4>>);
  static_assert(is_same_v<decltype(elem_scale(make_tuple(_2{}, _3{}), make_tuple(_4{}, make_tuple(_2{}, _2{})))), tuple<_8, C<12>>>);
  return elem_add(a, b) == make_tuple(_7{}, make_tuple(_4{}, n + 2)) && elem_sub(a, b) == make_tuple(_m3{}, make_tuple(_2{}, n - 2)) &&
         elem_max(a, b) == make_tuple(_5{}, make_tuple(_3{}, n > 2 ? n : 2));
}
static_assert(test_elementwise(1) && test_elementwise(7));

constexpr bool test_division() {
  // tuple / integer: divided out from the left
  static_assert(is_same_v<decltype(shape_div(make_shape(_4{}, _5{}, _6{}), C<40>{})), tuple<_1, _1, _3>>);
  static_assert(is_same_v<decltype(shape_div(make_shape(_4{}, _8{}), _2{})), tuple<_2, _8>>);
  static_assert(is_same_v<decltype(shape_div(make_shape(_4{}, _8{}), _8{})), tuple<_1, _4>>);
  // tuple / tuple: elementwise; integer / tuple: by its size
  static_assert(is_same_v<decltype(shape_div(make_shape(_4{}, _8{}), make_shape(_2{}, _4{}))), tuple<_2, _2>>);
  static_assert(is_same_v<decltype(shape_div(C<24>{}, make_shape(_2{}, _3{}))), _4>);
  static_assert(is_same_v<decltype(ceil_div(make_shape(_4{}, _5{}, _6{}), C<40>{})), tuple<_1, _1, _3>>);
  static_assert(is_same_v<decltype(ceil_div(make_shape(_7{}, _9{}), make_shape(_2{}))), tuple<_4, _9>>);  // missing modes count as 1
  static_assert(is_same_v<decltype(ceil_div(_7{}, make_shape(_2{}, _2{}))), _2>);
  static_assert(is_same_v<decltype(round_up(make_shape(_7{}, _9{}), make_shape(_4{}, _2{}))), tuple<_8, C<10>>>);
  static_assert(is_same_v<decltype(shape_min(_1{}, 5)), _1>);
  // run time: same values
  auto r = shape_div(make_shape(4, 5, 6), 40);
  auto c = ceil_div(make_shape(7, 9), 4);
  return r == make_tuple(1, 1, 3) && c == make_tuple(2, 9) && shape_min(3, 5) == 3;
}
static_assert(test_division());

// Run-time shape_div over tuples against the fold written out by hand, for many divisors.
constexpr bool test_division_range() {
  for (int a = 1; a <= 8; ++a)
    for (int b = 1; b <= 8; ++b)
      for (int d = 1; d <= 128; d *= 2) {
        int rest = d;
        int x = a / rest ? a / rest : 1;  // a non-zero quotient, else 1 (rounding away from 0)
        int rest2 = rest / a ? rest / a : 1;
        int y = b / rest2 ? b / rest2 : 1;
        auto r = shape_div(make_shape(a, b), d);
        if (get<0>(r) != x || get<1>(r) != y) return false;
      }
  return true;
}
static_assert(test_division_range());

constexpr bool test_profiles(int n) {
  auto a = make_shape(_2{}, make_shape(_3{}, n));
  static_assert(is_same_v<decltype(congruent(a, make_shape(5, make_shape(6, 7)))), true_type>);
  static_assert(is_same_v<decltype(congruent(a, make_shape(5, 6))), false_type>);
  static_assert(is_same_v<decltype(congruent(_1{}, 4)), true_type>);
  static_assert(is_same_v<decltype(congruent(make_shape(1), 4)), false_type>);
  static_assert(is_same_v<decltype(weakly_congruent(make_shape(1, 2), a)), true_type>);
  static_assert(is_same_v<decltype(weakly_congruent(a, make_shape(1, 2))), false_type>);
  static_assert(is_same_v<decltype(weakly_congruent(_1{}, a)), true_type>);
  static_assert(is_same_v<decltype(weakly_congruent(make_shape(1, 2, 3), a)), false_type>);
  static_assert(is_same_v<decltype(compatible(C<24>{}, make_shape(_2{}, make_shape(_3{}, _4{})))), true_type>);
  static_assert(is_same_v<decltype(compatible(make_shape(_2{}, C<12>{}), make_shape(_2{}, make_shape(_3{}, _4{})))), true_type>);
  static_assert(is_same_v<decltype(compatible(make_shape(_2{}, _3{}), _6{})), false_type>);
  static_assert(is_same_v<decltype(compatible(make_shape(_2{}, _3{}), make_shape(_3{}, _2{}))), false_type>);
  static_assert(is_same_v<decltype(weakly_compatible(make_shape(_2{}, _3{}), make_shape(_4{}, _6{}))), true_type>);
  static_assert(is_same_v<decltype(weakly_compatible(make_shape(_2{}, _4{}), make_shape(_4{}, _6{}))), false_type>);
  return compatible(make_shape(2, 3 * n), make_shape(2, make_shape(3, n))) && !compatible(make_shape(2, 3 * n + 1), make_shape(2, make_shape(3, n)));
}
static_assert(test_profiles(4));

constexpr bool test_elem_less() {
  static_assert(is_same_v<decltype(elem_less(make_coord(_1{}, _2{}), make_shape(_2{}, _3{}))), true_type>);
  static_assert(is_same_v<decltype(elem_less(make_coord(_1{}, _3{}), make_shape(_2{}, _3{}))), false_type>);
  bool ok = true;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      ok = ok && elem_less(make_coord(i, make_coord(j, 0)), make_shape(3, make_shape(2, 1))) == (i < 3 && j < 2);
      ok = ok && elem_leq(make_coord(i, j), make_shape(2, 2)) == !(2 < i && 2 < j);  // CuTe: !elem_less(b, a)
    }
  return ok && elem_less(1, make_shape(2, make_shape(3, 4))) && !elem_less(2, make_shape(2, make_shape(3, 4)));
}
static_assert(test_elem_less());

constexpr bool test_slice_dice(int n) {
  auto t = make_shape(_4{}, make_shape(_2{}, n), _5{});
  static_assert(is_same_v<decltype(slice(make_coord(_, 1, 2), t)), tuple<_4>>);
  static_assert(is_same_v<decltype(slice(make_coord(_, make_coord(1, _), _), t)), tuple<_4, tuple<int>, _5>>);
  static_assert(is_same_v<decltype(slice(make_coord(1, make_coord(1, 2), 3), t)), tuple<>>);
  static_assert(is_same_v<decltype(slice(_, t)), decltype(t)>);
  static_assert(is_same_v<decltype(dice(make_coord(_, 1, 2), t)), tuple<tuple<_2, int>, _5>>);
  static_assert(is_same_v<decltype(dice(make_coord(_, make_coord(1, _), _), t)), tuple<tuple<_2>>>);
  static_assert(is_same_v<decltype(underscore_to_zero(make_coord(_, make_coord(1, _)))), tuple<_0, tuple<int, _0>>>);
  static_assert(has_underscore_v<decltype(make_coord(1, make_coord(_)))> && !has_underscore_v<decltype(make_coord(1, 2))>);
  return get<0>(get<1>(slice(make_coord(_, make_coord(1, _), _), t))) == n;
}
static_assert(test_slice_dice(3));

TEST(IntTuple, RankDepthSize) { for (int n = 1; n < 6; ++n) EXPECT_TRUE(test_rank_depth_size(n)); }
TEST(IntTuple, Reductions) { for (int n = 1; n < 12; ++n) EXPECT_TRUE(test_reductions(n)); }
TEST(IntTuple, Elementwise) { for (int n = -4; n < 6; ++n) EXPECT_TRUE(test_elementwise(n)); }
TEST(IntTuple, Division) { EXPECT_TRUE(test_division()); EXPECT_TRUE(test_division_range()); }
TEST(IntTuple, Profiles) { for (int n = 1; n < 6; ++n) EXPECT_TRUE(test_profiles(n)); }
TEST(IntTuple, ElemLess) { EXPECT_TRUE(test_elem_less()); }
TEST(IntTuple, SliceDice) { EXPECT_TRUE(test_slice_dice(7)); }
}  // namespace
