// clear(t): every element of t becomes its value type's zero (T{}); an accumulator's reset.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/tensor/tensor.hpp"
#include "cute_dsl/algorithm/fill.hpp"

namespace cute_dsl {

template <class T>
  requires is_tensor_v<T>
CUTE_DSL_HOST_DEVICE constexpr void clear(T&& t) {
  fill(t, typename remove_cvref_t<T>::value_type{});
}

}  // namespace cute_dsl
