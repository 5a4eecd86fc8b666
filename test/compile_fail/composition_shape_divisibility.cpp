// A shape of B that the extents of A cut unevenly.
// EXPECT: composition: Shape Divisibility Condition: every shape of B must be a multiple of, or divide, the extents of A it spans
#include "cute_dsl/layout/algebra.hpp"
using namespace cute_dsl;
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
auto r = composition(Layout<tuple<_4, _3>, tuple<_1, _5>>{}, Layout<_6, _1>{});
#else
auto r = composition(Layout<tuple<_4, _3>, tuple<_1, _5>>{}, Layout<_8, _1>{});
#endif
