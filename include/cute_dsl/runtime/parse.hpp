// Reading CuTe notation at run time: int-tuples `((2,2),3)` and layouts `((2,2),3):((1,4),2)`
// into the value form tree::Tree.
//
// Why a hand-written cursor instead of a regex or a generic parser: every error must point at
// one column and say what was expected there, in one line, so that the `cute-dsl` tool and the
// JIT can echo it to a user who typed the text. The cursor is shared with the expression
// grammar (runtime/expression.hpp), so layouts inside expressions report the same columns.
//
// Accepted: decimal integers with an optional sign, CuTe's `_`-prefixed static integers (`_4`,
// read as the plain value 4), whitespace between tokens. Checked: shape and stride nest alike
// (congruence), every shape is positive, the tree fits CUTE_DSL_TREE_CAPACITY nodes, and the
// size and cosize are representable in tree::index_t.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/tree.hpp"

#if CUTE_DSL_HOST_ONLY_CODE
#include <stdexcept>
#include <string>
#include <string_view>

namespace cute_dsl {

// Malformed text. what() is one line: "parse error at column 7: expected ',' or ')', got ']'".
class ParseError : public std::invalid_argument {
 public:
  ParseError(int column, const std::string& message)
      : std::invalid_argument("parse error at column " + std::to_string(column) + ": " + message),
        column_(column),
        message_(message) {}

  int column() const noexcept { return column_; }                      // 1-based
  const std::string& message() const noexcept { return message_; }     // without the prefix

 private:
  int column_;
  std::string message_;
};

namespace runtime {

// A position in a text being parsed. Columns are 1-based byte offsets into the whole text.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}

  std::string_view text() const { return text_; }
  std::size_t position() const { return pos_; }
  void set_position(std::size_t p) { pos_ = p; }
  int column() const { return static_cast<int>(pos_) + 1; }
  int column_at(std::size_t p) const { return static_cast<int>(p) + 1; }

  void skip_space() {
    while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
  }
  bool at_end() {
    skip_space();
    return pos_ >= text_.size();
  }
  // Next non-space character, or '\0' at the end.
  char peek() {
    skip_space();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  bool accept(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  void expect(char c, const char* what) {
    if (!accept(c)) fail(std::string("expected ") + what);
  }

  // Throws ParseError at the current token, appending what was found there.
  [[noreturn]] void fail(const std::string& expected) {
    skip_space();
    fail_at(pos_, expected + ", got " + describe_here());
  }
  [[noreturn]] void fail_at(std::size_t p, const std::string& message) const {
    throw ParseError(column_at(p), message);
  }

  // "end of input", "'x'", or "byte 0x07" for unprintable bytes.
  std::string describe_here() const {
    if (pos_ >= text_.size()) return "end of input";
    const unsigned char c = static_cast<unsigned char>(text_[pos_]);
    if (c >= 0x21 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
    static const char* hex = "0123456789abcdef";
    return std::string("byte 0x") + hex[c >> 4] + hex[c & 15];
  }

  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
  static bool is_digit(char c) { return c >= '0' && c <= '9'; }

  // True if an integer (optionally signed or `_`-prefixed) starts here.
  bool integer_ahead() {
    skip_space();
    std::size_t p = pos_;
    if (p < text_.size() && (text_[p] == '-' || text_[p] == '+' || text_[p] == '_')) ++p;
    return p < text_.size() && is_digit(text_[p]);
  }

  // integer := ['-'|'+'|'_'] digit+
  tree::index_t integer() {
    skip_space();
    const std::size_t start = pos_;
    bool negative = false;
    if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) {
      negative = text_[pos_] == '-';
      ++pos_;
    } else if (pos_ < text_.size() && text_[pos_] == '_') {
      ++pos_;  // CuTe prints static integers as _N; the value is N
    }
    if (pos_ >= text_.size() || !is_digit(text_[pos_])) {
      pos_ = start;
      fail("expected an integer");
    }
    // Accumulate negatively so that the most negative value is representable.
    constexpr tree::index_t lowest = -9223372036854775807LL - 1;
    tree::index_t v = 0;
    while (pos_ < text_.size() && is_digit(text_[pos_])) {
      const int d = text_[pos_] - '0';
      if (v < (lowest + d) / 10) fail_at(start, "integer out of range");
      v = v * 10 - d;
      ++pos_;
    }
    if (!negative) {
      if (v == lowest) fail_at(start, "integer out of range");
      v = -v;
    }
    return v;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

namespace detail {

inline void push_checked(Cursor& in, tree::Tree& t, std::size_t where, bool tuple) {
  if (tuple) t.push_tuple(0);
  else t.push_leaf(0, 0);
  if (t.overflow)
    in.fail_at(where, "the layout needs more than " + std::to_string(tree::kCapacity) +
                          " nodes (CUTE_DSL_TREE_CAPACITY)");
}

// int-tuple := integer | '(' int-tuple (',' int-tuple)* ')'. Values go to the shape field;
// `columns[i]` records where node i started, for congruence and positivity messages.
inline void int_tuple_into(Cursor& in, tree::Tree& t, int* columns) {
  const char c = in.peek();
  const std::size_t where = in.position();
  if (c == '(') {
    in.accept('(');
    const int node = t.count;
    push_checked(in, t, where, true);
    columns[node] = in.column_at(where);
    int children = 0;
    do {
      int_tuple_into(in, t, columns);
      ++children;
    } while (in.accept(','));
    if (!in.accept(')')) in.fail("expected ',' or ')'");
    t.nodes[node].children = children;
    return;
  }
  if (!in.integer_ahead()) in.fail("expected an integer or '('");
  const tree::index_t v = in.integer();
  const int node = t.count;
  push_checked(in, t, where, false);
  columns[node] = in.column_at(where);
  t.nodes[node].shape = v;
}

inline bool mul_overflows(tree::index_t a, tree::index_t b, tree::index_t* out) {
  return __builtin_mul_overflow(a, b, out);
}

}  // namespace detail

// Reads an int-tuple at the cursor. Leaf values are in `shape`; strides are 0.
inline tree::Tree parse_int_tuple_at(Cursor& in) {
  tree::Tree t{};
  int columns[tree::kCapacity] = {};
  detail::int_tuple_into(in, t, columns);
  return t;
}

// Reads `shape:stride` at the cursor and checks it (see the file comment).
inline tree::Tree parse_layout_at(Cursor& in) {
  tree::Tree shape{}, stride{};
  int shape_col[tree::kCapacity] = {}, stride_col[tree::kCapacity] = {};
  detail::int_tuple_into(in, shape, shape_col);
  in.expect(':', "':' between shape and stride");
  const std::size_t stride_start = in.position();
  detail::int_tuple_into(in, stride, stride_col);

  // Congruence: identical preorder skeletons.
  for (int i = 0; i < shape.count || i < stride.count; ++i) {
    if (i >= shape.count || i >= stride.count ||
        shape.nodes[i].children != stride.nodes[i].children) {
      const int col = i < stride.count ? stride_col[i] : in.column_at(stride_start);
      throw ParseError(col, "stride is not congruent with the shape (they must nest alike)");
    }
  }
  tree::index_t size = 1, cosize_minus_one = 0;
  for (int i = 0; i < shape.count; ++i) {
    if (!shape.is_leaf(i)) continue;
    const tree::index_t s = shape.nodes[i].shape, d = stride.nodes[i].shape;
    if (s <= 0) throw ParseError(shape_col[i], "shape must be positive, got " + std::to_string(s));
    tree::index_t span = 0;
    const tree::index_t magnitude = d < 0 ? -d : d;  // d == lowest overflows below
    if (d == (-9223372036854775807LL - 1) || detail::mul_overflows(size, s, &size) ||
        detail::mul_overflows(s - 1, magnitude, &span) ||
        __builtin_add_overflow(cosize_minus_one, span, &cosize_minus_one) ||
        cosize_minus_one == 9223372036854775807LL)
      throw ParseError(shape_col[i], "the layout's size or cosize does not fit in 64 bits");
    shape.nodes[i].stride = d;
  }
  return shape;
}

// Whole-text entry points: the text must hold exactly one int-tuple / layout.
inline tree::Tree parse_int_tuple(std::string_view text) {
  Cursor in(text);
  tree::Tree t = parse_int_tuple_at(in);
  if (!in.at_end()) in.fail("expected end of input");
  return t;
}

inline tree::Tree parse_layout(std::string_view text) {
  Cursor in(text);
  tree::Tree t = parse_layout_at(in);
  if (!in.at_end()) in.fail("expected end of input");
  return t;
}

}  // namespace runtime
}  // namespace cute_dsl
#endif  // CUTE_DSL_HOST_ONLY_CODE
