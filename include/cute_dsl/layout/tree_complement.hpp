// complement(L, cotarget): the layout of the offsets below the cotarget that L does not reach,
// ordered so that (L, complement) is injective.
//
// Algorithm (CuTe's): filter L; take its modes by increasing stride (ties: first occurrence);
// each gap between the extent s_k*d_k of one mode and the stride d_{k+1} of the next becomes a
// mode d_{k+1}/(s_k*d_k) : s_k*d_k, starting from stride 1; a last mode covers the cotarget,
// ceil(cotarget / (s_last*d_last)) : s_last*d_last; the result is coalesced.
//
// CuTe only rejects a gap of 0 and truncates inexact gaps. We reject both: a gap of 0 means L
// overlaps itself (complement_injective), an inexact one that the result would not tile the
// codomain (complement_divisibility).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/tree.hpp"
#include "cute_dsl/layout/tree_basics.hpp"
#include "cute_dsl/layout/tree_coalesce.hpp"

namespace cute_dsl::tree {

namespace detail {

// `cotarget` lists the leaves of the cotarget shape; an integral cotarget is one leaf. A tuple
// cotarget is consumed as CuTe's ceil_div(tuple, int) does, element by element, which can give
// a smaller last mode than dividing the product would (that is why logical_divide passes one).
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> complement_impl(const Tree& layout, const Modes& cotarget) {
  Result<Tree> r{};
  if (!check_layout(layout, r, false)) return r;
  for (int k = 0; k < cotarget.count; ++k)
    if (cotarget.shape[k] <= 0) return make_error<Tree>(Error::zero_shape, cotarget.shape[k]);

  const Modes f = filter_modes(layout);
  Modes out{};
  index_t extent = 1;  // s_k * d_k of the mode last taken: where the next gap starts
  if (!(f.count == 1 && f.stride[0] == 0)) {
    bool taken[kCapacity] = {};
    for (int step = 0; step < f.count; ++step) {
      int next = -1;
      for (int k = 0; k < f.count; ++k)
        if (!taken[k] && (next < 0 || f.stride[k] < f.stride[next])) next = k;
      taken[next] = true;
      const index_t d = f.stride[next];
      if (d / extent == 0) return make_error<Tree>(Error::complement_injective, d, extent);
      if (d % extent != 0) return make_error<Tree>(Error::complement_divisibility, d, extent);
      out.push(d / extent, extent);
      if (!mul_fits(f.shape[next], d, extent)) return make_error<Tree>(Error::overflow, f.shape[next], d);
    }
  }
  index_t rest = 1, remaining = extent;
  for (int k = 0; k < cotarget.count; ++k) {
    const index_t factor = ceil_div(cotarget.shape[k], remaining);
    if (!mul_fits(rest, factor, rest)) return make_error<Tree>(Error::overflow, rest, factor);
    remaining = ceil_div(remaining, cotarget.shape[k]);
  }
  out.push(rest, extent);
  return tree_result(from_modes(coalesce_modes(out, false)));
}

}  // namespace detail

CUTE_DSL_HOST_DEVICE constexpr Result<Tree> complement(const Tree& layout, index_t cotarget) {
  Modes c{};
  c.push(cotarget, 0);
  return detail::complement_impl(layout, c);
}

// Default cotarget: the cosize of L (equal to that of filter(L)).
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> complement(const Tree& layout) {
  Result<Tree> r{};
  if (!check_layout(layout, r, false)) return r;
  return complement(layout, cosize(layout));
}

// Tuple cotarget, given as an int-tuple tree (strides ignored).
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> complement(const Tree& layout, const Tree& cotarget_shape) {
  Result<Tree> r{};
  if (!check_layout(cotarget_shape, r)) return r;
  return detail::complement_impl(layout, leaves(cotarget_shape));
}

}  // namespace cute_dsl::tree
