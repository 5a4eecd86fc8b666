// Shared preconditions of the element-wise algorithms: two tensors walked by the same 1-D index
// must have the same size. Static sizes are compared at compile time.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/tensor/tensor.hpp"

namespace cute_dsl::detail {

template <class SA, class SB> inline constexpr bool sizes_differ_v = false;
template <auto a, auto b> inline constexpr bool sizes_differ_v<C<a>, C<b>> = (a != b);

// True when both sizes are static and differ: the call can never be right.
template <class A, class B>
inline constexpr bool static_sizes_differ_v =
    sizes_differ_v<decltype(size(declval<A const&>())), decltype(size(declval<B const&>()))>;

}  // namespace cute_dsl::detail
