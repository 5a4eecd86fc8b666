// max_common_vector and max_common_layout: how many consecutive elements two layouts of the same
// shape place at the same consecutive offsets.
//
// common = coalesce(composition(a, right_inverse(b))) maps positions of b's contiguous run to
// offsets of a; its first mode, if it has stride 1, is the shared contiguous vector.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/tree.hpp"
#include "cute_dsl/layout/tree_basics.hpp"
#include "cute_dsl/layout/tree_coalesce.hpp"
#include "cute_dsl/layout/tree_composition.hpp"
#include "cute_dsl/layout/tree_inverse.hpp"

namespace cute_dsl::tree {

namespace detail {

struct CommonVector {
  Tree inverse_b{};
  index_t length = 1;  // 1 when the first mode of `common` is not stride-1
};

CUTE_DSL_HOST_DEVICE constexpr Result<CommonVector> common_vector(const Tree& a, const Tree& b) {
  Result<CommonVector> r{};
  if (!check_layout(a, r) || !check_layout(b, r, false)) return r;
  const Result<Tree> inv = right_inverse(b);
  if (!inv.ok()) return make_error<CommonVector>(inv.error, inv.detail0, inv.detail1);
  const Result<Tree> composed = composition(a, inv.value);
  if (!composed.ok()) return make_error<CommonVector>(composed.error, composed.detail0, composed.detail1);
  const Modes common = coalesce_modes(leaves(composed.value), false);
  r.value.inverse_b = inv.value;
  r.value.length = common.stride[0] == 1 ? common.shape[0] : 1;
  return r;
}

}  // namespace detail

CUTE_DSL_HOST_DEVICE constexpr Result<index_t> max_common_vector(const Tree& a, const Tree& b) {
  const Result<detail::CommonVector> c = detail::common_vector(a, b);
  Result<index_t> r{};
  if (!c.ok()) return make_error<index_t>(c.error, c.detail0, c.detail1);
  r.value = c.value.length;
  return r;
}

// The layout of the common vector in b's domain: right_inverse(b) restricted to its first
// `max_common_vector` positions; `1:0` when there is none.
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> max_common_layout(const Tree& a, const Tree& b) {
  const Result<detail::CommonVector> c = detail::common_vector(a, b);
  if (!c.ok()) return make_error<Tree>(c.error, c.detail0, c.detail1);
  if (c.value.length == 1) return tree_result(make_tree_leaf(1, 0));
  return composition(c.value.inverse_b, make_tree_leaf(c.value.length, 1));
}

}  // namespace cute_dsl::tree
