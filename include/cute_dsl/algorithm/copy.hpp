// copy(src, dst) and copy_if(pred, src, dst): element-wise, dst(i) = src(i) for every 1-D index
// i (each tensor read in its own layout's order). The fallback every copy atom refines: no
// vector widths, no asynchrony, any memory space, any element conversion dst's type allows.
//
//   copy(tA, tR);                       // registers <- global, same size
//   copy_if(tP, tR, tC);                // only where tP(i) is true (a bool tensor, or anything
//                                       // callable as pred(i), e.g. a predicate functor)
// Copy atoms (atom/copy*.hpp) add copy(atom, src, dst) overloads; these two stay the reference.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/tensor/tensor.hpp"
#include "cute_dsl/algorithm/tensor_checks.hpp"

namespace cute_dsl {

template <class Src, class Dst>
  requires(is_tensor_v<Src> && is_tensor_v<Dst>)
CUTE_DSL_HOST_DEVICE constexpr void copy(Src const& src, Dst&& dst) {
  static_assert(!detail::static_sizes_differ_v<Src, remove_cvref_t<Dst>>, "copy: src and dst must have the same size");
  const int n = int(size(dst));
  CUTE_DSL_UNROLL
  for (int i = 0; i < n; ++i) dst(i) = src(i);
}

template <class Pred, class Src, class Dst>
  requires(is_tensor_v<Src> && is_tensor_v<Dst>)
CUTE_DSL_HOST_DEVICE constexpr void copy_if(Pred const& pred, Src const& src, Dst&& dst) {
  static_assert(!detail::static_sizes_differ_v<Src, remove_cvref_t<Dst>>, "copy_if: src and dst must have the same size");
  const int n = int(size(dst));
  CUTE_DSL_UNROLL
  for (int i = 0; i < n; ++i)
    if (pred(i)) dst(i) = src(i);
}

}  // namespace cute_dsl
