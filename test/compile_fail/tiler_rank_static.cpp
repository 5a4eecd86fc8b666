// A tiler with more modes than the layout, all static.
// EXPECT: composition: Rank Condition: a tiler must not have more modes than the layout it applies to
#include "cute_dsl/layout/algebra.hpp"
using namespace cute_dsl;
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
auto r = composition(Layout<_8, _1>{}, make_tile(_2{}, _2{}));
#else
auto r = composition(Layout<tuple<_8, _8>, tuple<_1, _8>>{}, make_tile(_2{}, _2{}));
#endif
