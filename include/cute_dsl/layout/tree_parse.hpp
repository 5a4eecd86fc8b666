// Reading CuTe notation into the value form: int-tuples `((2,2),3)`, layouts
// `((2,2),3):((1,4),2)` and tilers `[2:1,(2,2):(1,4),3]`.
//
// Why here, constexpr and allocation-free: there is exactly one reader of layout text. The host
// (runtime/parse.hpp, the `cute-dsl` tool) calls it at run time and turns a failure into a
// ParseError; tests and static code call it in constant expressions, so a golden case written as
// text is a static_assert; device code may call it too. A failure is a value (ParseStatus and
// the 1-based column where it was found), never an exception. No standard headers: this
// compiles under NVRTC.
//
// Accepted: decimal integers with an optional sign, CuTe's `_`-prefixed static integers (`_4`,
// read as the plain value 4), whitespace (space, tab, CR, LF) between tokens. Checked for a
// layout: shape and stride nest alike, every shape is positive, the tree fits kCapacity nodes,
// and the size and cosize fit in index_t (the bound check_layout in tree_basics.hpp applies to
// every input and result of the algebra, so every layout that reads is a valid input).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/tree.hpp"
#include "cute_dsl/layout/tree_basics.hpp"

namespace cute_dsl::tree {

// What the reader expected or refused. The `expected_*` kinds are found at a token the reader
// could not use; a message adds what is there (runtime/parse.hpp: "..., got ']'").
enum class ParseStatus : int {
  ok = 0,
  expected_integer,            // a sign or `_` not followed by a digit
  expected_integer_or_paren,   // an int-tuple element
  expected_comma_or_paren,     // inside a tuple
  expected_colon,              // between shape and stride
  expected_bracket,            // a tiler starts with '['
  expected_comma_or_bracket,   // inside a tiler
  expected_end,                // trailing text after a whole-text parse
  integer_out_of_range,        // beyond index_t
  capacity,                    // more than kCapacity nodes
  not_congruent,               // shape and stride do not nest alike
  nonpositive_shape,           // detail holds the shape
  too_large,                   // size or cosize beyond index_t
};

CUTE_DSL_HOST_DEVICE constexpr bool parse_status_is_expectation(ParseStatus s) {
  return s >= ParseStatus::expected_integer && s <= ParseStatus::expected_end;
}

// A piece of text: `size` bytes at `data`, no terminator needed.
struct Text {
  const char* data = nullptr;
  int size = 0;
};

// Text of a NUL-terminated string.
CUTE_DSL_HOST_DEVICE constexpr Text make_text(const char* s) {
  int n = 0;
  while (s[n] != '\0') ++n;
  return Text{s, n};
}

template <class T>
struct Parsed {
  T value{};
  ParseStatus status = ParseStatus::ok;
  int column = 0;      // on failure: 1-based column (byte offset + 1) where it was found
  int end = 0;         // on success: offset just past what was read
  index_t detail = 0;  // nonpositive_shape: the shape
  CUTE_DSL_HOST_DEVICE constexpr bool ok() const { return status == ParseStatus::ok; }
};

namespace detail {

CUTE_DSL_HOST_DEVICE constexpr bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
CUTE_DSL_HOST_DEVICE constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
CUTE_DSL_HOST_DEVICE constexpr char char_at(Text t, int p) { return p < t.size ? t.data[p] : '\0'; }
CUTE_DSL_HOST_DEVICE constexpr int skip_space(Text t, int p) {
  while (p < t.size && is_space(t.data[p])) ++p;
  return p;
}

template <class T>
CUTE_DSL_HOST_DEVICE constexpr Parsed<T> parse_failure(ParseStatus s, int offset, index_t detail = 0) {
  Parsed<T> r{};
  r.status = s;
  r.column = offset + 1;
  r.detail = detail;
  return r;
}

// True if an integer (optionally signed or `_`-prefixed) starts at p (after whitespace).
CUTE_DSL_HOST_DEVICE constexpr bool integer_ahead(Text t, int p) {
  p = skip_space(t, p);
  const char c = char_at(t, p);
  if (c == '-' || c == '+' || c == '_') ++p;
  return is_digit(char_at(t, p));
}

}  // namespace detail

// integer := ['-' | '+' | '_'] digit+, after optional whitespace.
CUTE_DSL_HOST_DEVICE constexpr Parsed<index_t> parse_integer(Text t, int p = 0) {
  p = detail::skip_space(t, p);
  const int start = p;
  bool negative = false;
  const char c = detail::char_at(t, p);
  if (c == '-' || c == '+') {
    negative = c == '-';
    ++p;
  } else if (c == '_') {
    ++p;  // CuTe prints static integers as _N; the value is N
  }
  if (!detail::is_digit(detail::char_at(t, p))) return detail::parse_failure<index_t>(ParseStatus::expected_integer, start);
  // Accumulate negatively so that the most negative value is representable.
  index_t v = 0;
  while (p < t.size && detail::is_digit(t.data[p])) {
    const int d = t.data[p] - '0';
    if (v < (detail::kIndexMin + d) / 10) return detail::parse_failure<index_t>(ParseStatus::integer_out_of_range, start);
    v = v * 10 - d;
    ++p;
  }
  if (!negative) {
    if (v == detail::kIndexMin) return detail::parse_failure<index_t>(ParseStatus::integer_out_of_range, start);
    v = -v;
  }
  Parsed<index_t> r{};
  r.value = v;
  r.end = p;
  return r;
}

namespace detail {

// int-tuple := integer | '(' int-tuple (',' int-tuple)* ')', appended to `tree` in preorder with
// the values in the shape field. `columns[i]` records where node i started. Iterative, with the
// open tuples on a stack that the capacity bounds, so deep nesting cannot exhaust the stack.
CUTE_DSL_HOST_DEVICE constexpr Parsed<int> read_int_tuple(Text t, int p, Tree& tree, int* columns) {
  int open[kCapacity] = {};
  int depth = 0;
  for (;;) {
    // an element
    p = skip_space(t, p);
    if (char_at(t, p) == '(') {
      if (tree.count >= kCapacity) return parse_failure<int>(ParseStatus::capacity, p);
      columns[tree.count] = p + 1;
      open[depth++] = tree.push_tuple(0);
      ++p;
      continue;
    }
    if (!integer_ahead(t, p)) return parse_failure<int>(ParseStatus::expected_integer_or_paren, p);
    const Parsed<index_t> v = parse_integer(t, p);
    if (!v.ok()) return parse_failure<int>(v.status, v.column - 1);
    if (tree.count >= kCapacity) return parse_failure<int>(ParseStatus::capacity, p);
    columns[tree.count] = p + 1;
    tree.push_leaf(v.value, 0);
    p = v.end;
    // after an element: the next one, or close tuples until one continues
    for (;;) {
      if (depth == 0) {
        Parsed<int> r{};
        r.end = p;
        return r;
      }
      ++tree.nodes[open[depth - 1]].children;
      p = skip_space(t, p);
      const char c = char_at(t, p);
      if (c == ',') {
        ++p;
        break;
      }
      if (c != ')') return parse_failure<int>(ParseStatus::expected_comma_or_paren, p);
      ++p;
      --depth;
    }
  }
}

}  // namespace detail

// An int-tuple at offset p: leaf values in `shape`, strides 0.
CUTE_DSL_HOST_DEVICE constexpr Parsed<Tree> parse_int_tuple(Text t, int p = 0) {
  Parsed<Tree> r{};
  int columns[kCapacity] = {};
  const Parsed<int> read = detail::read_int_tuple(t, p, r.value, columns);
  if (!read.ok()) return detail::parse_failure<Tree>(read.status, read.column - 1);
  r.end = read.end;
  return r;
}

// `shape:stride` at offset p, checked (see the file comment).
CUTE_DSL_HOST_DEVICE constexpr Parsed<Tree> parse_layout(Text t, int p = 0) {
  Parsed<Tree> r{};
  Tree& shape = r.value;
  Tree stride{};
  int shape_col[kCapacity] = {}, stride_col[kCapacity] = {};
  Parsed<int> read = detail::read_int_tuple(t, p, shape, shape_col);
  if (!read.ok()) return detail::parse_failure<Tree>(read.status, read.column - 1);
  p = detail::skip_space(t, read.end);
  if (detail::char_at(t, p) != ':') return detail::parse_failure<Tree>(ParseStatus::expected_colon, p);
  const int stride_start = ++p;
  read = detail::read_int_tuple(t, p, stride, stride_col);
  if (!read.ok()) return detail::parse_failure<Tree>(read.status, read.column - 1);

  // Congruence: identical preorder skeletons; the column of the first stride node that differs.
  for (int i = 0; i < shape.count || i < stride.count; ++i)
    if (i >= shape.count || i >= stride.count || shape.nodes[i].children != stride.nodes[i].children)
      return detail::parse_failure<Tree>(ParseStatus::not_congruent,
                                         (i < stride.count ? stride_col[i] : stride_start + 1) - 1);
  index_t size = 1, cosize = 1;
  for (int i = 0; i < shape.count; ++i) {
    if (!shape.is_leaf(i)) continue;
    const index_t s = shape.nodes[i].shape, d = stride.nodes[i].shape;
    if (s <= 0) return detail::parse_failure<Tree>(ParseStatus::nonpositive_shape, shape_col[i] - 1, s);
    index_t span = 0;
    if (d == detail::kIndexMin || !detail::mul_fits(size, s, size) ||
        !detail::mul_fits(s - 1, detail::abs_index(d), span) || !detail::add_fits(cosize, span, cosize))
      return detail::parse_failure<Tree>(ParseStatus::too_large, shape_col[i] - 1);
    shape.nodes[i].stride = d;
  }
  r.end = read.end;
  return r;
}

// A tiler `[T0,T1,...]` at offset p: each item a layout, or an integer n standing for n:1.
CUTE_DSL_HOST_DEVICE constexpr Parsed<Tiler> parse_tiler(Text t, int p = 0) {
  Parsed<Tiler> r{};
  Tree& modes = r.value.modes;
  p = detail::skip_space(t, p);
  if (detail::char_at(t, p) != '[') return detail::parse_failure<Tiler>(ParseStatus::expected_bracket, p);
  ++p;
  const int root = modes.push_tuple(0);
  for (;;) {
    p = detail::skip_space(t, p);
    const int item = p;
    Tree m{};
    const Parsed<index_t> n = parse_integer(t, p);
    if (n.ok() && detail::char_at(t, detail::skip_space(t, n.end)) != ':') {
      if (n.value <= 0) return detail::parse_failure<Tiler>(ParseStatus::nonpositive_shape, item, n.value);
      m.push_leaf(n.value, 1);
      p = n.end;
    } else {
      const Parsed<Tree> l = parse_layout(t, p);
      if (!l.ok()) return detail::parse_failure<Tiler>(l.status, l.column - 1, l.detail);
      m = l.value;
      p = l.end;
    }
    modes.push_subtree(m, 0);
    if (modes.overflow) return detail::parse_failure<Tiler>(ParseStatus::capacity, item);
    ++modes.nodes[root].children;
    p = detail::skip_space(t, p);
    const char c = detail::char_at(t, p);
    ++p;
    if (c == ']') break;
    if (c != ',') return detail::parse_failure<Tiler>(ParseStatus::expected_comma_or_bracket, p - 1);
  }
  r.end = p;
  return r;
}

// The same, requiring the whole text to be the one value (trailing whitespace allowed).
template <class T>
CUTE_DSL_HOST_DEVICE constexpr Parsed<T> require_end(const Parsed<T>& r, Text t) {
  if (!r.ok()) return r;
  const int p = detail::skip_space(t, r.end);
  if (p < t.size) return detail::parse_failure<T>(ParseStatus::expected_end, p);
  return r;
}
CUTE_DSL_HOST_DEVICE constexpr Parsed<Tree> parse_whole_int_tuple(Text t) { return require_end(parse_int_tuple(t), t); }
CUTE_DSL_HOST_DEVICE constexpr Parsed<Tree> parse_whole_layout(Text t) { return require_end(parse_layout(t), t); }
CUTE_DSL_HOST_DEVICE constexpr Parsed<Tiler> parse_whole_tiler(Text t) { return require_end(parse_tiler(t), t); }

}  // namespace cute_dsl::tree
