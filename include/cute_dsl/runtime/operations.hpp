// The operations of the `cute-dsl layout` expression language: name, arity, argument kinds,
// and the runtime::Layout function each one calls.
//
// Why a table: the tool's help text, the "unknown operation" message and the arity checks all
// come from the same list, so adding an operation is one row.
#pragma once

#include "cute_dsl/config.hpp"

#if CUTE_DSL_HOST_ONLY_CODE
#include "cute_dsl/runtime/layout.hpp"
#include "cute_dsl/runtime/value.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace cute_dsl::runtime {

struct Operation {
  const char* name;
  int min_args;
  int max_args;
  const char* signature;  // for help and arity messages
  Value (*apply)(const Operation& op, const std::vector<Argument>& args);
};

namespace detail {

inline std::string ordinal(std::size_t k) {
  static const char* names[] = {"first", "second", "third", "fourth"};
  return k < 4 ? names[k] : "argument " + std::to_string(k + 1);
}

[[noreturn]] inline void wrong_kind(const Operation& op, const std::vector<Argument>& args, std::size_t k,
                                    const char* wanted) {
  throw ExpressionError(op.name, args[k].column,
                        "the " + ordinal(k) + " argument must be " + wanted + ", got " + kind_name(args[k].value));
}

inline const Layout& layout_arg(const Operation& op, const std::vector<Argument>& args, std::size_t k) {
  if (const auto* l = std::get_if<Layout>(&args[k].value)) return *l;
  wrong_kind(op, args, k, "a layout");
}

inline tree::index_t positive_integer_arg(const Operation& op, const std::vector<Argument>& args, std::size_t k,
                                          const char* what) {
  const auto* i = std::get_if<tree::index_t>(&args[k].value);
  if (!i) wrong_kind(op, args, k, "an integer");
  if (*i <= 0)
    throw ExpressionError(op.name, args[k].column,
                          std::string(what) + " must be a positive integer, got " + std::to_string(*i));
  return *i;
}

// A layout, or an integer n standing for the layout n:1 (CuTe's Int<n> used as a tile).
inline Layout layout_or_integer_arg(const Operation& op, const std::vector<Argument>& args, std::size_t k) {
  if (std::holds_alternative<tree::index_t>(args[k].value))
    return Layout(positive_integer_arg(op, args, k, "an integer tile"), 1);
  if (const auto* l = std::get_if<Layout>(&args[k].value)) return *l;
  wrong_kind(op, args, k, "a layout or an integer");
}

template <Layout (*F)(const Layout&)>
Value unary(const Operation& op, const std::vector<Argument>& args) {
  return F(layout_arg(op, args, 0));
}

template <class R, R (*F)(const Layout&)>
Value unary_integer(const Operation& op, const std::vector<Argument>& args) {
  return static_cast<tree::index_t>(F(layout_arg(op, args, 0)));
}

// composition, divides and products: the right-hand side is a layout, an integer or a tiler.
template <Layout (*WithLayout)(const Layout&, const Layout&), Layout (*WithTiler)(const Layout&, const Tiler&)>
Value with_tile(const Operation& op, const std::vector<Argument>& args) {
  const Layout& a = layout_arg(op, args, 0);
  if (const auto* t = std::get_if<Tiler>(&args[1].value)) return WithTiler(a, *t);
  return WithLayout(a, layout_or_integer_arg(op, args, 1));
}

template <Layout (*F)(const Layout&, const Layout&)>
Value two_layouts(const Operation& op, const std::vector<Argument>& args) {
  return F(layout_arg(op, args, 0), layout_or_integer_arg(op, args, 1));
}

inline Value apply_complement(const Operation& op, const std::vector<Argument>& args) {
  const Layout& l = layout_arg(op, args, 0);
  if (args.size() == 1) return complement(l);
  return complement(l, positive_integer_arg(op, args, 1, "the cotarget"));
}

inline Value apply_max_common_vector(const Operation& op, const std::vector<Argument>& args) {
  return max_common_vector(layout_arg(op, args, 0), layout_arg(op, args, 1));
}

inline Value apply_max_common_layout(const Operation& op, const std::vector<Argument>& args) {
  return max_common_layout(layout_arg(op, args, 0), layout_arg(op, args, 1));
}

// An integer n, or a tiler of integers [n0,n1,...], as an int-tuple (tile_to_shape's shape and
// order). The reader has already turned each integer item into the layout n:1.
inline tree::Tree int_tuple_arg(const Operation& op, const std::vector<Argument>& args, std::size_t k,
                                const char* what) {
  if (std::holds_alternative<tree::index_t>(args[k].value))
    return tree::make_tree_leaf(positive_integer_arg(op, args, k, what), 0);
  const auto* t = std::get_if<Tiler>(&args[k].value);
  if (!t) wrong_kind(op, args, k, "an integer or a tiler of integers [n0,n1,...]");
  tree::Tree out{};
  out.push_tuple(t->rank());
  for (int i = 0; i < t->rank(); ++i) {
    const tree::Tree m = t->mode(i).tree();
    if (!m.is_leaf(0) || m.nodes[0].stride != 1)
      throw ExpressionError(op.name, args[k].column,
                            std::string(what) + " must be integers [n0,n1,...], got " + t->to_string());
    out.push_leaf(m.nodes[0].shape, 0);
  }
  return out;
}

inline Value apply_tile_to_shape(const Operation& op, const std::vector<Argument>& args) {
  const Layout& block = layout_arg(op, args, 0);
  const tree::Tree target = int_tuple_arg(op, args, 1, "the target shape");
  if (block.rank() > tree::rank(target))
    throw ExpressionError(op.name, args[1].column,
                          "the target shape has " + std::to_string(tree::rank(target)) + " modes, fewer than the block's " +
                              std::to_string(block.rank()));
  if (args.size() == 2) return tile_to_shape(block, target);
  const tree::Tree order = int_tuple_arg(op, args, 2, "the order");
  if (tree::rank(order) != tree::rank(target))
    throw ExpressionError(op.name, args[2].column,
                          "the order needs one entry per mode of the target shape (" +
                              std::to_string(tree::rank(target)) + "), got " + std::to_string(tree::rank(order)));
  return tile_to_shape(block, target, order);
}

// Overload sets cannot be template arguments; these pin one overload each.
inline Layout coalesce_1(const Layout& l) { return coalesce(l); }
#define CUTE_DSL_RUNTIME_PIN(name)                                                   \
  inline Layout name##_l(const Layout& a, const Layout& b) { return name(a, b); }  \
  inline Layout name##_t(const Layout& a, const Tiler& b) { return name(a, b); }
CUTE_DSL_RUNTIME_PIN(composition)
CUTE_DSL_RUNTIME_PIN(logical_divide)
CUTE_DSL_RUNTIME_PIN(zipped_divide)
CUTE_DSL_RUNTIME_PIN(tiled_divide)
CUTE_DSL_RUNTIME_PIN(flat_divide)
CUTE_DSL_RUNTIME_PIN(logical_product)
CUTE_DSL_RUNTIME_PIN(zipped_product)
CUTE_DSL_RUNTIME_PIN(tiled_product)
CUTE_DSL_RUNTIME_PIN(flat_product)
#undef CUTE_DSL_RUNTIME_PIN
inline tree::index_t size_1(const Layout& l) { return l.size(); }
inline tree::index_t cosize_1(const Layout& l) { return l.cosize(); }
inline int rank_1(const Layout& l) { return l.rank(); }
inline int depth_1(const Layout& l) { return l.depth(); }

#define CUTE_DSL_RUNTIME_TILE_OP(name) \
  Operation{#name, 2, 2, #name "(layout, layout | integer | [tiler])", with_tile<name##_l, name##_t>}

inline const Operation kOperations[] = {
    {"coalesce", 1, 1, "coalesce(layout)", unary<coalesce_1>},
    {"filter", 1, 1, "filter(layout)", unary<filter>},
    {"flatten", 1, 1, "flatten(layout)", unary<flatten>},
    {"size", 1, 1, "size(layout)", unary_integer<tree::index_t, size_1>},
    {"cosize", 1, 1, "cosize(layout)", unary_integer<tree::index_t, cosize_1>},
    {"rank", 1, 1, "rank(layout)", unary_integer<int, rank_1>},
    {"depth", 1, 1, "depth(layout)", unary_integer<int, depth_1>},
    CUTE_DSL_RUNTIME_TILE_OP(composition),
    {"complement", 1, 2, "complement(layout [, integer cotarget])", apply_complement},
    {"right_inverse", 1, 1, "right_inverse(layout)", unary<right_inverse>},
    {"left_inverse", 1, 1, "left_inverse(layout)", unary<left_inverse>},
    CUTE_DSL_RUNTIME_TILE_OP(logical_divide),
    CUTE_DSL_RUNTIME_TILE_OP(zipped_divide),
    CUTE_DSL_RUNTIME_TILE_OP(tiled_divide),
    CUTE_DSL_RUNTIME_TILE_OP(flat_divide),
    CUTE_DSL_RUNTIME_TILE_OP(logical_product),
    CUTE_DSL_RUNTIME_TILE_OP(zipped_product),
    CUTE_DSL_RUNTIME_TILE_OP(tiled_product),
    CUTE_DSL_RUNTIME_TILE_OP(flat_product),
    {"blocked_product", 2, 2, "blocked_product(layout, layout | integer)", two_layouts<blocked_product>},
    {"raked_product", 2, 2, "raked_product(layout, layout | integer)", two_layouts<raked_product>},
    {"tile_to_shape", 2, 3, "tile_to_shape(layout, [shape] | integer [, [order]])", apply_tile_to_shape},
    {"max_common_layout", 2, 2, "max_common_layout(layout, layout)", apply_max_common_layout},
    {"max_common_vector", 2, 2, "max_common_vector(layout, layout)", apply_max_common_vector},
};
#undef CUTE_DSL_RUNTIME_TILE_OP

}  // namespace detail

inline const Operation* find_operation(std::string_view name) {
  for (const Operation& op : detail::kOperations)
    if (name == op.name) return &op;
  return nullptr;
}

// "coalesce, filter, ..." for messages.
inline std::string operation_names() {
  std::string s;
  for (const Operation& op : detail::kOperations) {
    if (!s.empty()) s += ", ";
    s += op.name;
  }
  return s;
}

// One signature per line, for --help.
inline std::string operation_signatures() {
  std::string s;
  for (const Operation& op : detail::kOperations) s += std::string("  ") + op.signature + "\n";
  return s;
}

// Checks the arity, then runs the operation. `column` is where the operation's name began.
inline Value apply_operation(const Operation& op, int column, const std::vector<Argument>& args) {
  const int n = static_cast<int>(args.size());
  if (n < op.min_args || n > op.max_args) {
    const std::string expected = op.min_args == op.max_args
                                     ? std::to_string(op.min_args)
                                     : std::to_string(op.min_args) + " or " + std::to_string(op.max_args);
    throw ExpressionError(op.name, column,
                          "expects " + expected + (op.max_args == 1 ? " argument" : " arguments") + ", got " +
                              std::to_string(n) + " (usage: " + op.signature + ")");
  }
  return op.apply(op, args);
}

}  // namespace cute_dsl::runtime
#endif  // CUTE_DSL_HOST_ONLY_CODE
