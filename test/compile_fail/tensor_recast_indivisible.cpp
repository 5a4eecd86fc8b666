// Reading 6 contiguous floats as doubles works; 3 do not make whole doubles.
// EXPECT: upcast: the unit-stride mode's size must be divisible by the ratio
#include "cute_dsl/tensor/tensor.hpp"
#include "cute_dsl/tensor/recast.hpp"
using namespace cute_dsl;
void f(float* p) {
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
  auto t = make_tensor(p, make_shape(_3{}, _2{}));
#else
  auto t = make_tensor(p, make_shape(_6{}, _2{}));
#endif
  auto d = recast<double>(t);
  (void)d;
}
