// fill(t, v): every element of t becomes v.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/tensor/tensor.hpp"

namespace cute_dsl {

template <class T, class V>
  requires is_tensor_v<T>
CUTE_DSL_HOST_DEVICE constexpr void fill(T&& t, V const& value) {
  const int n = int(size(t));
  CUTE_DSL_UNROLL
  for (int i = 0; i < n; ++i) t(i) = value;
}

}  // namespace cute_dsl
