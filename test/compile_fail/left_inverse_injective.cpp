// left_inverse(((2,3)):((2,1))) overlaps itself (CuTe answers (2,2):(2,1), which is no inverse).
// EXPECT: left_inverse: Injectivity Condition (left_inverse needs an injective layout): distinct coordinates must map to distinct offsets
#include "cute_dsl/layout/algebra.hpp"
using namespace cute_dsl;
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
auto r = left_inverse(Layout<tuple<tuple<_2, _3>>, tuple<tuple<_2, _1>>>{});
#else
auto r = left_inverse(Layout<tuple<tuple<_2, _3>>, tuple<tuple<_3, _1>>>{});
#endif
