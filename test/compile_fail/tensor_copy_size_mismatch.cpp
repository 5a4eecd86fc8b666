// copy between tensors whose static sizes differ can never be right.
// EXPECT: copy: src and dst must have the same size
#include "cute_dsl/tensor/tensor.hpp"
#include "cute_dsl/algorithm/copy.hpp"
using namespace cute_dsl;
void f(float* p) {
  auto src = make_tensor(p, make_shape(_4{}, _8{}));
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
  auto dst = make_tensor<float>(make_shape(_4{}, _4{}));
#else
  auto dst = make_tensor<float>(make_shape(_4{}, _8{}));
#endif
  copy(src, dst);
}
