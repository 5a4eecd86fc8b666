// tile_to_shape: copies of a block laid side by side until they fill a target shape.
//
//   tile_to_shape(B, T, O) = coalesce(blocked_product(B', ordered(P, O)), P)
//     B'   B padded with 1:0 modes to rank(T)
//     P    the copies per mode, P_k = size(T_k) / size(B'_k), exact (Tile Divisibility Condition)
//     O    the order in which the modes of P are laid out, one positive integer per mode: the
//          mode with the smallest O_k is the fastest (ties go to the lower mode). No O means
//          (1,2,...,R): mode 0 first, column-major.
//     ordered(P, O)  P compact in that order: stride_k = product of the P_j laid out before k.
//   The result has rank(T) modes, mode k of size size(T_k), each coalesced on its own (only the
//   sizes of T's modes matter, as in CuTe; an integer T gives an integral result).
//
//   tile_to_shape((8,64):(64,1), (128,64,4))            == (128,64,4):(64,1,8192)
//   tile_to_shape((64,8):(1,64), (128,64,4), (2,1,3))   == ((64,2),64,4):((1,4096),64,8192)
//
// Why a tree operation and not just its three steps in the templates: the static answer is then
// one constant evaluation (not three), the `cute-dsl layout` tool gets the same function, and a
// target that the block does not divide is refused with tile_to_shape's own rule.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/tree.hpp"
#include "cute_dsl/layout/tree_basics.hpp"
#include "cute_dsl/layout/tree_coalesce.hpp"
#include "cute_dsl/layout/tree_product.hpp"

namespace cute_dsl::tree {

namespace detail {

// Size of top-level mode k of t (an integral t is its own mode 0).
CUTE_DSL_HOST_DEVICE constexpr index_t mode_size(const Tree& t, int k) {
  return t.is_leaf(0) ? t.nodes[0].shape : t.size(t.child(0, k));
}

// Whether mode j is laid out before mode k under `order` (see the header comment).
CUTE_DSL_HOST_DEVICE constexpr bool laid_out_before(const Tree& order, int j, int k) {
  if (order.count <= 0) return j < k;
  const index_t oj = mode_size(order, j), ok = mode_size(order, k);
  return oj < ok || (oj == ok && j < k);
}

// `rank` leaves (a leaf itself when `integral`), leaf k = (shape[k], stride[k]).
CUTE_DSL_HOST_DEVICE constexpr Tree modes_as_tree(const Modes& m, bool integral) {
  if (integral) return make_tree_leaf(m.shape[0], m.stride[0]);
  Tree t{};
  t.push_tuple(m.count);
  for (int k = 0; k < m.count; ++k) t.push_leaf(m.shape[k], m.stride[k]);
  return t;
}

}  // namespace detail

// @pre rank(block) <= rank(target); `order` empty (count 0) or a flat int-tuple of rank(target)
// @post rank(result) == rank(target), size of mode k == size of target mode k,
//       cosize(result) == cosize(block') * size(P) for a compact block
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> tile_to_shape(const Tree& block, const Tree& target, const Tree& order) {
  Result<Tree> r{};
  if (!check_layout(block, r) || !check_layout(target, r)) return r;
  const int R = rank(target);
  if (rank(block) > R) return make_error<Tree>(Error::rank_mismatch, rank(block), R);
  if (order.count > 0) {
    if (order.overflow || order.next(0) != order.count || depth(order) > 1)
      return make_error<Tree>(Error::congruence);
    if (rank(order) != R) return make_error<Tree>(Error::rank_mismatch, rank(order), R);
  }
  const Tree b = detail::pad_to_rank(block, R);
  Modes copies{};  // P, with the stride of its ordered layout
  for (int k = 0; k < R; ++k) {
    const index_t t = detail::mode_size(target, k), s = detail::mode_size(b, k);
    if (t % s != 0) return make_error<Tree>(Error::tile_divisibility, t, s);
    copies.push(t / s, 1);
  }
  for (int k = 0; k < R; ++k)
    for (int j = 0; j < R; ++j)
      if (j != k && detail::laid_out_before(order, j, k) &&
          !detail::mul_fits(copies.stride[k], copies.shape[j], copies.stride[k]))
        return make_error<Tree>(Error::overflow, copies.stride[k], copies.shape[j]);
  const bool integral = target.is_leaf(0);
  const Result<Tree> product = blocked_product(b, detail::modes_as_tree(copies, integral));
  if (!product.ok()) return product;
  Modes profile{};
  for (int k = 0; k < R; ++k) profile.push(1, 0);
  return coalesce(product.value, detail::modes_as_tree(profile, integral));
}

// Column-major order: mode 0's copies first.
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> tile_to_shape(const Tree& block, const Tree& target) {
  return tile_to_shape(block, target, Tree{});
}

}  // namespace cute_dsl::tree
