// The value form of a hierarchical layout: a fixed-capacity tree of integers.
//
// Why a value form at all: the layout algebra is written once, as constexpr functions over
// this tree (layout/tree_algebra.hpp). The host tool and the JIT run those functions on
// run-time values; the templates (layout/algebra.hpp) run the very same functions at compile
// time on a tree encoded from their static types and decode the answer back into a type.
// Static and run-time answers therefore agree by construction.
//
// Encoding: nodes in preorder. A leaf holds (shape, stride); a tuple node holds the number of
// its children, which follow it (each child being a whole subtree). The root is nodes[0].
// An int-tuple is the same tree with every stride left at 0.
// A root leaf is an integral layout (`4:1`, rank 1, depth 0); a root tuple with one child is
// the one-element tuple `(4):(1)` (rank 1, depth 1). The two print and behave differently.
//
// No standard headers: this compiles under NVRTC at negligible cost.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/rule_text.hpp"

namespace cute_dsl::tree {

using index_t = long long;

inline constexpr int kCapacity = CUTE_DSL_TREE_CAPACITY;

struct Node {
  index_t shape = 1;
  index_t stride = 0;
  int children = -1;  // < 0: leaf; >= 0: tuple with this many children
};

// Structural (all public, no user constructors) so that a Tree can be a template argument.
struct Tree {
  Node nodes[kCapacity] = {};
  int count = 0;    // nodes in use
  bool overflow = false;  // set when an append did not fit; algebra turns it into Error::capacity

  CUTE_DSL_HOST_DEVICE constexpr bool is_leaf(int i) const { return nodes[i].children < 0; }

  // Index one past the subtree rooted at i.
  CUTE_DSL_HOST_DEVICE constexpr int next(int i) const {
    int pending = 1;
    while (pending > 0) {
      pending += (nodes[i].children < 0 ? 0 : nodes[i].children) - 1;
      ++i;
    }
    return i;
  }

  // Index of the k-th child of tuple node i.
  CUTE_DSL_HOST_DEVICE constexpr int child(int i, int k) const {
    int c = i + 1;
    for (int j = 0; j < k; ++j) c = next(c);
    return c;
  }

  // Number of top-level modes of the subtree at i: 1 for a leaf (CuTe's rank of an integer).
  CUTE_DSL_HOST_DEVICE constexpr int rank(int i = 0) const {
    return is_leaf(i) ? 1 : nodes[i].children;
  }

  CUTE_DSL_HOST_DEVICE constexpr int depth(int i = 0) const {
    if (is_leaf(i)) return 0;
    int d = 0, c = i + 1;
    for (int k = 0; k < nodes[i].children; ++k) {
      int dk = depth(c);
      d = dk > d ? dk : d;
      c = next(c);
    }
    return d + 1;
  }

  // Product of the shapes of the leaves under i.
  CUTE_DSL_HOST_DEVICE constexpr index_t size(int i = 0) const {
    index_t s = 1;
    for (int j = i, e = next(i); j < e; ++j)
      if (is_leaf(j)) s *= nodes[j].shape;
    return s;
  }

  // Builders: append in preorder. A tuple is opened with the final child count.
  CUTE_DSL_HOST_DEVICE constexpr int push_leaf(index_t shape, index_t stride) {
    if (count >= kCapacity) { overflow = true; return count; }
    nodes[count] = Node{shape, stride, -1};
    return count++;
  }
  CUTE_DSL_HOST_DEVICE constexpr int push_tuple(int children) {
    if (count >= kCapacity) { overflow = true; return count; }
    nodes[count] = Node{1, 0, children};
    return count++;
  }
  // Copy the subtree at i of `src` to the end of this tree.
  CUTE_DSL_HOST_DEVICE constexpr void push_subtree(const Tree& src, int i) {
    for (int j = i, e = src.next(i); j < e; ++j) {
      if (count >= kCapacity) { overflow = true; return; }
      nodes[count++] = src.nodes[j];
    }
  }
};

// The subtree at i of t, as a tree of its own.
CUTE_DSL_HOST_DEVICE constexpr Tree subtree(const Tree& t, int i) {
  Tree r{};
  r.push_subtree(t, i);
  r.overflow = t.overflow;
  return r;
}

CUTE_DSL_HOST_DEVICE constexpr bool operator==(const Tree& a, const Tree& b) {
  if (a.count != b.count) return false;
  for (int i = 0; i < a.count; ++i) {
    if (a.nodes[i].children != b.nodes[i].children) return false;
    if (a.nodes[i].children < 0 &&
        (a.nodes[i].shape != b.nodes[i].shape || a.nodes[i].stride != b.nodes[i].stride))
      return false;
  }
  return true;
}

// A tiler `[T0,T1,...]`: each top-level child of `modes` is one layout, applied to the mode of
// the same index. Kept as a distinct type because a tiler of layouts and a layout with a tuple
// shape would otherwise be the same tree.
struct Tiler {
  Tree modes{};
};

// Why an operation refused its input. Each names one rule; error_rule() gives its text.
enum class Error : int {
  none = 0,
  capacity,               // result would exceed kCapacity nodes
  stride_divisibility,    // composition: a stride of B must divide, or be a multiple of, A's extents
  shape_divisibility,     // composition: a shape of B must be divisible by the extents it spans
  complement_injective,   // complement: the input layout must be injective (no overlapping modes)
  complement_divisibility,// complement: sorted strides must nest exactly (d_{k+1} % (s_k d_k) == 0)
  left_inverse_divisibility,  // left_inverse: successive strides must divide
  left_inverse_injective, // left_inverse: the input must be injective
  rank_mismatch,          // a tiler has more modes than the layout, or ranks must agree
  congruence,             // shape and stride (or two int-tuples) are not congruent
  zero_shape,             // a shape of 0 or less
  negative_stride,        // not supported by the algebra
  division_by_zero,
  tile_divisibility,      // tile_to_shape: the target must be a multiple of the block in every mode
  overflow,               // integer overflow in an index computation
};

template <class T>
struct Result {
  T value{};
  Error error = Error::none;
  // The values that broke the rule (e.g. the stride and the extent), for the message.
  index_t detail0 = 0;
  index_t detail1 = 0;
  CUTE_DSL_HOST_DEVICE constexpr bool ok() const { return error == Error::none; }
};

// A short text naming the rule, e.g. "Stride Divisibility Condition". No allocation.
CUTE_DSL_HOST_DEVICE constexpr const char* error_rule(Error e) {
  switch (e) {
    case Error::none: return "no error";
    case Error::capacity: return CUTE_DSL_RULE_NAME_capacity;
    case Error::stride_divisibility: return CUTE_DSL_RULE_NAME_stride_divisibility;
    case Error::shape_divisibility: return CUTE_DSL_RULE_NAME_shape_divisibility;
    case Error::complement_injective: return CUTE_DSL_RULE_NAME_complement_injective;
    case Error::complement_divisibility: return CUTE_DSL_RULE_NAME_complement_divisibility;
    case Error::left_inverse_divisibility: return CUTE_DSL_RULE_NAME_left_inverse_divisibility;
    case Error::left_inverse_injective: return CUTE_DSL_RULE_NAME_left_inverse_injective;
    case Error::rank_mismatch: return CUTE_DSL_RULE_NAME_rank_mismatch;
    case Error::congruence: return CUTE_DSL_RULE_NAME_congruence;
    case Error::zero_shape: return CUTE_DSL_RULE_NAME_zero_shape;
    case Error::negative_stride: return CUTE_DSL_RULE_NAME_negative_stride;
    case Error::division_by_zero: return CUTE_DSL_RULE_NAME_division_by_zero;
    case Error::tile_divisibility: return CUTE_DSL_RULE_NAME_tile_divisibility;
    case Error::overflow: return CUTE_DSL_RULE_NAME_overflow;
  }
  return "unknown error";
}

}  // namespace cute_dsl::tree
