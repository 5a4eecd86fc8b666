// Reading CuTe notation at run time: int-tuples `((2,2),3)` and layouts `((2,2),3):((1,4),2)`
// into the value form tree::Tree.
//
// The reading itself is layout/tree_parse.hpp, the one constexpr reader of layout text; this
// file turns its failures into ParseError, whose what() is one line naming the column and what
// was expected there, so that the `cute-dsl` tool and the JIT can echo it to a user who typed
// the text. The cursor is shared with the expression grammar (runtime/expression.hpp), so
// layouts inside expressions report the same columns.
//
// Accepted and checked: see layout/tree_parse.hpp.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/tree.hpp"
#include "cute_dsl/layout/tree_parse.hpp"

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
  std::string describe_here() const { return describe_at(pos_); }
  std::string describe_at(std::size_t p) const {
    if (p >= text_.size()) return "end of input";
    const unsigned char c = static_cast<unsigned char>(text_[p]);
    if (c >= 0x21 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
    static const char* hex = "0123456789abcdef";
    return std::string("byte 0x") + hex[c >> 4] + hex[c & 15];
  }

  static bool is_space(char c) { return tree::detail::is_space(c); }
  static bool is_digit(char c) { return tree::detail::is_digit(c); }

  // The text as the reader in layout/tree_parse.hpp takes it.
  tree::Text tree_text() const {
    if (text_.size() > 0x3fffffffu) throw ParseError(1, "the text is longer than 2^30 bytes");
    return tree::Text{text_.data(), static_cast<int>(text_.size())};
  }

  // Throws the ParseError for a failure of the reader, or moves past what it read.
  template <class T>
  T take(const tree::Parsed<T>& r) {
    if (!r.ok()) {
      const std::size_t p = static_cast<std::size_t>(r.column - 1);
      std::string message = parse_status_text(r);
      if (tree::parse_status_is_expectation(r.status)) message += ", got " + describe_at(p);
      fail_at(p, message);
    }
    pos_ = static_cast<std::size_t>(r.end);
    return r.value;
  }

  // True if an integer (optionally signed or `_`-prefixed) starts here.
  bool integer_ahead() { return tree::detail::integer_ahead(tree_text(), static_cast<int>(pos_)); }

  // integer := ['-'|'+'|'_'] digit+
  tree::index_t integer() { return take(tree::parse_integer(tree_text(), static_cast<int>(pos_))); }

  template <class T>
  static std::string parse_status_text(const tree::Parsed<T>& r) {
    switch (r.status) {
      case tree::ParseStatus::ok: return "no error";
      case tree::ParseStatus::expected_integer: return "expected an integer";
      case tree::ParseStatus::expected_integer_or_paren: return "expected an integer or '('";
      case tree::ParseStatus::expected_comma_or_paren: return "expected ',' or ')'";
      case tree::ParseStatus::expected_colon: return "expected ':' between shape and stride";
      case tree::ParseStatus::expected_bracket: return "expected '['";
      case tree::ParseStatus::expected_comma_or_bracket: return "expected ',' or ']'";
      case tree::ParseStatus::expected_end: return "expected end of input";
      case tree::ParseStatus::integer_out_of_range: return "integer out of range";
      case tree::ParseStatus::capacity:
        return "the layout needs more than " + std::to_string(tree::kCapacity) + " nodes (CUTE_DSL_TREE_CAPACITY)";
      case tree::ParseStatus::not_congruent: return "stride is not congruent with the shape (they must nest alike)";
      case tree::ParseStatus::nonpositive_shape: return "shape must be positive, got " + std::to_string(r.detail);
      case tree::ParseStatus::too_large: return "the layout's size or cosize does not fit in 64 bits";
    }
    return "unknown parse error";
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

// Reads an int-tuple at the cursor. Leaf values are in `shape`; strides are 0.
inline tree::Tree parse_int_tuple_at(Cursor& in) {
  return in.take(tree::parse_int_tuple(in.tree_text(), static_cast<int>(in.position())));
}

// Reads `shape:stride` at the cursor and checks it (layout/tree_parse.hpp).
inline tree::Tree parse_layout_at(Cursor& in) {
  return in.take(tree::parse_layout(in.tree_text(), static_cast<int>(in.position())));
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
