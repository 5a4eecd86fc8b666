// The host run-time layout: a thin class over tree::Tree whose algebra throws LayoutError.
//
// Why it exists: the algebra is written once, as constexpr functions over tree::Tree that report
// failures as values (tree::Result). Host code (the `cute-dsl` tool, the JIT reasoning about
// layouts only known at run time) wants exceptions whose text names the function the *user*
// called and the rule that failed. This file is only that translation; it computes nothing
// itself, so run-time and compile-time answers agree by construction.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/tree.hpp"

#if CUTE_DSL_HOST_ONLY_CODE
#include "cute_dsl/layout/tree_algebra.hpp"
#include "cute_dsl/runtime/parse.hpp"
#include "cute_dsl/runtime/print.hpp"
#include "cute_dsl/util/error.hpp"

#include <initializer_list>
#include <ostream>
#include <string>
#include <string_view>

namespace cute_dsl::runtime {

class Layout {
 public:
  Layout() : tree_(tree::make_tree_leaf(1, 0)) {}
  // Trusts `t` to be well formed (congruent, positive shapes): use parse() for untrusted text.
  explicit Layout(const tree::Tree& t) : tree_(t) {}
  Layout(tree::index_t shape, tree::index_t stride) : tree_(tree::make_tree_leaf(shape, stride)) {}

  static Layout parse(std::string_view text) { return Layout(parse_layout(text)); }

  const tree::Tree& tree() const { return tree_; }

  tree::index_t size() const { return tree::size(tree_); }
  tree::index_t cosize() const { return tree::cosize(tree_); }
  int rank() const { return tree::rank(tree_); }
  int depth() const { return tree::depth(tree_); }

  // Offset of a linear index (colexicographic coordinate, then inner product with the strides).
  tree::index_t operator()(tree::index_t linear_index) const { return tree::evaluate(tree_, linear_index); }

  // Top-level mode k; an integral layout is its own mode 0.
  Layout mode(int k) const {
    if (k < 0 || k >= rank())
      throw LayoutError("mode", tree::Error::rank_mismatch,
                        "mode " + std::to_string(k) + " of a rank-" + std::to_string(rank()) + " layout " +
                            to_string());
    if (tree_.is_leaf(0)) return *this;
    return Layout(tree::subtree(tree_, tree_.child(0, k)));
  }

  std::string to_string() const { return runtime::to_string(tree_); }

  friend bool operator==(const Layout& a, const Layout& b) { return a.tree_ == b.tree_; }
  friend std::ostream& operator<<(std::ostream& os, const Layout& l) { return os << l.to_string(); }

 private:
  tree::Tree tree_;
};

// A tiler `[T0,T1,...]`: mode i of a layout is divided/composed/multiplied by Ti.
class Tiler {
 public:
  Tiler() { tiler_.modes.push_tuple(0); }
  explicit Tiler(const tree::Tiler& t) : tiler_(t) {}
  Tiler(std::initializer_list<Layout> modes) {
    tiler_.modes.push_tuple(static_cast<int>(modes.size()));
    for (const Layout& m : modes) append_checked(m);
  }

  void push_back(const Layout& m) {
    append_checked(m);
    ++tiler_.modes.nodes[0].children;
  }

  const tree::Tiler& tiler() const { return tiler_; }
  int rank() const { return tiler_.modes.rank(); }
  Layout mode(int k) const { return Layout(tree::subtree(tiler_.modes, tiler_.modes.child(0, k))); }

  std::string to_string() const { return runtime::to_string(tiler_); }
  friend std::ostream& operator<<(std::ostream& os, const Tiler& t) { return os << t.to_string(); }

 private:
  void append_checked(const Layout& m) {
    tiler_.modes.push_subtree(m.tree(), 0);
    if (tiler_.modes.overflow)
      throw LayoutError("tiler", tree::Error::capacity,
                        "the tiler's modes need more than " + std::to_string(tree::kCapacity) + " nodes");
  }
  tree::Tiler tiler_;
};

namespace detail {

// What the rule means for the values the algebra reports in (detail0, detail1); the meaning of
// each pair is fixed by the algebra (layout/tree_*.hpp) per rule.
inline std::string rule_detail(tree::Error e, tree::index_t d0, tree::index_t d1) {
  const std::string a = std::to_string(d0), b = std::to_string(d1);
  switch (e) {
    case tree::Error::stride_divisibility:
      return "stride " + a + " of the right-hand layout does not step exactly through extent " + b +
             " of the left-hand layout (it must divide it or be a multiple of it, and the right-hand modes must "
             "not carry into the next left-hand mode)";
    case tree::Error::shape_divisibility:
      return "shape " + a + " of the right-hand layout is not divisible by " + b +
             ", the number of elements the left-hand mode provides at that stride";
    case tree::Error::complement_injective:
      return "stride " + a + " is smaller than " + b +
             ", the extent (shape*stride) of the mode before it, so the modes overlap";
    case tree::Error::complement_divisibility:
      return "stride " + a + " is not a multiple of " + b + ", the extent (shape*stride) of the mode before it";
    case tree::Error::left_inverse_divisibility:
      return "stride " + a + " is not a multiple of the previous stride " + b;
    case tree::Error::left_inverse_injective:
      if (d1 < 0)  // the algebra's way of saying the check could not run (layout/tree_inverse.hpp)
        return "the layout overlaps itself and its " + a + " indices are too many to check that a left inverse exists "
               "(the check enumerates at most " + std::to_string(-d1) + ")";
      return "the layout maps several coordinates to one offset, so no left inverse exists (values " + a + " and " +
             b + ")";
    case tree::Error::rank_mismatch:
      return "the tiler has " + a + " modes but the layout only " + b;
    case tree::Error::capacity:
      return "the result would need more than " + std::to_string(tree::kCapacity) + " nodes";
    case tree::Error::overflow:
      return "a value computed from " + a + " and " + b + " does not fit in 64 bits";
    case tree::Error::zero_shape:
      return "got " + a;
    case tree::Error::tile_divisibility:
      return "a mode of size " + a + " of the target is not a multiple of " + b + ", the size of the block's mode";
    default:
      return "values " + a + " and " + b;
  }
}

// The step inside a compound operation that applies each rule, so that an error from
// logical_divide says it came from the composition (or complement) it performs.
inline const char* rule_step(tree::Error e) {
  switch (e) {
    case tree::Error::stride_divisibility:
    case tree::Error::shape_divisibility: return "composition";
    case tree::Error::complement_injective:
    case tree::Error::complement_divisibility: return "complement";
    case tree::Error::left_inverse_divisibility:
    case tree::Error::left_inverse_injective: return "left_inverse";
    default: return nullptr;
  }
}

template <class T>
T unwrap(const char* op, const tree::Result<T>& r, const std::string& inputs) {
  // The algebra checks every result as it checks its inputs (tree_result), so a value here is
  // always a representable layout: no wrapped-around value can reach the caller.
  if (r.ok()) return r.value;
  std::string detail = rule_detail(r.error, r.detail0, r.detail1);
  const char* step = rule_step(r.error);
  if (step && std::string_view(step) != op) detail += " (in the " + std::string(step) + " that " + op + " performs)";
  detail += "; inputs " + inputs;
  throw LayoutError(op, r.error, detail);
}

inline std::string args(const Layout& a) { return a.to_string(); }
inline std::string args(const Layout& a, const Layout& b) { return a.to_string() + " and " + b.to_string(); }
inline std::string args(const Layout& a, const Tiler& b) { return a.to_string() + " and " + b.to_string(); }

}  // namespace detail

// ---- unary -----------------------------------------------------------------------------------

inline Layout flatten(const Layout& l) { return Layout(tree::flatten(l.tree())); }
inline Layout coalesce(const Layout& l) {
  return Layout(detail::unwrap("coalesce", tree::coalesce(l.tree()), detail::args(l)));
}
// CuTe's coalesce(layout, trg_profile): coalesce within each mode of `profile` (an int-tuple).
inline Layout coalesce(const Layout& l, const tree::Tree& profile) {
  return Layout(detail::unwrap("coalesce", tree::coalesce(l.tree(), profile),
                               detail::args(l) + " with profile " + int_tuple_to_string(profile)));
}
inline Layout filter(const Layout& l) { return Layout(detail::unwrap("filter", tree::filter(l.tree()), detail::args(l))); }
inline Layout right_inverse(const Layout& l) {
  return Layout(detail::unwrap("right_inverse", tree::right_inverse(l.tree()), detail::args(l)));
}
inline Layout left_inverse(const Layout& l) {
  return Layout(detail::unwrap("left_inverse", tree::left_inverse(l.tree()), detail::args(l)));
}
inline Layout complement(const Layout& l) {
  return Layout(detail::unwrap("complement", tree::complement(l.tree()), detail::args(l)));
}
inline Layout complement(const Layout& l, tree::index_t cotarget) {
  return Layout(detail::unwrap("complement", tree::complement(l.tree(), cotarget),
                               detail::args(l) + " with cotarget " + std::to_string(cotarget)));
}

inline tree::index_t size(const Layout& l) { return l.size(); }
inline tree::index_t cosize(const Layout& l) { return l.cosize(); }
inline int rank(const Layout& l) { return l.rank(); }
inline int depth(const Layout& l) { return l.depth(); }

// ---- binary: composition, divides and products, each with a layout or a tiler ------------------

#define CUTE_DSL_RUNTIME_BINARY_OP(name)                                                        \
  inline Layout name(const Layout& a, const Layout& b) {                                         \
    return Layout(detail::unwrap(#name, tree::name(a.tree(), b.tree()), detail::args(a, b)));   \
  }                                                                                               \
  inline Layout name(const Layout& a, const Tiler& b) {                                          \
    return Layout(detail::unwrap(#name, tree::name(a.tree(), b.tiler()), detail::args(a, b)));  \
  }

CUTE_DSL_RUNTIME_BINARY_OP(composition)
CUTE_DSL_RUNTIME_BINARY_OP(logical_divide)
CUTE_DSL_RUNTIME_BINARY_OP(zipped_divide)
CUTE_DSL_RUNTIME_BINARY_OP(tiled_divide)
CUTE_DSL_RUNTIME_BINARY_OP(flat_divide)
CUTE_DSL_RUNTIME_BINARY_OP(logical_product)
CUTE_DSL_RUNTIME_BINARY_OP(zipped_product)
CUTE_DSL_RUNTIME_BINARY_OP(tiled_product)
CUTE_DSL_RUNTIME_BINARY_OP(flat_product)
#undef CUTE_DSL_RUNTIME_BINARY_OP

inline Layout blocked_product(const Layout& a, const Layout& b) {
  return Layout(detail::unwrap("blocked_product", tree::blocked_product(a.tree(), b.tree()), detail::args(a, b)));
}
inline Layout raked_product(const Layout& a, const Layout& b) {
  return Layout(detail::unwrap("raked_product", tree::raked_product(a.tree(), b.tree()), detail::args(a, b)));
}
// CuTe's tile_to_shape: copies of `block` filling `target` (an int-tuple), laid out in `order`
// (a flat int-tuple, smallest first; none: mode 0 first). See layout/tree_tile_to_shape.hpp.
inline Layout tile_to_shape(const Layout& block, const tree::Tree& target, const tree::Tree& order = tree::Tree{}) {
  std::string inputs = detail::args(block) + " and shape " + int_tuple_to_string(target);
  if (order.count > 0) inputs += " in order " + int_tuple_to_string(order);
  return Layout(detail::unwrap("tile_to_shape", tree::tile_to_shape(block.tree(), target, order), inputs));
}
inline tree::index_t max_common_vector(const Layout& a, const Layout& b) {
  return detail::unwrap("max_common_vector", tree::max_common_vector(a.tree(), b.tree()), detail::args(a, b));
}
inline Layout max_common_layout(const Layout& a, const Layout& b) {
  return Layout(detail::unwrap("max_common_layout", tree::max_common_layout(a.tree(), b.tree()), detail::args(a, b)));
}

}  // namespace cute_dsl::runtime
#endif  // CUTE_DSL_HOST_ONLY_CODE
