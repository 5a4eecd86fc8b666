// A tiler with more modes than the layout, with run-time leaves (the rank is a type property).
// EXPECT: logical_divide: Rank Condition: a tiler must not have more modes than the layout it applies to
#include "cute_dsl/layout/algebra.hpp"
using namespace cute_dsl;
void f(int m) {
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
  auto r = logical_divide(make_layout(m, _1{}), make_tile(_128{}, _64{}));
#else
  auto r = logical_divide(make_layout(make_shape(m, m)), make_tile(_128{}, _64{}));
#endif
  (void)r;
}
