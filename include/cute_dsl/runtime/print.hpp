// Writing the value form back as CuTe notation: `((2,2),3):((1,4),2)`.
//
// Run-time integers print without CuTe's `_` prefix (they are not static). An integral root
// prints as `4:1`, a one-element tuple as `(4):(1)`: the two are different layouts (rank 1 with
// depth 0 vs depth 1) and the text keeps them apart, so that parse(to_string(t)) == t.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/tree.hpp"

#if CUTE_DSL_HOST_ONLY_CODE
#include <ostream>
#include <string>

namespace cute_dsl::runtime {

namespace detail {

enum class Field { shape, stride };

inline void append_subtree(std::string& out, const tree::Tree& t, int i, Field field) {
  if (t.is_leaf(i)) {
    out += std::to_string(field == Field::shape ? t.nodes[i].shape : t.nodes[i].stride);
    return;
  }
  out += '(';
  int c = i + 1;
  for (int k = 0; k < t.nodes[i].children; ++k) {
    if (k) out += ',';
    append_subtree(out, t, c, field);
    c = t.next(c);
  }
  out += ')';
}

}  // namespace detail

// The shape of `t` alone, e.g. `((2,2),3)`. Also prints int-tuples (trees with zero strides).
inline std::string int_tuple_to_string(const tree::Tree& t, int node = 0) {
  std::string s;
  if (t.count == 0) return "()";
  detail::append_subtree(s, t, node, detail::Field::shape);
  return s;
}

inline std::string stride_to_string(const tree::Tree& t, int node = 0) {
  std::string s;
  if (t.count == 0) return "()";
  detail::append_subtree(s, t, node, detail::Field::stride);
  return s;
}

// `shape:stride` of the subtree at `node` (the whole layout by default).
inline std::string to_string(const tree::Tree& t, int node = 0) {
  return int_tuple_to_string(t, node) + ":" + stride_to_string(t, node);
}

// `[T0,T1,...]`, each mode printed as a layout.
inline std::string to_string(const tree::Tiler& tiler) {
  const tree::Tree& m = tiler.modes;
  std::string s = "[";
  if (m.count > 0) {
    if (m.is_leaf(0)) {
      s += to_string(m, 0);  // a one-mode tiler stored as a bare leaf
    } else {
      int c = 1;
      for (int k = 0; k < m.nodes[0].children; ++k) {
        if (k) s += ',';
        s += to_string(m, c);
        c = m.next(c);
      }
    }
  }
  return s + "]";
}

}  // namespace cute_dsl::runtime

namespace cute_dsl::tree {
// Found by argument-dependent lookup: `std::cout << tree` prints CuTe notation.
inline std::ostream& operator<<(std::ostream& os, const Tree& t) { return os << runtime::to_string(t); }
inline std::ostream& operator<<(std::ostream& os, const Tiler& t) { return os << runtime::to_string(t); }
}  // namespace cute_dsl::tree

#endif  // CUTE_DSL_HOST_ONLY_CODE
