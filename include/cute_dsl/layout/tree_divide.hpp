// The divides: logical_divide and its regroupings zipped_divide, tiled_divide, flat_divide.
// Also the regrouping helpers (tile_unzip, splice) that the products share.
//
// logical_divide(L, T) = composition(L, (T, complement(T, shape(coalesce(L))))): the tile, then
// the layout of the tiles. The cotarget is the coalesced *shape* (a tuple when L is not
// contiguous), as CuTe passes it. A tiler [T0,T1,...] divides mode i of L by Ti and keeps the
// remaining modes of L. Tiles need not divide L: the result is then larger than L.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/tree.hpp"
#include "cute_dsl/layout/tree_basics.hpp"
#include "cute_dsl/layout/tree_coalesce.hpp"
#include "cute_dsl/layout/tree_complement.hpp"
#include "cute_dsl/layout/tree_composition.hpp"

namespace cute_dsl::tree {

namespace detail {

// Number of elements in a tiler: a tiler whose tree is a single leaf is one element.
CUTE_DSL_HOST_DEVICE constexpr int tiler_rank(const Tiler& t) {
  return t.modes.is_leaf(0) ? 1 : t.modes.nodes[0].children;
}

// ((t0,t1,...),(r0,r1,...,extra modes...)) from a mode-wise result whose first `tr` modes are
// rank-2 pairs (ti, ri): CuTe's tile_unzip with a tuple tiler.
CUTE_DSL_HOST_DEVICE constexpr Tree tile_unzip(const Tree& modewise, int tr) {
  const int lr = rank(modewise);
  Tree out{};
  out.push_tuple(2);
  out.push_tuple(tr);
  for (int k = 0; k < tr; ++k) {
    const int m = modewise.child(0, k);
    out.push_subtree(modewise, modewise.child(m, 0));
  }
  out.push_tuple(lr);
  for (int k = 0; k < tr; ++k) {
    const int m = modewise.child(0, k);
    out.push_subtree(modewise, modewise.child(m, 1));
  }
  for (int k = tr; k < lr; ++k) out.push_subtree(modewise, modewise.child(0, k));
  out.overflow = out.overflow || modewise.overflow;
  return out;
}

// Slicing a rank-2 layout with `_` in each position, as CuTe's tiled_ and flat_ forms do: a
// mode of rank greater than 1 has its modes spliced into the top level (when `splice_first` /
// `splice_second` allow); a mode of rank 1 stays one mode.
CUTE_DSL_HOST_DEVICE constexpr Tree splice(const Tree& pair, bool splice_first, bool splice_second) {
  const int m0 = pair.child(0, 0), m1 = pair.child(0, 1);
  const bool s0 = splice_first && pair.rank(m0) > 1, s1 = splice_second && pair.rank(m1) > 1;
  Tree out{};
  out.push_tuple((s0 ? pair.rank(m0) : 1) + (s1 ? pair.rank(m1) : 1));
  if (s0) {
    for (int k = 0; k < pair.rank(m0); ++k) out.push_subtree(pair, pair.child(m0, k));
  } else {
    out.push_subtree(pair, m0);
  }
  if (s1) {
    for (int k = 0; k < pair.rank(m1); ++k) out.push_subtree(pair, pair.child(m1, k));
  } else {
    out.push_subtree(pair, m1);
  }
  out.overflow = out.overflow || pair.overflow;
  return out;
}

// `tiler_modes` is the tiler's rank, or 0 for a single tile (whose logical result is already
// the rank-2 zipped form).
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> regroup(const Result<Tree>& logical, int tiler_modes, bool splice_first,
                                                    bool splice_second) {
  if (!logical.ok()) return logical;
  const Tree zipped = tiler_modes > 0 ? tile_unzip(logical.value, tiler_modes) : logical.value;
  if (!splice_first && !splice_second) return tree_result(zipped);
  return tree_result(splice(zipped, splice_first, splice_second));
}

}  // namespace detail

CUTE_DSL_HOST_DEVICE constexpr Result<Tree> logical_divide(const Tree& layout, const Tree& tile) {
  Result<Tree> r{};
  if (!check_layout(layout, r) || !check_layout(tile, r, false)) return r;
  const Modes shape = detail::coalesce_modes(leaves(layout), false);
  const Result<Tree> rest = detail::complement_impl(tile, shape);
  if (!rest.ok()) return rest;
  const Tree b = make_tree_pair(tile, rest.value);
  if (b.overflow) return make_error<Tree>(Error::capacity, kCapacity);
  return composition(layout, b);
}

CUTE_DSL_HOST_DEVICE constexpr Result<Tree> logical_divide(const Tree& layout, const Tiler& tiler) {
  Result<Tree> r{};
  if (!check_layout(layout, r) || !check_layout(tiler.modes, r, false)) return r;
  const int tr = detail::tiler_rank(tiler), lr = rank(layout);
  if (tr > lr) return make_error<Tree>(Error::rank_mismatch, tr, lr);
  Tree out{};
  out.push_tuple(lr);
  for (int k = 0; k < lr; ++k) {
    if (k < tr) {
      const Result<Tree> sub = logical_divide(mode(layout, k), mode(tiler.modes, k));
      if (!sub.ok()) return sub;
      out.push_subtree(sub.value, 0);
    } else {
      out.push_subtree(layout, layout.is_leaf(0) ? 0 : layout.child(0, k));
    }
  }
  return tree_result(out);
}

// ((tile modes...),(rest modes...)): with a single tile this is logical_divide itself.
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> zipped_divide(const Tree& layout, const Tree& tile) {
  return logical_divide(layout, tile);
}
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> zipped_divide(const Tree& layout, const Tiler& tiler) {
  return detail::regroup(logical_divide(layout, tiler), detail::tiler_rank(tiler), false, false);
}

// ((tile modes...), rest modes...)
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> tiled_divide(const Tree& layout, const Tree& tile) {
  return detail::regroup(logical_divide(layout, tile), 0, false, true);
}
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> tiled_divide(const Tree& layout, const Tiler& tiler) {
  return detail::regroup(logical_divide(layout, tiler), detail::tiler_rank(tiler), false, true);
}

// (tile modes..., rest modes...)
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> flat_divide(const Tree& layout, const Tree& tile) {
  return detail::regroup(logical_divide(layout, tile), 0, true, true);
}
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> flat_divide(const Tree& layout, const Tiler& tiler) {
  return detail::regroup(logical_divide(layout, tiler), detail::tiler_rank(tiler), true, true);
}

}  // namespace cute_dsl::tree
