// left_inverse((2,2):(2,3)): injective, but the sorted strides 2 and 3 do not divide.
// EXPECT: left_inverse: Left Inverse Divisibility Condition: sorted by stride, each stride must divide the next one
#include "cute_dsl/layout/algebra.hpp"
using namespace cute_dsl;
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
auto r = left_inverse(Layout<tuple<_2, _2>, tuple<_2, _3>>{});
#else
auto r = left_inverse(Layout<tuple<_2, _2>, tuple<_2, _4>>{});
#endif
