// Test support for the algebra core: CuTe notation read into tree::Tree in a constant expression,
// the conformance checker's equality, a deterministic family of layouts shaped like the
// conformance inputs, and the postconditions checked by enumeration.
//
// The text is read by the library's one reader, layout/tree_parse.hpp: it is constexpr, so the
// golden cases double as static_assert proofs that each function works in a constant expression,
// and it does not depend on the run-time layer, so these tests pin the algebra alone.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cute_dsl/layout/tree_algebra.hpp"
#include "cute_dsl/layout/tree_parse.hpp"

namespace algebra_test {

using cute_dsl::tree::index_t;
using cute_dsl::tree::Tiler;
using cute_dsl::tree::Tree;

// ---- text: the library's own constexpr reader, so that golden cases can be static_asserts ------

// "((2,2),3):((1,4),2)" -> Tree. Malformed text gives a tree with `overflow` set, which every
// algebra function refuses, so a typo in a test cannot pass silently.
constexpr Tree L(const char* text) {
  const cute_dsl::tree::Parsed<Tree> r = cute_dsl::tree::parse_whole_layout(cute_dsl::tree::make_text(text));
  Tree t = r.value;
  if (!r.ok()) t.overflow = true;
  return t;
}

// "[2:1,(2,2):(1,4),3]" -> Tiler; an integer item n is the layout n:1.
constexpr Tiler T(const char* text) {
  const cute_dsl::tree::Parsed<Tiler> r = cute_dsl::tree::parse_whole_tiler(cute_dsl::tree::make_text(text));
  Tiler t = r.value;
  if (!r.ok()) t.modes.overflow = true;
  return t;
}

// The shapes equal after unwrapping every one-element tuple, as the conformance checker compares.
constexpr int unwrap_single(const Tree& t, int i) {
  while (!t.is_leaf(i) && t.nodes[i].children == 1) ++i;
  return i;
}
constexpr bool same_shape(const Tree& x, int i, const Tree& y, int j) {
  i = unwrap_single(x, i);
  j = unwrap_single(y, j);
  if (x.is_leaf(i) || y.is_leaf(j)) return x.is_leaf(i) && y.is_leaf(j) && x.nodes[i].shape == y.nodes[j].shape;
  if (x.nodes[i].children != y.nodes[j].children) return false;
  for (int k = 0; k < x.nodes[i].children; ++k)
    if (!same_shape(x, x.child(i, k), y, y.child(j, k))) return false;
  return true;
}

// Same function on [0, n).
constexpr bool same_function(const Tree& x, const Tree& y, index_t n) {
  for (index_t i = 0; i < n; ++i)
    if (cute_dsl::tree::evaluate(x, i) != cute_dsl::tree::evaluate(y, i)) return false;
  return true;
}

// Equal as the conformance checker defines it: same shape up to one-element tuples, and the same
// offset for every index of the domain (so strides of size-1 modes do not matter).
constexpr bool equivalent(const Tree& x, const Tree& y) {
  return !x.overflow && !y.overflow && same_shape(x, 0, y, 0) && same_function(x, y, cute_dsl::tree::size(x));
}

// An accepted result equivalent to the expected layout text.
constexpr bool gives(const cute_dsl::tree::Result<Tree>& r, const char* expected) {
  return r.ok() && equivalent(r.value, L(expected));
}

// A refusal naming the expected rule.
template <class V>
constexpr bool refuses(const cute_dsl::tree::Result<V>& r, cute_dsl::tree::Error rule) {
  return r.error == rule;
}

inline void append_text(std::string& out, const Tree& t, int i, bool strides) {
  if (t.is_leaf(i)) {
    out.append(std::to_string(strides ? t.nodes[i].stride : t.nodes[i].shape));
    return;
  }
  out.push_back('(');
  for (int k = 0; k < t.nodes[i].children; ++k) {
    if (k) out.push_back(',');
    append_text(out, t, t.child(i, k), strides);
  }
  out.push_back(')');
}

// "shape:stride" for failure messages.
inline std::string to_string(const Tree& t) {
  std::string s;
  append_text(s, t, 0, false);
  s.push_back(':');
  append_text(s, t, 0, true);
  return s;
}

// ---- generated layouts -------------------------------------------------------------------------

// A small deterministic generator (SplitMix64), so the families are the same on every platform.
class Generator {
 public:
  explicit Generator(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  int between(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<std::uint64_t>(hi - lo + 1)); }

  // Rank 1-3, depth <= 2, 1-5 leaves from the conformance extents, size <= max_size; strides
  // column-major, row-major, compact in a random order, padded, broadcast, or arbitrary 0-64.
  Tree layout(index_t max_size = 512) {
    static constexpr int kExtents[] = {1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 32};
    for (;;) {
      const int leaves = between(1, 5);
      std::vector<index_t> shape, stride(leaves);
      index_t size = 1;
      for (int k = 0; k < leaves; ++k) {
        shape.push_back(kExtents[between(0, 10)]);
        size *= shape.back();
      }
      if (size > max_size) continue;
      std::vector<int> order(leaves);
      for (int k = 0; k < leaves; ++k) order[k] = k;
      const int kind = between(0, 5);
      if (kind == 1)
        for (int k = 0; k < leaves / 2; ++k) std::swap(order[k], order[leaves - 1 - k]);
      if (kind == 2 || kind == 3)
        for (int k = leaves - 1; k > 0; --k) std::swap(order[k], order[between(0, k)]);
      index_t p = 1;
      for (int k : order) {
        if (kind == 3) p *= between(1, 3);
        stride[k] = p;
        p *= shape[k];
      }
      for (int k = 0; k < leaves; ++k) {
        if (kind == 4 && between(0, 2) == 0) stride[k] = 0;
        if (kind == 5) stride[k] = between(0, 64);
        if (shape[k] == 1 && between(0, 2) == 0) stride[k] = between(0, 64);
      }
      Tree t{};
      if (leaves == 1 && between(0, 3) == 0) {
        t.push_leaf(shape[0], stride[0]);
        return t;
      }
      const int rank = std::min(leaves, between(1, 3));
      std::vector<int> per_mode(rank, 1);
      for (int k = rank; k < leaves; ++k) ++per_mode[between(0, rank - 1)];
      t.push_tuple(rank);
      int leaf = 0;
      for (int m = 0; m < rank; ++m) {
        const bool group = per_mode[m] > 1 || between(0, 3) == 0;
        if (group) t.push_tuple(per_mode[m]);
        for (int j = 0; j < per_mode[m]; ++j, ++leaf) t.push_leaf(shape[leaf], stride[leaf]);
      }
      return t;
    }
  }

 private:
  std::uint64_t state_;
};

// ---- postconditions ----------------------------------------------------------------------------

// R(i) == A(B(i)) for every i < size(B), A continuing past its size through its last mode.
inline bool composes(const Tree& a, const Tree& b, const Tree& r) {
  using cute_dsl::tree::evaluate;
  if (cute_dsl::tree::size(r) != cute_dsl::tree::size(b)) return false;
  for (index_t i = 0; i < cute_dsl::tree::size(b); ++i)
    if (evaluate(r, i) != evaluate(a, evaluate(b, i))) return false;
  return true;
}

}  // namespace algebra_test
