// layout/layout.hpp: construction, evaluation (coordinates and 1-D indices, over whole domains),
// slicing, sub-layouts and observers, with static, dynamic and mixed layouts.
#include "cute_dsl/layout/layout.hpp"

#include <gtest/gtest.h>

namespace {
using namespace cute_dsl;

// Static layouts from CuTe's spelling.
using L2x2x3 = Layout<Shape<Shape<_2, _2>, _3>, Stride<Stride<_1, _4>, _2>>;

constexpr bool test_construction(int n) {
  static_assert(is_static_v<L2x2x3> && is_empty_v<L2x2x3> && is_layout_v<L2x2x3> && !is_layout_v<int>);
  static_assert(is_same_v<Layout<Shape<_4, _8>>, Layout<Shape<_4, _8>, Stride<_1, _4>>>);  // column-major default
  auto a = make_layout(make_shape(_4{}, _8{}));
  static_assert(is_same_v<decltype(a), Layout<Shape<_4, _8>, Stride<_1, _4>>>);
  auto r = make_layout(make_shape(_4{}, _8{}), LayoutRight{});
  static_assert(is_same_v<decltype(r), Layout<Shape<_4, _8>, Stride<_8, _1>>>);
  static_assert(is_same_v<decltype(make_layout(make_shape(_4{}, _8{}), LayoutLeft{})), decltype(a)>);
  static_assert(is_same_v<decltype(make_layout(_1{})), Layout<_1, _0>>);
  auto m = make_layout(make_shape(n, _4{}));  // mixed: the stride of mode 1 is run-time
  static_assert(is_same_v<decltype(m), Layout<Shape<int, _4>, Stride<_1, int>>>);
  static_assert(sizeof(m) == 2 * sizeof(int) && !is_static_v<decltype(m)>);
  auto cat = make_layout(a, make_layout(n, _2{}));
  static_assert(is_same_v<decltype(cat), Layout<Shape<Shape<_4, _8>, int>, Stride<Stride<_1, _4>, _2>>>);
  static_assert(is_same_v<decltype(make_layout(a)), decltype(a)>);
  static_assert(L2x2x3::rank == 2);
  return m.stride<1>() == n && get<1>(cat.shape()) == n && shape<1>(cat) == n && stride<1>(cat) == _2{};
}
static_assert(test_construction(3));

constexpr bool test_observers(int n) {
  L2x2x3 s{};
  static_assert(is_same_v<decltype(size(s)), C<12>> && is_same_v<decltype(cosize(s)), C<10>>);
  static_assert(is_same_v<decltype(rank(s)), _2> && is_same_v<decltype(depth(s)), _2>);
  static_assert(is_same_v<decltype(size<0>(s)), _4> && is_same_v<decltype(rank<0>(s)), _2> && is_same_v<decltype(depth<1>(s)), _0>);
  static_assert(is_same_v<decltype(shape<0, 1>(s)), _2> && is_same_v<decltype(stride<0, 1>(s)), _4>);
  static_assert(is_same_v<decltype(cosize<0>(s)), _6>);
  // conformance rows: cosize((8,5,3):(12,5,4)) = 113, cosize(((3,1)):((1,1))) = 3,
  // rank(4:1) = 1, depth(4:1) = 0, depth((4):(1)) = 1
  static_assert(decltype(cosize(Layout<Shape<_8, _5, _3>, Stride<C<12>, _5, _4>>{}))::value == 113);
  static_assert(decltype(cosize(Layout<Shape<Shape<_3, _1>>, Stride<Stride<_1, _1>>>{}))::value == 3);
  static_assert(rank(Layout<_4, _1>{}) == 1 && depth(Layout<_4, _1>{}) == 0 && depth(Layout<Shape<_4>, Stride<_1>>{}) == 1);
  // cosize counts |stride|: 1 + (4-1)*|-2|
  static_assert(decltype(cosize(Layout<_4, _m2>{}))::value == 7);
  auto d = make_layout(make_shape(n, make_shape(_2{}, n)), make_stride(_3{}, make_stride(n, _1{})));
  return size(d) == 2 * n * n && cosize(d) == 1 + (n - 1) * 3 + n + (n - 1) && rank(d) == 2 && depth(d) == 2 &&
         size<1>(d) == 2 * n;
}
static_assert(test_observers(4));

// L(i) == L(idx2crd(i, shape)) == inner product, for every i in [0, size); and past the size
// the last mode continues.
template <class L>
constexpr bool evaluates_over_domain(L const& l) {
  int const total = int(size(l));
  for (int i = 0; i < total; ++i) {
    auto c = idx2crd(i, l.shape());
    if (l(i) != l(c)) return false;
    if (l(c) != crd2idx(c, l.shape(), l.stride())) return false;
  }
  return true;
}

constexpr bool test_evaluation(int n) {
  L2x2x3 s{};
  static_assert(is_same_v<decltype(s(_7{})), _7> && is_same_v<decltype(s(_1{}, _2{})), _5>);
  static_assert(is_same_v<decltype(s(make_coord(make_coord(_1{}, _1{}), _2{}))), C<9>>);
  static_assert(is_same_v<decltype(s(C<12>{})), _6>);  // past the size: through the last mode
  auto d = make_layout(make_shape(n, make_shape(_2{}, 3)), make_stride(_2{}, make_stride(2 * n, 4 * n + 1)));
  return evaluates_over_domain(s) && evaluates_over_domain(d) &&
         evaluates_over_domain(make_layout(make_shape(make_shape(_2{}, n), _1{}, _3{}), LayoutRight{})) &&
         s(1, 2) == 5 && d(1, make_coord(1, 2)) == 2 + 2 * n + 2 * (4 * n + 1) && s(3) == 5 &&
         s(n) == s(idx2crd(n % 12, s.shape())) + 6 * (n / 12);  // the last mode (3:2) continues past size 12
}
static_assert(test_evaluation(3));

constexpr bool test_slicing(int n) {
  auto a = make_layout(make_shape(_4{}, _8{}));
  auto col = a(_, 2);
  static_assert(is_same_v<decltype(col), Layout<Shape<_4>, Stride<_1>>>);
  auto row = a(1, _);
  static_assert(is_same_v<decltype(row), Layout<Shape<_8>, Stride<_4>>>);
  static_assert(is_same_v<decltype(a(_, _)), decltype(a)>);
  auto h = make_layout(make_shape(_2{}, make_shape(_3{}, n)), make_stride(_1{}, make_stride(_2{}, _6{})));
  auto hs = h(_, make_coord(1, _));
  static_assert(is_same_v<decltype(hs), Layout<Shape<_2, Shape<int>>, Stride<_1, Stride<_6>>>>);
  auto so = slice_and_offset(make_coord(_, make_coord(1, _)), h);
  auto dc = dice(make_coord(_, make_coord(1, _)), h);
  static_assert(is_same_v<decltype(dc), Layout<Shape<Shape<_3>>, Stride<Stride<_2>>>>);
  // slice + offset: h(c with _ -> x) == offset + slice(x)
  bool ok = get<1>(so) == 2;
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < n; ++k) ok = ok && h(make_coord(i, make_coord(1, k))) == get<1>(so) + get<0>(so)(make_coord(i, make_coord(k)));
  auto sl = slice(make_coord(2, _), a);
  static_assert(is_same_v<decltype(sl), decltype(row)>);
  return ok && col(3) == 3 && row(2) == 8 && hs.shape<1, 0>() == n;
}
static_assert(test_slicing(3));

constexpr bool test_sub_layouts(int n) {
  auto l = make_layout(make_shape(_2{}, n, _4{}, _3{}), make_stride(_1{}, _2{}, C<20>{}, n));
  static_assert(is_same_v<decltype(layout<0>(l)), Layout<_2, _1>>);
  static_assert(is_same_v<decltype(get<2>(l)), Layout<_4, C<20>>>);
  static_assert(is_same_v<decltype(take<1, 3>(l)), Layout<Shape<int, _4>, Stride<_2, C<20>>>>);
  static_assert(is_same_v<decltype(select<3, 0>(l)), Layout<Shape<_3, _2>, Stride<int, _1>>>);
  static_assert(is_same_v<decltype(group<1, 3>(l)), Layout<Shape<_2, Shape<int, _4>, _3>, Stride<_1, Stride<_2, C<20>>, int>>>);
  auto nested = make_layout(make_shape(make_shape(_2{}, _5{}), C<16>{}), make_stride(make_stride(_1{}, _4{}), C<20>{}));
  static_assert(is_same_v<decltype(flatten(nested)), Layout<Shape<_2, _5, C<16>>, Stride<_1, _4, C<20>>>>);  // conformance row
  static_assert(is_same_v<decltype(flatten(Layout<Shape<_2>, Stride<_1>>{})), Layout<Shape<_2>, Stride<_1>>>);
  static_assert(is_same_v<decltype(flatten(Layout<_4, _1>{})), Layout<_4, _1>>);  // integral stays integral
  static_assert(is_same_v<decltype(layout<0, 1>(nested)), Layout<_5, _4>>);
  static_assert(is_same_v<decltype(get<0, 1>(nested)), Layout<_5, _4>>);
  auto ap = append(Layout<_4, _1>{}, Layout<_2, _4>{});
  static_assert(is_same_v<decltype(ap), Layout<Shape<_4, _2>, Stride<_1, _4>>>);
  static_assert(is_same_v<decltype(prepend(ap, Layout<_3, _0>{})), Layout<Shape<_3, _4, _2>, Stride<_0, _1, _4>>>);
  static_assert(is_same_v<decltype(append<3>(Layout<_4, _1>{})), Layout<Shape<_4, _1, _1>, Stride<_1, _0, _0>>>);
  static_assert(is_same_v<decltype(prepend<2>(Layout<_4, _1>{})), Layout<Shape<_1, _4>, Stride<_0, _1>>>);
  return get<1>(l).shape() == n && select<3, 0>(l).stride<0>() == n;
}
static_assert(test_sub_layouts(5));

constexpr bool test_equality(int n) {
  static_assert(is_same_v<decltype(L2x2x3{} == L2x2x3{}), true_type>);
  static_assert(is_same_v<decltype(Layout<_4, _1>{} == Layout<_4, _2>{}), false_type>);
  static_assert(is_same_v<decltype(Layout<_4, _1>{} == Layout<Shape<_4>, Stride<_1>>{}), false_type>);  // nesting differs
  return (make_layout(n, _1{}) == make_layout(n, _1{})) && !(make_layout(n, _1{}) == make_layout(n + 1, _1{})) &&
         (make_layout(n, _1{}) != make_layout(n, _2{}));
}
static_assert(test_equality(3));

TEST(Layout, Construction) { for (int n = 1; n < 5; ++n) EXPECT_TRUE(test_construction(n)); }
TEST(Layout, Observers) { for (int n = 1; n < 6; ++n) EXPECT_TRUE(test_observers(n)); }
TEST(Layout, EvaluationOverWholeDomains) { for (int n = 1; n < 30; ++n) EXPECT_TRUE(test_evaluation(n)) << n; }
TEST(Layout, Slicing) { for (int n = 1; n < 6; ++n) EXPECT_TRUE(test_slicing(n)); }
TEST(Layout, SubLayouts) { for (int n = 1; n < 6; ++n) EXPECT_TRUE(test_sub_layouts(n)); }
TEST(Layout, Equality) { EXPECT_TRUE(test_equality(2)); }
}  // namespace
