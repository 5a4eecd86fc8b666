// complement orders modes by stride at compile time: run-time strides are refused.
// EXPECT: complement: run-time strides are not supported (the modes are ordered by stride at compile time)
#include "cute_dsl/layout/algebra.hpp"
using namespace cute_dsl;
void f(int m) {
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
  auto r = complement(make_layout(make_shape(_4{}, _4{}), make_stride(_1{}, m)), 64);
#else
  auto r = complement(make_layout(make_shape(m, _4{}), make_stride(_1{}, _16{})), 64);
#endif
  (void)r;
}
