// Static inputs give static answers: every operation on compile-time layouts returns a type
// whose value is CuTe's (the examples of the conformance README), proven by static_assert. The
// few GTest cases only make the file show up in the test list; the proof is that it compiles.
#include "cute_dsl/layout/algebra.hpp"

#include <gtest/gtest.h>

namespace {

using namespace cute_dsl;

template <class L, class Expected>
constexpr bool is_exactly = is_same_v<remove_cvref_t<L>, Expected>;

// ---- coalesce, filter ---------------------------------------------------------------------------
using L_2_16 = Layout<tuple<_2, tuple<_1, _6>>, tuple<_1, tuple<_6, _2>>>;
static_assert(is_exactly<decltype(coalesce(L_2_16{})), Layout<_12, _1>>);
static_assert(is_exactly<decltype(coalesce(Layout<tuple<_8, _2>, tuple<_0, _0>>{})), Layout<_16, _0>>);
static_assert(is_exactly<decltype(coalesce(Layout<tuple<_1, _1>, tuple<_3, _0>>{})), Layout<_1, _0>>);
static_assert(is_exactly<decltype(coalesce(Layout<tuple<_2, _4>, tuple<_4, _1>>{})), Layout<tuple<_2, _4>, tuple<_4, _1>>>);
// by profile: each top-level mode on its own
static_assert(is_exactly<decltype(coalesce(Layout<tuple<tuple<_2, _2>, _3>, tuple<tuple<_1, _2>, _4>>{}, make_shape(_1{}, _1{}))),
                         Layout<tuple<_4, _3>, tuple<_1, _4>>>);
static_assert(is_exactly<decltype(filter(Layout<tuple<_6, tuple<_3, _8>>, tuple<_1, tuple<_0, _0>>>{})), Layout<_6, _1>>);

// ---- composition ----------------------------------------------------------------------------------
// A's continuation past its size is kept: a trailing size-1 mode extends with its stride
static_assert(is_exactly<decltype(composition(Layout<tuple<_4, _1>, tuple<_1, _0>>{}, Layout<_8, _1>{})),
                         Layout<tuple<_4, _2>, tuple<_1, _0>>>);
static_assert(is_exactly<decltype(composition(Layout<_4, _2>{}, Layout<_8, _1>{})), Layout<_8, _2>>);
static_assert(is_exactly<decltype(composition(Layout<tuple<_4, _2>, tuple<_1, _10>>{}, Layout<_16, _1>{})),
                         Layout<tuple<_4, _4>, tuple<_1, _10>>>);
static_assert(is_exactly<decltype(composition(Layout<tuple<_6, _2>, tuple<_8, _2>>{}, Layout<tuple<_4, _3>, tuple<_3, _1>>{})),
                         Layout<tuple<tuple<_2, _2>, _3>, tuple<tuple<_24, _2>, _8>>>);
// tiler: A's modes beyond the tiler are dropped, the result is a tuple of one mode per element
static_assert(is_exactly<decltype(composition(Layout<tuple<_12, _2>, tuple<_4, _144>>{}, make_tile(_3{}))),
                         Layout<tuple<_3>, tuple<_4>>>);
static_assert(is_exactly<decltype(composition(Layout<tuple<_6, _2>, tuple<_8, _2>>{}, _4{})), Layout<_4, _8>>);
// a stride-0 mode of B comes back unchanged
static_assert(is_exactly<decltype(composition(Layout<tuple<_6, _2>, tuple<_8, _2>>{}, Layout<_5, _0>{})), Layout<_5, _0>>);

// ---- complement -------------------------------------------------------------------------------------
static_assert(is_exactly<decltype(complement(Layout<tuple<_16, _1, _6>, tuple<_4, _256, _1024>>{})),
                         Layout<tuple<_4, _16>, tuple<_1, _64>>>);
static_assert(is_exactly<decltype(complement(Layout<_4, _2>{}, _24{})), Layout<tuple<_2, _3>, tuple<_1, _8>>>);
static_assert(is_exactly<decltype(complement(Layout<_4, _0>{}, _8{})), Layout<_8, _1>>);  // all stride 0: c:1

// ---- inverses ---------------------------------------------------------------------------------------
// CuTe's unstable exchange sort decides the tie between the two stride-8 modes
static_assert(is_exactly<decltype(right_inverse(Layout<tuple<_2, _2, _8>, tuple<_8, _8, _1>>{})),
                         Layout<tuple<_8, _2>, tuple<_4, _2>>>);
static_assert(is_exactly<decltype(left_inverse(Layout<tuple<tuple<_3, _8>>, tuple<tuple<_8, _1>>>{})),
                         Layout<tuple<_8, _3>, tuple<_3, _1>>>);

// ---- divides ----------------------------------------------------------------------------------------
using M8x4 = Layout<tuple<_8, _4>, tuple<_1, _8>>;
static_assert(is_exactly<decltype(logical_divide(M8x4{}, make_tile(_2{}, _2{}))),
                         Layout<tuple<tuple<_2, _4>, tuple<_2, _2>>, tuple<tuple<_1, _2>, tuple<_8, _16>>>>);
static_assert(is_exactly<decltype(zipped_divide(M8x4{}, make_tile(_2{}, _2{}))),
                         Layout<tuple<tuple<_2, _2>, tuple<_4, _2>>, tuple<tuple<_1, _8>, tuple<_2, _16>>>>);
static_assert(is_exactly<decltype(tiled_divide(M8x4{}, make_tile(_2{}, _2{}))),
                         Layout<tuple<tuple<_2, _2>, _4, _2>, tuple<tuple<_1, _8>, _2, _16>>>);
static_assert(is_exactly<decltype(flat_divide(M8x4{}, make_tile(_2{}, _2{}))),
                         Layout<tuple<_2, _2, _4, _2>, tuple<_1, _8, _2, _16>>>);
// a tile that does not divide: 6 divided by 4 has size 8
static_assert(decltype(size(logical_divide(Layout<_6, _1>{}, _4{})))::value == 8);

// ---- products ---------------------------------------------------------------------------------------
static_assert(is_exactly<decltype(blocked_product(Layout<_6, _1>{}, Layout<_4, _1>{})), Layout<tuple<tuple<_6, _4>>, tuple<tuple<_1, _6>>>>);
static_assert(is_exactly<decltype(raked_product(Layout<tuple<_2, _3>, tuple<_1, _2>>{}, Layout<tuple<_4, _5>, tuple<_5, _1>>{})),
                         Layout<tuple<tuple<_4, _2>, tuple<_5, _3>>, tuple<tuple<_30, _1>, tuple<_6, _2>>>>);
static_assert(is_exactly<decltype(logical_product(Layout<tuple<_2, _3>, tuple<_1, _2>>{}, make_tile(_3{}, Layout<_2, _1>{}))),
                         Layout<tuple<tuple<_2, _3>, tuple<_3, _2>>, tuple<tuple<_1, _2>, tuple<_2, _1>>>>);

// ---- max_common_vector / layout ----------------------------------------------------------------------
static_assert(is_exactly<decltype(max_common_vector(make_layout(make_shape(_4{}, _8{})), make_layout(make_shape(_4{}, _8{})))), _32>);
static_assert(is_exactly<decltype(max_common_vector(Layout<tuple<_4, _8>, tuple<_1, _4>>{}, Layout<tuple<_4, _8>, tuple<_8, _1>>{})), _1>);
static_assert(is_static_v<decltype(max_common_layout(Layout<tuple<_4, _8>, tuple<_1, _4>>{}, Layout<tuple<_4, _8>, tuple<_1, _4>>{}))>);

// ---- the static-ness survives chains of operations ----------------------------------------------------
constexpr auto chained = coalesce(composition(logical_divide(M8x4{}, make_tile(_4{}, _2{})), Layout<_8, _2>{}));
static_assert(is_static_v<decltype(chained)>);

// The bridge round trip: a tree given as a template argument decodes to the layout it encodes.
constexpr tree::Tree kTree = to_tree(Layout<tuple<tuple<_2, _3>, C<5000000000LL>>, tuple<tuple<_1, _2>, _6>>{});
static_assert(is_exactly<from_tree_t<kTree>, Layout<tuple<tuple<_2, _3>, C<5000000000LL>>, tuple<tuple<_1, _2>, _6>>>);

TEST(StaticAlgebra, ResultsAreStaticTypes) {
  // The static_asserts above are the test; this checks the values once more at run time.
  EXPECT_EQ(int(coalesce(L_2_16{})(5)), 5);
  EXPECT_EQ(int(composition(Layout<tuple<_6, _2>, tuple<_8, _2>>{}, Layout<tuple<_4, _3>, tuple<_3, _1>>{})(1)), 24);
  EXPECT_EQ(int(size(chained)), 8);
}

}  // namespace
