// right_inverse and left_inverse of static layouts.
//
//   right_inverse(L): R with L(R(i)) == i for i < size(R), as large as L allows;
//                     right_inverse((2,2,8):(8,8,1)) == (8,2):(4,2) (CuTe's tie-breaking kept)
//   left_inverse(L):  R with R(L(i)) == i on L's image; left_inverse(((3,8)):((8,1))) == (8,3):(3,1)
//
// Static only: the answer's shape is a list of stride ratios, so its very structure depends on
// the strides' values. A layout with run-time leaves fails to compile with a message saying so
// (CuTe likewise requires static strides here).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/static_bridge.hpp"
#include "cute_dsl/layout/dynamic_support.hpp"

namespace cute_dsl {

namespace detail {
template <class L> struct RightInverseOp {
  CUTE_DSL_HOST_DEVICE static constexpr tree::Result<tree::Tree> run() { return tree::right_inverse(static_tree<L>()); }
};
template <class L> struct LeftInverseOp {
  CUTE_DSL_HOST_DEVICE static constexpr tree::Result<tree::Tree> run() { return tree::left_inverse(static_tree<L>()); }
};
}  // namespace detail

template <class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto right_inverse(Layout<S, D> const&) {
  CUTE_DSL_UNSUPPORTED_DYNAMIC((is_static_v<Layout<S, D>>), "right_inverse",
                               "run-time shapes or strides are not supported (the result's structure depends on their values)");
  if constexpr (is_static_v<Layout<S, D>>) {
    using R = detail::StaticResult<detail::RightInverseOp<Layout<S, D>>>;
    CUTE_DSL_STATIC_RESULT_CHECKS(R::result, "right_inverse");
    return decode_layout_t<R>{};
  } else {
    return make_layout(Int<1>{}, Int<0>{});
  }
}

template <class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto left_inverse(Layout<S, D> const&) {
  CUTE_DSL_UNSUPPORTED_DYNAMIC((is_static_v<Layout<S, D>>), "left_inverse",
                               "run-time shapes or strides are not supported (the result's structure depends on their values)");
  if constexpr (is_static_v<Layout<S, D>>) {
    using R = detail::StaticResult<detail::LeftInverseOp<Layout<S, D>>>;
    CUTE_DSL_STATIC_RESULT_CHECKS(R::result, "left_inverse");
    return decode_layout_t<R>{};
  } else {
    return make_layout(Int<1>{}, Int<0>{});
  }
}

}  // namespace cute_dsl
