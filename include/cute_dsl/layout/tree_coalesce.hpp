// coalesce, coalesce by mode, filter: simplify a layout without changing its function.
//
// CuTe's rule, applied to the flattened leaves from right to left: skip size-1 modes; a mode
// (s, d) merges into the kept mode to its right when s*d equals that mode's stride (this also
// merges 0-strides); otherwise it is kept. Modes are never reordered. One remaining mode is an
// integral layout; none is `1:0`.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/tree.hpp"
#include "cute_dsl/layout/tree_basics.hpp"

namespace cute_dsl::tree {

namespace detail {

// Whether (s, d) merges into the mode (shape, next_stride) to its right: s*d == next_stride.
// Then `shape` becomes shape*s. A product that does not fit means no merge, which keeps the
// layout's function (only less coalesced); the result check then reports the overflow.
CUTE_DSL_HOST_DEVICE constexpr bool merges(index_t s, index_t d, index_t next_stride, index_t& shape) {
  index_t extent = 0, merged = 0;
  if (!mul_fits(s, d, extent) || extent != next_stride || !mul_fits(shape, s, merged)) return false;
  shape = merged;
  return true;
}

// `keep_last` is the variant composition needs: the last mode is kept even when its size is 1,
// because its stride continues the layout past its size (`(4,1):(1,0)` must extend with stride 0,
// not 1). Its shape is then meaningless (the last mode is unbounded) and is left as found.
CUTE_DSL_HOST_DEVICE constexpr Modes coalesce_modes(const Modes& in, bool keep_last) {
  Modes rev{};  // built back to front: rev.shape[rev.count-1] is the leftmost kept mode
  if (in.count == 0) {
    rev.push(1, 0);
    return rev;
  }
  rev.push(in.shape[in.count - 1], in.stride[in.count - 1]);
  bool front_is_unit = !keep_last && in.shape[in.count - 1] == 1;
  for (int i = in.count - 2; i >= 0; --i) {
    const index_t s = in.shape[i], d = in.stride[i];
    if (s == 1) continue;
    const int f = rev.count - 1;
    if (front_is_unit) {
      rev.shape[f] = s;
      rev.stride[f] = d;
      front_is_unit = false;
    } else if (merges(s, d, rev.stride[f], rev.shape[f])) {
      rev.stride[f] = d;
    } else {
      rev.push(s, d);
    }
  }
  Modes out{};
  for (int k = rev.count - 1; k >= 0; --k) out.push(rev.shape[k], rev.stride[k]);
  if (front_is_unit) out.stride[0] = 0;  // everything had size 1: the result is 1:0
  out.overflow = out.overflow || in.overflow || rev.overflow;
  return out;
}

}  // namespace detail

CUTE_DSL_HOST_DEVICE constexpr Result<Tree> coalesce(const Tree& layout) {
  Result<Tree> r{};
  if (!check_layout(layout, r)) return r;
  return tree_result(from_modes(detail::coalesce_modes(leaves(layout), false)));
}

// CuTe's coalesce(layout, trg_profile): where the profile is a tuple, coalesce each of the first
// rank(profile) modes by the matching element, keeping the remaining modes as they are; where it
// is an integer, coalesce the whole (sub)layout.
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> coalesce(const Tree& layout, const Tree& profile) {
  Result<Tree> r{};
  if (!check_layout(layout, r)) return r;
  if (profile.count <= 0 || profile.is_leaf(0)) return coalesce(layout);
  const int pr = profile.nodes[0].children;
  const int lr = rank(layout);
  if (pr > lr) return make_error<Tree>(Error::rank_mismatch, pr, lr);
  Tree out{};
  out.push_tuple(lr);
  for (int k = 0; k < lr; ++k) {
    const Tree m = mode(layout, k);
    if (k < pr) {
      const Result<Tree> sub = coalesce(m, subtree(profile, profile.child(0, k)));
      if (!sub.ok()) return sub;
      out.push_subtree(sub.value, 0);
    } else {
      out.push_subtree(m, 0);
    }
  }
  return tree_result(out);
}

// coalesce after giving every stride-0 mode size 1: the layout's image without its broadcasts.
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> filter(const Tree& layout) {
  Result<Tree> r{};
  if (!check_layout(layout, r)) return r;
  Modes m = leaves(layout);
  for (int k = 0; k < m.count; ++k)
    if (m.stride[k] == 0) m.shape[k] = 1;
  return tree_result(from_modes(detail::coalesce_modes(m, false)));
}

namespace detail {

// filter() on an already checked layout, as a flat list (no size-1 modes, no 0-strides; `1:0`
// when nothing remains).
CUTE_DSL_HOST_DEVICE constexpr Modes filter_modes(const Tree& layout) {
  Modes m = leaves(layout);
  for (int k = 0; k < m.count; ++k)
    if (m.stride[k] == 0) m.shape[k] = 1;
  return coalesce_modes(m, false);
}

}  // namespace detail

}  // namespace cute_dsl::tree
