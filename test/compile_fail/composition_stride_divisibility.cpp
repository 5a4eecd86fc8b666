// A stride of B that neither divides nor is a multiple of the extent of A it crosses.
// EXPECT: composition: Stride Divisibility Condition: every stride of B must divide, or be a multiple of, the extents of A it crosses
#include "cute_dsl/layout/algebra.hpp"
using namespace cute_dsl;
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
auto r = composition(Layout<tuple<_3, _4>, tuple<_1, _5>>{}, Layout<_2, _4>{});
#else
auto r = composition(Layout<tuple<_3, _4>, tuple<_1, _5>>{}, Layout<_2, _3>{});
#endif
