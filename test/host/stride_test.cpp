// layout/stride.hpp: compact strides, crd2idx and idx2crd, round trips over whole domains with
// static, dynamic and mixed shapes.
#include "cute_dsl/layout/stride.hpp"

#include <gtest/gtest.h>

namespace {
using namespace cute_dsl;

constexpr bool test_compact_strides(int n) {
  static_assert(is_same_v<decltype(compact_col_major(make_shape(_2{}, make_shape(_3{}, _4{})))), tuple<_1, tuple<_2, _6>>>);
  static_assert(is_same_v<decltype(compact_row_major(make_shape(_2{}, make_shape(_3{}, _4{})))), tuple<C<12>, tuple<_4, _1>>>);
  static_assert(is_same_v<decltype(compact_col_major(_8{})), _1>);
  static_assert(is_same_v<decltype(compact_col_major(make_shape(_4{}), _2{})), tuple<_2>>);
  // static size-1 modes get stride _0 (never stepped), both orders
  static_assert(is_same_v<decltype(compact_col_major(make_shape(_1{}, _4{}, _1{}))), tuple<_0, _1, _0>>);
  static_assert(is_same_v<decltype(compact_row_major(make_shape(_4{}, _1{}, _2{}))), tuple<_2, _0, _1>>);
  static_assert(is_same_v<decltype(compact_col_major(_1{})), _0>);
  static_assert(is_same_v<decltype(compact_major<LayoutRight>(make_shape(_2{}, _3{}))), tuple<_3, _1>>);
  static_assert(is_same_v<decltype(compact_major<LayoutLeft>(make_shape(_2{}, _3{}))), tuple<_1, _2>>);
  auto d = compact_col_major(make_shape(_2{}, n, _3{}));
  static_assert(is_same_v<decltype(d), tuple<_1, _2, int>>);
  auto r = compact_row_major(make_shape(_2{}, n, _3{}));
  static_assert(is_same_v<decltype(r), tuple<int, _3, _1>>);
  return get<2>(d) == 2 * n && get<0>(r) == 3 * n;
}
static_assert(test_compact_strides(5));

constexpr bool test_crd2idx(int n) {
  auto s = make_shape(make_shape(_2{}, _2{}), _3{});
  auto d = make_stride(make_stride(_1{}, _4{}), _2{});
  static_assert(is_same_v<decltype(crd2idx(make_coord(make_coord(_1{}, _1{}), _2{}), s, d)), C<9>>);
  static_assert(is_same_v<decltype(crd2idx(_7{}, s, d)), _7>);  // 1-D index: (3 -> (1,1)), 1 -> 2
  static_assert(is_same_v<decltype(crd2idx(_0{}, s, d)), _0>);
  static_assert(is_same_v<decltype(crd2idx(make_coord(_1{}, _2{}), s, d)), C<5>>);  // mode 0 takes 1-D index 1
  // past the size the last mode continues: index 12 -> ((0,0),3) -> 6
  static_assert(is_same_v<decltype(crd2idx(C<12>{}, s, d)), _6>);
  // run-time coordinates and strides
  return crd2idx(n, s, d) == (n % 2) * 1 + (n / 2 % 2) * 4 + (n / 4) * 2 &&
         crd2idx(make_coord(n, 1), make_shape(8, 4), make_stride(1, 8)) == n + 8 &&
         crd2idx(make_coord(1, n), make_shape(8, 4)) == 1 + 8 * n &&
         crd2idx(n, _5{}, _3{}) == 3 * n;
}
static_assert(test_crd2idx(3) && test_crd2idx(11));

// For a shape S: idx2crd inverts the 1-D crd2idx on [0, size) and crd2idx(idx2crd(i)) == i under
// the compact column-major stride; the coordinate lies inside the shape (elem_less).
template <class S>
constexpr bool round_trip(S const& shape) {
  auto stride = compact_col_major(shape);
  int const total = int(size(shape));
  for (int i = 0; i < total; ++i) {
    auto c = idx2crd(i, shape);
    if (!elem_less(c, shape)) return false;
    if (crd2idx(c, shape, stride) != i) return false;
    if (crd2idx(i, shape, stride) != i) return false;
    if (idx2crd(i, shape, stride) != c) return false;
    if (crd2idx(c, shape) != i) return false;
  }
  return true;
}

constexpr bool test_round_trips(int n) {
  return round_trip(make_shape(_2{}, _3{})) && round_trip(make_shape(make_shape(_2{}, _2{}), _3{})) &&
         round_trip(make_shape(_4{}, make_shape(_1{}, _3{}), _2{})) && round_trip(make_shape(_1{}, _1{})) &&
         round_trip(make_shape(n, make_shape(_2{}, n))) && round_trip(make_shape(make_shape(n, 3), n)) &&
         round_trip(make_shape(n)) && round_trip(make_shape(make_shape(make_shape(2, _3{}), n), 2));
}
static_assert(test_round_trips(3));

constexpr bool test_idx2crd_forms(int n) {
  static_assert(is_same_v<decltype(idx2crd(_5{}, make_shape(_2{}, _3{}))), tuple<_1, _2>>);
  static_assert(is_same_v<decltype(idx2crd(_5{}, _4{})), _5>);  // an integer shape keeps the index
  static_assert(is_same_v<decltype(idx2crd(n, make_shape(_1{}, _4{}))), tuple<_0, int>>);
  auto c = idx2crd(make_coord(n, 7), make_shape(make_shape(2, 3), make_shape(4, 2)));  // mode by mode
  // a non-compact stride: the coordinate is (idx / stride) % shape for each leaf
  auto e = idx2crd(37, make_shape(4, 8), make_stride(8, 1));
  return c == make_tuple(make_tuple(n % 2, n / 2 % 3), make_tuple(3, 1)) && e == make_tuple(0, 5);
}
static_assert(test_idx2crd_forms(4));

TEST(Stride, CompactStrides) { for (int n = 1; n < 6; ++n) EXPECT_TRUE(test_compact_strides(n)); }
TEST(Stride, Crd2Idx) { for (int n = 0; n < 24; ++n) EXPECT_TRUE(test_crd2idx(n)) << n; }
TEST(Stride, RoundTripsOverWholeDomains) { for (int n = 1; n < 7; ++n) EXPECT_TRUE(test_round_trips(n)) << n; }
TEST(Stride, Idx2CrdForms) { for (int n = 0; n < 6; ++n) EXPECT_TRUE(test_idx2crd_forms(n)); }
}  // namespace
