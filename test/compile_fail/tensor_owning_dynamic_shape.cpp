// An owning register tensor with a run-time shape: its storage size is a template argument.
// EXPECT: make_tensor<T>(shape): an owning tensor needs a static shape (its size is a template argument)
#include "cute_dsl/tensor/tensor.hpp"
using namespace cute_dsl;
void f(int m) {
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
  auto r = make_tensor<float>(make_shape(m, _4{}));
#else
  auto r = make_tensor<float>(make_shape(_8{}, _4{}));
  (void)m;
#endif
  (void)r;
}
