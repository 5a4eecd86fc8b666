// axpby(a, x, b, y): y(i) = a * x(i) + b * y(i) for every 1-D index i (a GEMM epilogue's
// alpha * accumulator + beta * source). A zero b does not read y (y may hold garbage, even
// NaN), as BLAS specifies; the test is made once, at run time, or at compile time for Int<0>.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/tensor/tensor.hpp"
#include "cute_dsl/algorithm/tensor_checks.hpp"

namespace cute_dsl {

template <class A, class X, class B, class Y>
  requires(is_tensor_v<X> && is_tensor_v<Y>)
CUTE_DSL_HOST_DEVICE constexpr void axpby(A const& a, X const& x, B const& b, Y&& y) {
  static_assert(!detail::static_sizes_differ_v<X, remove_cvref_t<Y>>, "axpby: x and y must have the same size");
  const int n = int(size(y));
  if constexpr (is_constant_v<0, B>) {
    CUTE_DSL_UNROLL
    for (int i = 0; i < n; ++i) y(i) = a * x(i);
  } else {
    if (b == B(0)) {
      CUTE_DSL_UNROLL
      for (int i = 0; i < n; ++i) y(i) = a * x(i);
    } else {
      CUTE_DSL_UNROLL
      for (int i = 0; i < n; ++i) y(i) = a * x(i) + b * y(i);
    }
  }
}

}  // namespace cute_dsl
