// The layout algebra applied to tensors: the result views the same elements through a new layout.
//
//   logical_divide(t, tiler)   zipped_divide   tiled_divide   flat_divide
//   composition(t, tiler)      coalesce(t)     coalesce(t, profile)
//   group_modes<B, E>(t)       flatten(t)
// Each is the layout operation of the same name (layout/algebra.hpp) with the iterator kept, so
// its rules, static-ness and diagnostics are the layout's. t(c) == result(c') wherever the layout
// operation maps c' to c's offset; e.g. zipped_divide(t, tiler)((i, j)) is element i of tile j.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/divide.hpp"
#include "cute_dsl/layout/coalesce.hpp"
#include "cute_dsl/layout/composition.hpp"
#include "cute_dsl/tensor/tensor.hpp"

namespace cute_dsl {

// One tensor overload per layout operation taking (layout, tiler).
#define CUTE_DSL_TENSOR_TILER_OP(name)                                                \
  template <class E, class L, class T>                                                \
    requires Tiler<T>                                                                 \
  CUTE_DSL_HOST_DEVICE constexpr auto name(Tensor<E, L> const& t, T const& tiler) {   \
    return make_tensor(t.data(), name(t.layout(), tiler));                            \
  }
CUTE_DSL_TENSOR_TILER_OP(logical_divide)
CUTE_DSL_TENSOR_TILER_OP(zipped_divide)
CUTE_DSL_TENSOR_TILER_OP(tiled_divide)
CUTE_DSL_TENSOR_TILER_OP(flat_divide)
CUTE_DSL_TENSOR_TILER_OP(composition)
#undef CUTE_DSL_TENSOR_TILER_OP

// The same elements with the fewest modes (t(i) is unchanged for every 1-D index i).
template <class E, class L>
CUTE_DSL_HOST_DEVICE constexpr auto coalesce(Tensor<E, L> const& t) {
  return make_tensor(t.data(), coalesce(t.layout()));
}
template <class E, class L, class P>
  requires is_int_tuple_v<P>
CUTE_DSL_HOST_DEVICE constexpr auto coalesce(Tensor<E, L> const& t, P const& profile) {
  return make_tensor(t.data(), coalesce(t.layout(), profile));
}

// Modes [B, E) gathered into one mode (CuTe's group_modes); on layouts too, under CuTe's name.
template <int B, int E, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto group_modes(Layout<S, D> const& l) {
  return group<B, E>(l);
}
template <int B, int E, class En, class L>
CUTE_DSL_HOST_DEVICE constexpr auto group_modes(Tensor<En, L> const& t) {
  return make_tensor(t.data(), group<B, E>(t.layout()));
}

template <class E, class L>
CUTE_DSL_HOST_DEVICE constexpr auto flatten(Tensor<E, L> const& t) {
  return make_tensor(t.data(), flatten(t.layout()));
}

}  // namespace cute_dsl
