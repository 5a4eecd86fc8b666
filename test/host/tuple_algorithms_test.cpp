// container/tuple_algorithms.hpp: each algorithm on static, dynamic and nested tuples; static
// inputs must give static outputs.
#include "cute_dsl/container/tuple_algorithms.hpp"

#include <gtest/gtest.h>

namespace {
using namespace cute_dsl;

struct Twice { template <class X> constexpr auto operator()(X const& x) const { return x + x; } };
struct Plus { template <class A, class B> constexpr auto operator()(A const& a, B const& b) const { return a + b; } };
struct Sum3 { template <class A, class B, class C_> constexpr auto operator()(A const& a, B const& b, C_ const& c) const { return a + b + c; } };
struct SumAll { template <class... V> constexpr auto operator()(V const&... v) const { return (_0{} + ... + v); } };
struct Push { template <class T, class X> constexpr auto operator()(T const& t, X const& x) const { return append(t, x); } };

constexpr bool test_transform(int n) {
  auto s = make_tuple(_1{}, _2{}, _3{});
  static_assert(is_same_v<decltype(transform(s, Twice{})), tuple<_2, _4, _6>>);
  static_assert(is_same_v<decltype(transform(s, s, Plus{})), tuple<_2, _4, _6>>);
  static_assert(is_same_v<decltype(transform(s, s, s, Sum3{})), tuple<_3, _6, _9>>);
  static_assert(is_same_v<decltype(transform(_5{}, Twice{})), _10>);  // non-tuple: f(x)
  auto d = transform(make_tuple(n, _2{}), Twice{});
  static_assert(is_same_v<decltype(d), tuple<int, _4>>);
  auto l = transform_leaf(make_tuple(n, make_tuple(_1{}, n)), Twice{});
  static_assert(is_same_v<decltype(l), tuple<int, tuple<_2, int>>>);
  auto ta = transform_apply(s, Twice{}, SumAll{});
  static_assert(is_same_v<decltype(ta), C<12>>);
  return get<0>(d) == 2 * n && get<1>(get<1>(l)) == 2 * n && transform_apply(make_tuple(n, n), Twice{}, SumAll{}) == 4 * n;
}
static_assert(test_transform(3));

constexpr bool test_fold_and_for_each(int n) {
  auto r = fold(make_tuple(_1{}, n, _3{}), tuple<>{}, Push{});  // the accumulator changes type
  static_assert(is_same_v<decltype(r), tuple<_1, int, _3>>);
  static_assert(is_same_v<decltype(fold(make_tuple(_1{}, _2{}), _0{}, Plus{})), _3>);
  int total = 0;
  struct Acc { int& t; constexpr void operator()(int v) const { t += v; } };
  for_each(make_tuple(1, 2, n), Acc{total});
  int leaves = 0;
  for_each_leaf(make_tuple(1, make_tuple(2, make_tuple(n))), Acc{leaves});
  return get<1>(r) == n && total == 3 + n && leaves == 3 + n && fold(make_tuple(n, n), 0, Plus{}) == 2 * n;
}
static_assert(test_fold_and_for_each(4));

constexpr bool test_structure(int n) {
  auto t = make_tuple(_1{}, n, _3{}, _4{});
  static_assert(is_same_v<decltype(take<1, 3>(t)), tuple<int, _3>>);
  static_assert(is_same_v<decltype(take<2, 2>(t)), tuple<>>);
  static_assert(is_same_v<decltype(select<3, 0>(t)), tuple<_4, _1>>);
  static_assert(is_same_v<decltype(group<1, 3>(t)), tuple<_1, tuple<int, _3>, _4>>);
  static_assert(is_same_v<decltype(append(t, _5{})), tuple<_1, int, _3, _4, _5>>);
  static_assert(is_same_v<decltype(append(_1{}, _5{})), tuple<_1, _5>>);
  static_assert(is_same_v<decltype(append<3>(_2{}, _1{})), tuple<_2, _1, _1>>);
  static_assert(is_same_v<decltype(prepend(t, _5{})), tuple<_5, _1, int, _3, _4>>);
  static_assert(is_same_v<decltype(prepend<3>(make_tuple(_2{}), _0{})), tuple<_0, _0, _2>>);
  static_assert(is_same_v<decltype(replace<1>(t, _9{})), tuple<_1, _9, _3, _4>>);
  static_assert(is_same_v<decltype(remove<0>(t)), tuple<int, _3, _4>>);
  static_assert(is_same_v<decltype(insert<4>(t, _9{})), tuple<_1, int, _3, _4, _9>>);
  static_assert(is_same_v<decltype(reverse(t)), tuple<_4, _3, int, _1>>);
  static_assert(is_same_v<decltype(wrap(_1{})), tuple<_1>> && is_same_v<decltype(wrap(t)), decltype(t)>);
  static_assert(is_same_v<decltype(unwrap(make_tuple(make_tuple(_7{})))), _7>);
  static_assert(is_same_v<decltype(unwrap(t)), decltype(t)>);
  static_assert(is_same_v<decltype(repeat<3>(_2{})), tuple<_2, _2, _2>>);
  static_assert(is_same_v<decltype(repeat_like(make_tuple(1, make_tuple(2, 3)), _0{})), tuple<_0, tuple<_0, _0>>>);
  static_assert(is_same_v<decltype(tuple_cat(make_tuple(_1{}), tuple<>{}, make_tuple(n, _2{}))), tuple<_1, int, _2>>);
  static_assert(is_same_v<decltype(zip(make_tuple(_1{}, _2{}), make_tuple(_3{}, n))), tuple<tuple<_1, _3>, tuple<_2, int>>>);
  auto f = flatten(make_tuple(make_tuple(_1{}, make_tuple(n)), _2{}, tuple<>{}));
  static_assert(is_same_v<decltype(f), tuple<_1, int, _2>>);
  static_assert(is_same_v<decltype(flatten(_3{})), _3> && is_same_v<decltype(flatten_to_tuple(_3{})), tuple<_3>>);
  static_assert(tuple_rank_v<decltype(t)> == 4 && tuple_rank_v<int> == 1);
  return get<0>(take<1, 3>(t)) == n && get<1>(f) == n && get<1>(get<1>(zip(make_tuple(_1{}, _2{}), make_tuple(_3{}, n)))) == n;
}
static_assert(test_structure(6));

struct IsEven { template <class X> constexpr bool operator()(X const& x) const { return x % 2 == 0; } };
constexpr bool test_queries() {
  auto t = make_tuple(1, 3, 4, 5);
  return any_of(t, IsEven{}) && !all_of(t, IsEven{}) && find_if(t, IsEven{}) == 2 &&
         find_if(make_tuple(1, 3), IsEven{}) == 2 && all_of(tuple<>{}, IsEven{}) && !any_of(tuple<>{}, IsEven{});
}
static_assert(test_queries());

TEST(TupleAlgorithms, Transform) { for (int n = -3; n < 4; ++n) EXPECT_TRUE(test_transform(n)); }
TEST(TupleAlgorithms, FoldForEach) { for (int n = -3; n < 4; ++n) EXPECT_TRUE(test_fold_and_for_each(n)); }
TEST(TupleAlgorithms, Structure) { for (int n = -3; n < 4; ++n) EXPECT_TRUE(test_structure(n)); }
TEST(TupleAlgorithms, Queries) { EXPECT_TRUE(test_queries()); }
}  // namespace
