// The expression language of the `cute-dsl layout` tool, e.g.
//   logical_divide((8,4):(1,8),[2:1,2])      complement((2,2):(1,4),16)      size(coalesce(4:1))
//
// Grammar (whitespace allowed between tokens):
//   expr    := call | tiler | layout | integer
//   call    := name '(' [expr (',' expr)*] ')'          name := letter (letter | digit | '_')*
//   tiler   := '[' expr (',' expr)* ']'                  each item a layout, or an integer n = n:1
//   layout  := int-tuple ':' int-tuple                   (runtime/parse.hpp)
//   integer := ['-' | '+' | '_'] digit+
// A value is an integer, a layout or a tiler. The operations are listed in runtime/operations.hpp.
//
// Errors: malformed text is a ParseError; an unknown operation, a wrong number of arguments or an
// argument of the wrong kind is an ExpressionError naming the operation and the column; a rule of
// the algebra that fails is a LayoutError naming the operation and the rule.
#pragma once

#include "cute_dsl/config.hpp"

#if CUTE_DSL_HOST_ONLY_CODE
#include "cute_dsl/runtime/operations.hpp"
#include "cute_dsl/runtime/parse.hpp"
#include "cute_dsl/runtime/value.hpp"

#include <string>
#include <string_view>
#include <vector>


namespace cute_dsl::runtime {

namespace detail {

// Deeper nesting is refused rather than risking the stack on hostile input.
inline constexpr int kMaxExpressionNesting = 64;

inline bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool is_name_char(char c) { return is_name_start(c) || Cursor::is_digit(c) || c == '_'; }

inline Value expression_at(Cursor& in, int nesting);

inline Value call_at(Cursor& in, int nesting) {
  const std::size_t start = in.position();
  std::size_t p = start;
  const std::string_view text = in.text();
  while (p < text.size() && is_name_char(text[p])) ++p;
  const std::string name(text.substr(start, p - start));
  const int column = in.column_at(start);
  const Operation* op = find_operation(name);
  if (!op) throw ExpressionError("", column, "unknown operation '" + name + "' (known: " + operation_names() + ")");
  in.set_position(p);
  in.expect('(', ("'(' after '" + name + "'").c_str());
  std::vector<Argument> args;
  if (!in.accept(')')) {
    do {
      const int arg_column = in.column_at((in.skip_space(), in.position()));
      Value v = expression_at(in, nesting + 1);
      args.push_back(Argument{std::move(v), arg_column});
    } while (in.accept(','));
    if (!in.accept(')')) in.fail("expected ',' or ')'");
  }
  return apply_operation(*op, column, args);
}

inline Value tiler_at(Cursor& in, int nesting) {
  in.expect('[', "'['");
  Tiler tiler;
  do {
    const int item_column = in.column_at((in.skip_space(), in.position()));
    Value v = expression_at(in, nesting + 1);
    if (const auto* i = std::get_if<tree::index_t>(&v)) {
      if (*i <= 0) throw ExpressionError("tiler", item_column, "an integer tile must be positive, got " + std::to_string(*i));
      tiler.push_back(Layout(*i, 1));
    } else if (const auto* l = std::get_if<Layout>(&v)) {
      tiler.push_back(*l);
    } else {
      throw ExpressionError("tiler", item_column, "a tiler item must be a layout or an integer, got a tiler");
    }
  } while (in.accept(','));
  if (!in.accept(']')) in.fail("expected ',' or ']'");
  return tiler;
}

inline Value expression_at(Cursor& in, int nesting) {
  if (nesting > kMaxExpressionNesting)
    in.fail_at(in.position(), "expressions nested deeper than " + std::to_string(kMaxExpressionNesting) + " levels");
  const char c = in.peek();
  if (c == '[') return tiler_at(in, nesting);
  if (is_name_start(c)) return call_at(in, nesting);
  if (c == '(') return Layout(parse_layout_at(in));
  if (in.integer_ahead()) {
    const std::size_t start = in.position();
    const tree::index_t v = in.integer();
    if (in.peek() != ':') return v;
    in.set_position(start);
    return Layout(parse_layout_at(in));
  }
  in.fail("expected an operation, a layout, an integer or '['");
}

}  // namespace detail

// Evaluates a whole expression; trailing text is an error.
inline Value evaluate_expression(std::string_view text) {
  Cursor in(text);
  Value v = detail::expression_at(in, 0);
  if (!in.at_end()) in.fail("expected end of input");
  return v;
}

}  // namespace cute_dsl::runtime
#endif  // CUTE_DSL_HOST_ONLY_CODE
