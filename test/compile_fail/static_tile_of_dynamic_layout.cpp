// A static tile whose own complement is refused fails at compile time even when the layout it
// divides is only known at run time: no value could make it valid.
// EXPECT: logical_divide: Injectivity Condition (the layout must not overlap itself)
#include "cute_dsl/layout/algebra.hpp"
using namespace cute_dsl;
void f(int m) {
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
  auto r = logical_divide(make_layout(m, _1{}), Layout<tuple<_2, _2>, tuple<_1, _1>>{});
#else
  auto r = logical_divide(make_layout(m, _1{}), Layout<tuple<_2, _2>, tuple<_1, _2>>{});
#endif
  (void)r;
}
