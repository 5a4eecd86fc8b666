// layout/composed_layout.hpp: composition(Swizzle, Layout) evaluates as swizzle(offset + layout(c))
// over the whole domain; shape and size are the inner layout's; slicing folds the origin into
// the offset.
#include "cute_dsl/layout/composed_layout.hpp"

#include <gtest/gtest.h>

namespace {
using namespace cute_dsl;

template <class L>
constexpr bool agrees_over_domain(L const& sl) {
  auto inner = sl.layout_b();
  int const total = int(size(sl));
  for (int i = 0; i < total; ++i) {
    auto c = idx2crd(i, shape(sl));
    if (sl(i) != sl.layout_a()(sl.offset() + inner(i))) return false;
    if (sl(c) != sl(i)) return false;
  }
  return true;
}

constexpr bool test_swizzled_layout(int n) {
  auto base = make_layout(make_shape(_8{}, _64{}), LayoutRight{});
  auto sl = composition(Swizzle<3, 3, 3>{}, base);
  static_assert(is_same_v<decltype(sl), ComposedLayout<Swizzle<3, 3, 3>, _0, decltype(base)>>);
  static_assert(is_static_v<decltype(sl)> && is_layout_v<decltype(sl)>);
  static_assert(is_same_v<decltype(size(sl)), C<512>> && is_same_v<decltype(cosize(sl)), C<512>>);
  static_assert(is_same_v<decltype(rank(sl)), _2> && is_same_v<decltype(shape<1>(sl)), _64> && is_same_v<decltype(size<0>(sl)), _8>);
  static_assert(is_same_v<decltype(sl(_1{}, _8{})), C<(64 + 8) ^ 8>>);  // bit 6 flips bit 3
  // with an offset, and a run-time inner layout
  auto so = composition(Swizzle<2, 0, 2>{}, n, make_layout(make_shape(n, _4{})));
  bool ok = agrees_over_domain(sl) && agrees_over_domain(so);
  // slicing: the sub-layout of row r keeps the swizzle, with the row's origin in the offset
  auto row = sl(3, _);
  for (int j = 0; j < 64; ++j) ok = ok && row(j) == sl(3, j);
  auto col = so(_, 2);
  for (int i = 0; i < n; ++i) ok = ok && col(i) == so(i, 2);
  return ok && get<0>(shape(row)) == 64;
}
static_assert(test_swizzled_layout(4));

TEST(ComposedLayout, SwizzledLayout) { for (int n = 1; n < 9; ++n) EXPECT_TRUE(test_swizzled_layout(n)) << n; }
}  // namespace
