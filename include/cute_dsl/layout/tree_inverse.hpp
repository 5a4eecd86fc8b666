// right_inverse and left_inverse.
//
// right_inverse(L): R with L(R(i)) == i for i < size(R), as large as L allows. Coalesce L, visit
// its modes by increasing stride (CuTe's exchange sort, which decides ties), and chain the modes
// whose stride equals the running product (starting at 1); each chained mode keeps its shape and
// gets as stride its column-major position in the coalesced L.
//
// left_inverse(L): R with L(R(L(i))) == L(i). Coalesce L, same sort, skip 0-strides; the shapes
// are the ratios of successive strides d_1, d_2/d_1, ... (then the last mode's shape), with
// strides 0 then the column-major positions of the modes visited. CuTe requires each ratio to
// be exact; it does not check that L is injective, and for an overlapping L the result can break
// the postcondition. We require the postcondition: at once when the sorted modes do not overlap
// (s_k*d_k <= d_{k+1}), otherwise by checking every i.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/tree.hpp"
#include "cute_dsl/layout/tree_basics.hpp"
#include "cute_dsl/layout/tree_coalesce.hpp"

namespace cute_dsl::tree {

namespace detail {

// Column-major position (prefix product of the shapes) of each mode. Each is at most the size
// of the checked layout the modes came from, so none overflows.
CUTE_DSL_HOST_DEVICE constexpr void column_major_strides(const Modes& m, index_t* out) {
  index_t p = 1;
  for (int k = 0; k < m.count; ++k) {
    out[k] = p;
    if (k + 1 < m.count) p *= m.shape[k];
  }
}

// What both inverses start from: L coalesced, its modes in CuTe's visiting order (exchange sort
// by stride), and each mode's column-major position in the coalesced L.
struct SortedModes {
  Modes c{};
  int order[kCapacity] = {};
  index_t position[kCapacity] = {};
};

CUTE_DSL_HOST_DEVICE constexpr SortedModes sorted_modes(const Tree& layout) {
  SortedModes m{};
  m.c = coalesce_modes(leaves(layout), false);
  exchange_sort_by_stride(m.c, m.order);
  column_major_strides(m.c, m.position);
  return m;
}

// Above this many indices an overlapping layout's left inverse is refused rather than left
// unchecked. The refusal is Error::left_inverse_injective with detail0 = the domain size and
// detail1 = -kMaxEnumeratedInverse (negative: "could not check", unlike a found collision,
// whose details are two non-negative offsets).
inline constexpr index_t kMaxEnumeratedInverse = index_t(1) << 22;

}  // namespace detail

CUTE_DSL_HOST_DEVICE constexpr Result<Tree> right_inverse(const Tree& layout) {
  Result<Tree> r{};
  if (!check_layout(layout, r, false)) return r;
  const detail::SortedModes sorted = detail::sorted_modes(layout);
  const Modes& c = sorted.c;
  const int* order = sorted.order;
  const index_t* position = sorted.position;
  Modes out{};
  index_t next = 1;
  for (int k = 0; k < c.count; ++k) {
    const int i = order[k];
    if (c.stride[i] != next) continue;
    out.push(c.shape[i], position[i]);
    next *= c.shape[i];
  }
  return tree_result(from_modes(detail::coalesce_modes(out, false)));
}

CUTE_DSL_HOST_DEVICE constexpr Result<Tree> left_inverse(const Tree& layout) {
  Result<Tree> r{};
  if (!check_layout(layout, r, false)) return r;
  const detail::SortedModes sorted = detail::sorted_modes(layout);
  const Modes& c = sorted.c;
  const int* order = sorted.order;
  const index_t* position = sorted.position;

  Modes out{};
  index_t previous = 1;  // the stride of the mode visited last
  index_t next_stride = 0;
  int last = order[c.count - 1];
  index_t previous_extent = 0;  // s*d of the mode visited last
  bool separated = true;  // sorted modes do not overlap: the postcondition holds without checking
  for (int k = 0; k < c.count; ++k) {
    const int i = order[k];
    const index_t d = c.stride[i];
    if (d == 0) continue;
    if (d % previous != 0) return make_error<Tree>(Error::left_inverse_divisibility, d, previous);
    if (previous_extent > d) separated = false;
    // s*d that does not fit exceeds every later stride (each is below the cosize): an overlap.
    if (!detail::mul_fits(c.shape[i], d, previous_extent)) previous_extent = detail::kIndexMax;
    out.push(d / previous, next_stride);
    next_stride = position[i];
    previous = d;
    last = i;
  }
  out.push(c.shape[last], next_stride);
  const Result<Tree> checked = tree_result(from_modes(detail::coalesce_modes(out, false)));
  if (!checked.ok()) return checked;
  const Tree& result = checked.value;

  if (!separated) {
    const Modes lm = leaves(layout);
    const Modes rm = leaves(result);
    const index_t n = size(lm);
    if (n > detail::kMaxEnumeratedInverse)
      return make_error<Tree>(Error::left_inverse_injective, n, -detail::kMaxEnumeratedInverse);
    Odometer ol{};
    for (index_t x = 0; x < n; ++x) {
      if (x > 0) ol.advance(lm);
      const index_t y = ol.offset;
      index_t position = 0, back = 0;
      if (!evaluate_fits(rm, y, position) || !evaluate_fits(lm, position, back))
        return make_error<Tree>(Error::overflow, y, position);
      if (back != y) return make_error<Tree>(Error::left_inverse_injective, y, back);
    }
  }
  r.value = result;
  return r;
}

}  // namespace cute_dsl::tree
