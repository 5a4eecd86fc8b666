// concepts.hpp: which types model which concept.
#include "cute_dsl/concepts.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/composed_layout.hpp"

#include <gtest/gtest.h>

namespace {
using namespace cute_dsl;

static_assert(Integral<int> && Integral<_3> && Integral<long const&> && !Integral<float> && !Integral<tuple<int>>);
static_assert(StaticIntegral<_3> && !StaticIntegral<int> && DynamicIntegral<int> && !DynamicIntegral<_3>);
static_assert(IntTuple<int> && IntTuple<_1> && IntTuple<tuple<>> && IntTuple<tuple<int, tuple<_2, long>>>);
static_assert(!IntTuple<float> && !IntTuple<tuple<int, float>> && !IntTuple<tuple<Underscore>> && !IntTuple<Layout<_1, _0>>);
static_assert(StaticIntTuple<tuple<_1, tuple<_2>>> && !StaticIntTuple<tuple<_1, int>>);
static_assert(ShapeLike<tuple<_2, int>> && StrideLike<_1> && CoordLike<tuple<int, int>>);
static_assert(SliceCoord<tuple<Underscore, int>> && SliceCoord<Underscore> && !CoordLike<tuple<Underscore, int>>);
static_assert(LayoutLike<Layout<Shape<_2, _3>>> && LayoutLike<Layout<_2, _1> const&> && !LayoutLike<tuple<_2, _1>>);
static_assert(LayoutLike<ComposedLayout<Swizzle<1, 0, 1>, _0, Layout<_4, _1>>>);

// A constrained function, the way public signatures use them.
template <IntTuple S> constexpr int rank_of(S const& s) { return rank(s); }
static_assert(rank_of(make_shape(1, 2, 3)) == 3);
template <class T> concept HasRankOf = requires(T t) { rank_of(t); };
static_assert(HasRankOf<tuple<int>> && !HasRankOf<float>);

TEST(Concepts, Checked) { SUCCEED() << "all checks are static_asserts in this file"; }
}  // namespace
