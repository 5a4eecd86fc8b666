// max_common_vector and max_common_layout of static layouts: how many consecutive elements two
// layouts of the same shape place at the same consecutive offsets (the widest vector copy).
//
//   max_common_vector((4,8):(1,4), (4,8):(1,4)) == 32     (a static C<32>)
//   max_common_vector((4,8):(1,4), (4,8):(8,1)) == 1
//
// Static only, as right_inverse (on which both rest) is.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/static_bridge.hpp"
#include "cute_dsl/layout/dynamic_support.hpp"

namespace cute_dsl {

namespace detail {
template <class A, class B> struct MaxCommonVectorOp {
  CUTE_DSL_HOST_DEVICE static constexpr tree::Result<tree::index_t> run() {
    return tree::max_common_vector(static_tree<A>(), static_tree<B>());
  }
};
template <class A, class B> struct MaxCommonLayoutOp {
  CUTE_DSL_HOST_DEVICE static constexpr tree::Result<tree::Tree> run() {
    return tree::max_common_layout(static_tree<A>(), static_tree<B>());
  }
};
}  // namespace detail

template <class SA, class DA, class SB, class DB>
CUTE_DSL_HOST_DEVICE constexpr auto max_common_vector(Layout<SA, DA> const&, Layout<SB, DB> const&) {
  constexpr bool both_static = is_static_v<Layout<SA, DA>> && is_static_v<Layout<SB, DB>>;
  CUTE_DSL_UNSUPPORTED_DYNAMIC(both_static, "max_common_vector",
                               "run-time shapes or strides are not supported (it rests on right_inverse)");
  if constexpr (both_static) {
    using R = detail::StaticIndexResult<detail::MaxCommonVectorOp<Layout<SA, DA>, Layout<SB, DB>>>;
    CUTE_DSL_STATIC_RESULT_CHECKS(R::result, "max_common_vector");
    return typename detail::narrow_constant<(R::result.ok() ? R::result.value : 1)>::type{};
  } else {
    return Int<1>{};
  }
}

template <class SA, class DA, class SB, class DB>
CUTE_DSL_HOST_DEVICE constexpr auto max_common_layout(Layout<SA, DA> const&, Layout<SB, DB> const&) {
  constexpr bool both_static = is_static_v<Layout<SA, DA>> && is_static_v<Layout<SB, DB>>;
  CUTE_DSL_UNSUPPORTED_DYNAMIC(both_static, "max_common_layout",
                               "run-time shapes or strides are not supported (it rests on right_inverse)");
  if constexpr (both_static) {
    using R = detail::StaticResult<detail::MaxCommonLayoutOp<Layout<SA, DA>, Layout<SB, DB>>>;
    CUTE_DSL_STATIC_RESULT_CHECKS(R::result, "max_common_layout");
    return decode_layout_t<R>{};
  } else {
    return make_layout(Int<1>{}, Int<0>{});
  }
}

}  // namespace cute_dsl
