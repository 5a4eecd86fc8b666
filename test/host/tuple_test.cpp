// container/tuple.hpp: storage (empty members take no space), access, construction, equality.
#include "cute_dsl/container/tuple.hpp"

#include <gtest/gtest.h>

namespace {
using namespace cute_dsl;

// Static members are not stored: a tuple of statics is empty, and a mixed one holds only its
// run-time members.
static_assert(is_empty_v<tuple<>> && is_empty_v<tuple<_1, _2>> && is_empty_v<tuple<_1, tuple<_2, _1>>>);
static_assert(is_empty_v<tuple<_1, _1, _1>>);  // repeated empty types too
static_assert(sizeof(tuple<int, _1, _2>) == sizeof(int));
static_assert(sizeof(tuple<_1, long, _2, int>) == sizeof(long) + sizeof(long));  // long, then int padded
static_assert(!is_empty_v<tuple<int>>);

static_assert(tuple_size_v<tuple<int, _1, long>> == 3 && tuple_size_v<tuple<> const&> == 0);
static_assert(is_same_v<tuple_element_t<1, tuple<int, _1, long>>, _1>);
static_assert(is_same_v<tuple_element_t<2, tuple<int, _1, long> const>, long const>);
static_assert(is_tuple_v<tuple<int>> && is_tuple_v<tuple<> const&> && !is_tuple_v<int> && !is_tuple_v<_1>);

constexpr bool test_access() {
  tuple<int, _3, tuple<long, _4>> t(5, {}, {7L, {}});
  static_assert(is_same_v<decltype(get<0>(t)), int&>);
  static_assert(is_same_v<decltype(get<1>(t)), _3>);  // a fresh static value
  static_assert(is_same_v<decltype(get<0>(static_cast<decltype(t) const&>(t))), int const&>);
  static_assert(is_same_v<decltype(get<0>(static_cast<decltype(t)&&>(t))), int&&>);
  get<0>(t) = 9;
  get<0>(get<2>(t)) += 1;
  return get<0>(t) == 9 && get<1>(t) == 3 && get<0>(get<2>(t)) == 8 && get<1>(get<2>(t)) == 4;
}
static_assert(test_access());

constexpr bool test_make_and_ctad() {
  int const x = 3;
  auto t = make_tuple(x, _2{}, 4L);
  static_assert(is_same_v<decltype(t), tuple<int, _2, long>>);
  tuple u{1, _2{}};
  static_assert(is_same_v<decltype(u), tuple<int, _2>>);
  auto copy = t;
  get<0>(copy) = 10;
  return get<0>(t) == 3 && get<0>(copy) == 10 && get<2>(t) == 4L;
}
static_assert(test_make_and_ctad());

constexpr bool test_equality(int a, int b) {
  auto s = make_tuple(_1{}, _2{});
  static_assert(is_same_v<decltype(s == make_tuple(_1{}, _2{})), true_type>);
  static_assert(is_same_v<decltype(s == make_tuple(_1{}, _3{})), false_type>);
  static_assert(is_same_v<decltype(s == make_tuple(_1{})), false_type>);  // ranks differ
  bool dyn = make_tuple(a, _2{}) == make_tuple(b, _2{});
  bool neq = make_tuple(a, make_tuple(b)) != make_tuple(a, make_tuple(a));
  return dyn == (a == b) && neq == (a != b);
}
static_assert(test_equality(1, 1) && test_equality(1, 2));

TEST(Tuple, Access) { EXPECT_TRUE(test_access()); }
TEST(Tuple, MakeAndDeduce) { EXPECT_TRUE(test_make_and_ctad()); }
TEST(Tuple, Equality) {
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) EXPECT_TRUE(test_equality(a, b));
}
TEST(Tuple, StructuredBindings) {
  auto t = make_tuple(3, _4{}, make_tuple(5L));
  auto [a, b, c] = t;
  static_assert(is_same_v<decltype(b), _4>);
  EXPECT_EQ(a, 3);
  EXPECT_EQ(get<0>(c), 5L);
  auto& [ra, rb, rc] = t;
  ra = 7;
  EXPECT_EQ(get<0>(t), 7);
  (void)rb; (void)rc;
}
}  // namespace
