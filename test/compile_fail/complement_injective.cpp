// A layout that overlaps itself has no complement.
// EXPECT: complement: Injectivity Condition (the layout must not overlap itself): sorted by stride, each mode must start at or past the end of the modes below it
#include "cute_dsl/layout/algebra.hpp"
using namespace cute_dsl;
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
auto r = complement(Layout<tuple<_3, _3>, tuple<_1, _2>>{});
#else
auto r = complement(Layout<tuple<_3, _3>, tuple<_1, _3>>{});
#endif
