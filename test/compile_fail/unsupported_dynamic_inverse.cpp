// right_inverse's structure depends on the strides' values: run-time layouts are refused.
// EXPECT: right_inverse: run-time shapes or strides are not supported (the result's structure depends on their values)
#include "cute_dsl/layout/algebra.hpp"
using namespace cute_dsl;
void f(int m) {
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
  auto r = right_inverse(make_layout(make_shape(m, _4{})));
#else
  auto r = right_inverse(make_layout(make_shape(_8{}, _4{})));
  (void)m;
#endif
  (void)r;
}
