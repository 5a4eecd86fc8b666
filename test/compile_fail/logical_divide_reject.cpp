// logical_divide((6,4):(1,10), 4:1): CuTe answers (4,(2,4)):(1,(4,10)), which is not L∘(T,T*).
// EXPECT: logical_divide: Stride Divisibility Condition: every stride of B must divide, or be a multiple of, the extents of A it crosses
#include "cute_dsl/layout/algebra.hpp"
using namespace cute_dsl;
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
auto r = logical_divide(Layout<tuple<_6, _4>, tuple<_1, _10>>{}, Layout<_4, _1>{});
#else
auto r = logical_divide(Layout<tuple<_6, _4>, tuple<_1, _10>>{}, Layout<_3, _1>{});
#endif
