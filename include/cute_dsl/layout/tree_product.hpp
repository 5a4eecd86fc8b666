// The products: logical_product and its regroupings, blocked_product and raked_product.
//
// logical_product(B, T) = (B, composition(complement(B, size(B)*cosize(T)), T)): the block,
// then T's arrangement of copies of the block in the offsets the block leaves free. A tiler
// [T0,T1,...] multiplies mode i of B by Ti and keeps the remaining modes of B.
// blocked/raked_product pad both layouts with 1:0 modes to the same rank R, take the
// layout-by-layout logical_product (B, C), and zip it mode by mode: ((B0,C0),(B1,C1),...) and
// ((C0,B0),...). For R = 1 this is a one-element tuple, as in CuTe.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/tree.hpp"
#include "cute_dsl/layout/tree_basics.hpp"
#include "cute_dsl/layout/tree_complement.hpp"
#include "cute_dsl/layout/tree_composition.hpp"
#include "cute_dsl/layout/tree_divide.hpp"

namespace cute_dsl::tree {

CUTE_DSL_HOST_DEVICE constexpr Result<Tree> logical_product(const Tree& block, const Tree& tiler) {
  Result<Tree> r{};
  if (!check_layout(block, r) || !check_layout(tiler, r, false)) return r;
  index_t cotarget = 0;
  if (!detail::mul_fits(size(block), cosize(tiler), cotarget))
    return make_error<Tree>(Error::overflow, size(block), cosize(tiler));
  const Result<Tree> rest = complement(block, cotarget);
  if (!rest.ok()) return rest;
  const Result<Tree> copies = composition(rest.value, tiler);
  if (!copies.ok()) return copies;
  return tree_result(make_tree_pair(block, copies.value));
}

CUTE_DSL_HOST_DEVICE constexpr Result<Tree> logical_product(const Tree& block, const Tiler& tiler) {
  Result<Tree> r{};
  if (!check_layout(block, r) || !check_layout(tiler.modes, r, false)) return r;
  const int tr = detail::tiler_rank(tiler), br = rank(block);
  if (tr > br) return make_error<Tree>(Error::rank_mismatch, tr, br);
  Tree out{};
  out.push_tuple(br);
  for (int k = 0; k < br; ++k) {
    if (k < tr) {
      const Result<Tree> sub = logical_product(mode(block, k), mode(tiler.modes, k));
      if (!sub.ok()) return sub;
      out.push_subtree(sub.value, 0);
    } else {
      out.push_subtree(block, block.child(0, k));
    }
  }
  return tree_result(out);
}

CUTE_DSL_HOST_DEVICE constexpr Result<Tree> zipped_product(const Tree& block, const Tree& tiler) {
  return logical_product(block, tiler);
}
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> zipped_product(const Tree& block, const Tiler& tiler) {
  return detail::regroup(logical_product(block, tiler), detail::tiler_rank(tiler), false, false);
}
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> tiled_product(const Tree& block, const Tree& tiler) {
  return detail::regroup(logical_product(block, tiler), 0, false, true);
}
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> tiled_product(const Tree& block, const Tiler& tiler) {
  return detail::regroup(logical_product(block, tiler), detail::tiler_rank(tiler), false, true);
}
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> flat_product(const Tree& block, const Tree& tiler) {
  return detail::regroup(logical_product(block, tiler), 0, true, true);
}
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> flat_product(const Tree& block, const Tiler& tiler) {
  return detail::regroup(logical_product(block, tiler), detail::tiler_rank(tiler), true, true);
}

namespace detail {

// The layout padded with 1:0 modes to rank `r` (an integral layout becomes the first mode).
CUTE_DSL_HOST_DEVICE constexpr Tree pad_to_rank(const Tree& t, int r) {
  const int have = rank(t);
  if (have >= r) return t;
  Tree out{};
  out.push_tuple(r);
  if (t.is_leaf(0)) {
    out.push_subtree(t, 0);
  } else {
    for (int k = 0; k < have; ++k) out.push_subtree(t, t.child(0, k));
  }
  for (int k = have; k < r; ++k) out.push_leaf(1, 0);
  out.overflow = out.overflow || t.overflow;
  return out;
}

CUTE_DSL_HOST_DEVICE constexpr Result<Tree> zipped_rank_product(const Tree& block, const Tree& tiler, bool raked) {
  Result<Tree> r{};
  if (!check_layout(block, r) || !check_layout(tiler, r, false)) return r;
  const int br = rank(block), tr = rank(tiler);
  const int R = br > tr ? br : tr;
  const Tree b = pad_to_rank(block, R);
  const Tree t = pad_to_rank(tiler, R);
  const Result<Tree> product = logical_product(b, t);
  if (!product.ok()) return product;
  const Tree& p = product.value;
  const int c = p.child(0, 1);  // the copies C, shaped like the padded tiler: an integral tiler
                                // gives one mode, even when its composition split into several
  Tree out{};
  out.push_tuple(R);
  for (int k = 0; k < R; ++k) {
    const int bk = b.is_leaf(0) ? 0 : b.child(0, k);
    const int ck = t.is_leaf(0) ? c : p.child(c, k);
    out.push_tuple(2);
    if (raked) {
      out.push_subtree(p, ck);
      out.push_subtree(b, bk);
    } else {
      out.push_subtree(b, bk);
      out.push_subtree(p, ck);
    }
  }
  return tree_result(out);
}

}  // namespace detail

CUTE_DSL_HOST_DEVICE constexpr Result<Tree> blocked_product(const Tree& block, const Tree& tiler) {
  return detail::zipped_rank_product(block, tiler, false);
}

CUTE_DSL_HOST_DEVICE constexpr Result<Tree> raked_product(const Tree& block, const Tree& tiler) {
  return detail::zipped_rank_product(block, tiler, true);
}

}  // namespace cute_dsl::tree
