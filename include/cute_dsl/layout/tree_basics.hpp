// Queries and building blocks of the layout algebra over the value form tree::Tree:
// size, cosize, rank, depth, evaluation, flattening, and the flat mode list `Modes` that the
// algorithms in the other tree_*.hpp headers work on.
//
// Why a separate flat list: coalesce, composition, complement and the inverses all reason about
// the leaves of a layout in order, ignoring its nesting. Reading the leaves once into two plain
// arrays keeps their inner loops free of tree walks.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/tree.hpp"

namespace cute_dsl::tree {

// ---- small integer helpers ----------------------------------------------------------------------

namespace detail {

CUTE_DSL_HOST_DEVICE constexpr index_t min_index(index_t a, index_t b) { return a < b ? a : b; }
CUTE_DSL_HOST_DEVICE constexpr index_t abs_index(index_t a) { return a < 0 ? -a : a; }

inline constexpr index_t kIndexMax = 0x7fffffffffffffffLL;
inline constexpr index_t kIndexMin = -kIndexMax - 1;

// Only for b > 0 and a >= 0, which is all the algebra needs. Not (a + b - 1) / b: that sum
// overflows for a near kIndexMax.
CUTE_DSL_HOST_DEVICE constexpr index_t ceil_div(index_t a, index_t b) { return a / b + (a % b != 0 ? 1 : 0); }

// Checked arithmetic. Every product and sum of shapes, strides and offsets in the algebra that
// is not bounded by an already checked size or cosize goes through these, so that no operation
// ever computes a wrapped value (signed overflow is undefined behaviour, and in a constant
// expression a hard error). They write `out` and return true only when the exact result fits;
// on false `out` is left unchanged. Portable division tests rather than __builtin_*_overflow,
// so that every compiler (NVRTC included) evaluates them in constant expressions.
CUTE_DSL_HOST_DEVICE constexpr bool mul_fits(index_t a, index_t b, index_t& out) {
  if (a != 0 && b != 0) {
    const bool fits = a > 0 ? (b > 0 ? a <= kIndexMax / b : b >= kIndexMin / a)
                            : (b > 0 ? a >= kIndexMin / b : b >= kIndexMax / a);
    if (!fits) return false;
  }
  out = a * b;
  return true;
}

CUTE_DSL_HOST_DEVICE constexpr bool add_fits(index_t a, index_t b, index_t& out) {
  if (b > 0 ? a > kIndexMax - b : a < kIndexMin - b) return false;
  out = a + b;
  return true;
}

}  // namespace detail

// ---- builders -----------------------------------------------------------------------------------

CUTE_DSL_HOST_DEVICE constexpr Tree make_tree_leaf(index_t shape, index_t stride) {
  Tree t{};
  t.push_leaf(shape, stride);
  return t;
}

// The layout (a, b): a rank-2 tuple whose modes are the two given trees.
CUTE_DSL_HOST_DEVICE constexpr Tree make_tree_pair(const Tree& a, const Tree& b) {
  Tree t{};
  t.push_tuple(2);
  t.push_subtree(a, 0);
  t.push_subtree(b, 0);
  t.overflow = t.overflow || a.overflow || b.overflow;
  return t;
}

// Mode k of a layout as a layout of its own. An integral layout is its own mode 0, as in CuTe.
CUTE_DSL_HOST_DEVICE constexpr Tree mode(const Tree& t, int k) {
  if (t.is_leaf(0)) return t;
  return subtree(t, t.child(0, k));
}

// ---- queries ------------------------------------------------------------------------------------

CUTE_DSL_HOST_DEVICE constexpr index_t size(const Tree& t) { return t.size(0); }
CUTE_DSL_HOST_DEVICE constexpr int rank(const Tree& t) { return t.rank(0); }
CUTE_DSL_HOST_DEVICE constexpr int depth(const Tree& t) { return t.depth(0); }

// 1 + sum (s-1)|d| over the leaves: the last offset plus one for non-negative strides. This is
// CuTe's cosize, not the number of distinct offsets.
CUTE_DSL_HOST_DEVICE constexpr index_t cosize(const Tree& t) {
  index_t c = 1;
  for (int i = 0; i < t.count; ++i)
    if (t.is_leaf(i)) c += (t.nodes[i].shape - 1) * detail::abs_index(t.nodes[i].stride);
  return c;
}

// The offset of a linear index: split colexicographically (leftmost leaf fastest), then the inner
// product with the strides. The last leaf takes whatever remains, so past size(t) the layout
// continues through its last mode, as CuTe's evaluation does.
CUTE_DSL_HOST_DEVICE constexpr index_t evaluate(const Tree& t, index_t linear_index) {
  int last = -1;
  for (int i = 0; i < t.count; ++i)
    if (t.is_leaf(i)) last = i;
  index_t offset = 0;
  for (int i = 0; i <= last; ++i) {
    if (!t.is_leaf(i)) continue;
    const Node& n = t.nodes[i];
    if (i == last) {
      offset += linear_index * n.stride;
    } else {
      offset += (linear_index % n.shape) * n.stride;
      linear_index /= n.shape;
    }
  }
  return offset;
}

// All leaves as the modes of one tuple, in order. An integral layout stays integral; a rank-1
// tuple stays a rank-1 tuple.
CUTE_DSL_HOST_DEVICE constexpr Tree flatten(const Tree& t) {
  if (t.is_leaf(0)) return t;
  int leaves = 0;
  for (int i = 0; i < t.count; ++i) leaves += t.is_leaf(i) ? 1 : 0;
  Tree r{};
  r.push_tuple(leaves);
  for (int i = 0; i < t.count; ++i)
    if (t.is_leaf(i)) r.push_leaf(t.nodes[i].shape, t.nodes[i].stride);
  r.overflow = r.overflow || t.overflow;
  return r;
}

// ---- input checks -------------------------------------------------------------------------------

// The rules every input layout must meet before any algorithm runs: it fits (no overflowed
// builder), it is a well-formed preorder tree, every shape is positive, and its size and cosize
// fit in index_t (the same bound the reader in runtime/parse.hpp applies, so every layout that
// reads is accepted here). `allow_negative_strides` is false for the operations whose algorithms
// sort or divide by strides (complement, the inverses, the right side of a composition).
// Every result passes the same check (tree_result), so a result is always a valid input again.
// On overflow (detail0, detail1) are the shape and stride of the leaf at which the size or the
// cosize stopped fitting.
template <class T>
CUTE_DSL_HOST_DEVICE constexpr bool check_layout(const Tree& t, Result<T>& r, bool allow_negative_strides = true) {
  if (t.overflow) { r.error = Error::capacity; r.detail0 = kCapacity; return false; }
  if (t.count <= 0 || t.next(0) != t.count) { r.error = Error::congruence; return false; }
  index_t sz = 1, co = 1;
  for (int i = 0; i < t.count; ++i) {
    const Node& n = t.nodes[i];
    if (!t.is_leaf(i)) {
      if (n.children == 0) { r.error = Error::congruence; return false; }
      continue;
    }
    if (n.shape <= 0) { r.error = Error::zero_shape; r.detail0 = n.shape; return false; }
    if (n.stride < 0 && !allow_negative_strides) {
      r.error = Error::negative_stride; r.detail0 = n.stride; return false;
    }
    index_t span = 0;
    if (n.stride == detail::kIndexMin || !detail::mul_fits(sz, n.shape, sz) ||
        !detail::mul_fits(n.shape - 1, detail::abs_index(n.stride), span) || !detail::add_fits(co, span, co)) {
      r.error = Error::overflow; r.detail0 = n.shape; r.detail1 = n.stride; return false;
    }
  }
  return true;
}

template <class T>
CUTE_DSL_HOST_DEVICE constexpr Result<T> make_error(Error e, index_t d0 = 0, index_t d1 = 0) {
  Result<T> r{};
  r.error = e;
  r.detail0 = d0;
  r.detail1 = d1;
  return r;
}

// A finished tree as a Result. Results must meet the input rules: a builder that ran out of
// nodes becomes Error::capacity, a size or cosize beyond index_t Error::overflow.
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> tree_result(const Tree& t) {
  Result<Tree> r{};
  if (!check_layout(t, r)) return r;
  r.value = t;
  return r;
}

// ---- the flat mode list -------------------------------------------------------------------------

struct Modes {
  index_t shape[kCapacity] = {};
  index_t stride[kCapacity] = {};
  int count = 0;
  bool overflow = false;

  CUTE_DSL_HOST_DEVICE constexpr void push(index_t s, index_t d) {
    if (count >= kCapacity) { overflow = true; return; }
    shape[count] = s;
    stride[count] = d;
    ++count;
  }
};

// The leaves of the subtree at node i, in order.
CUTE_DSL_HOST_DEVICE constexpr Modes leaves(const Tree& t, int i = 0) {
  Modes m{};
  for (int j = i, e = t.next(i); j < e; ++j)
    if (t.is_leaf(j)) m.push(t.nodes[j].shape, t.nodes[j].stride);
  m.overflow = m.overflow || t.overflow;
  return m;
}

// A flat mode list as a layout: no modes is `1:0`, one mode is integral, more are a flat tuple.
CUTE_DSL_HOST_DEVICE constexpr Tree from_modes(const Modes& m) {
  Tree t{};
  if (m.count == 0) {
    t.push_leaf(1, 0);
  } else if (m.count == 1) {
    t.push_leaf(m.shape[0], m.stride[0]);
  } else {
    t.push_tuple(m.count);
    for (int k = 0; k < m.count; ++k) t.push_leaf(m.shape[k], m.stride[k]);
  }
  t.overflow = t.overflow || m.overflow;
  return t;
}

CUTE_DSL_HOST_DEVICE constexpr index_t size(const Modes& m) {
  index_t s = 1;
  for (int k = 0; k < m.count; ++k) s *= m.shape[k];
  return s;
}

// evaluate() on a flat list, checked: false when a product or sum on the way does not fit
// (past the size, the last mode continues without bound). The last mode takes the remainder.
CUTE_DSL_HOST_DEVICE constexpr bool evaluate_fits(const Modes& m, index_t linear_index, index_t& out) {
  index_t offset = 0, term = 0;
  for (int k = 0; k + 1 < m.count; ++k) {
    if (!detail::mul_fits(linear_index % m.shape[k], m.stride[k], term) || !detail::add_fits(offset, term, offset))
      return false;
    linear_index /= m.shape[k];
  }
  if (m.count > 0 &&
      (!detail::mul_fits(linear_index, m.stride[m.count - 1], term) || !detail::add_fits(offset, term, offset)))
    return false;
  out = offset;
  return true;
}

// Walks the linear indices 0, 1, 2, ... of a flat mode list, keeping the coordinate and the
// offset, so that enumerating a whole domain costs O(1) per index instead of O(rank). Within
// the domain of a checked layout every offset it holds is below the cosize (a mode about to
// wrap is reset before it would step past its extent), provided it is not advanced past the
// last index of the domain.
struct Odometer {
  index_t coord[kCapacity] = {};
  index_t offset = 0;

  CUTE_DSL_HOST_DEVICE constexpr void advance(const Modes& m) {
    for (int k = 0; k < m.count; ++k) {
      if (coord[k] + 1 < m.shape[k] || k + 1 == m.count) {
        ++coord[k];
        offset += m.stride[k];
        return;
      }
      offset -= coord[k] * m.stride[k];
      coord[k] = 0;
    }
  }
};

// Indices of the modes of m ordered by increasing stride with CuTe's exchange sort: for each i,
// swap with every later j whose key is smaller. It is unstable, and the inverses depend on how
// it breaks ties between equal strides.
CUTE_DSL_HOST_DEVICE constexpr void exchange_sort_by_stride(const Modes& m, int* order) {
  for (int k = 0; k < m.count; ++k) order[k] = k;
  for (int i = 0; i < m.count; ++i)
    for (int j = i + 1; j < m.count; ++j)
      if (m.stride[order[j]] < m.stride[order[i]]) {
        int tmp = order[i];
        order[i] = order[j];
        order[j] = tmp;
      }
}

}  // namespace cute_dsl::tree
