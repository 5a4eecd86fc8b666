// The values of the `cute-dsl layout` expression language and its evaluation error.
//
// A value is an integer (size, rank, max_common_vector...), a layout, or a tiler `[T0,T1,...]`.
// Arguments keep the column where their text began so that an operation can point at the
// argument that has the wrong kind.
#pragma once

#include "cute_dsl/config.hpp"

#if CUTE_DSL_HOST_ONLY_CODE
#include "cute_dsl/runtime/layout.hpp"

#include <stdexcept>
#include <string>
#include <variant>

namespace cute_dsl {

// A well-formed expression that cannot be evaluated as written: unknown operation, wrong arity,
// wrong argument kind. what() is one line: "composition at column 1: expects 2 arguments, got 1".
class ExpressionError : public std::invalid_argument {
 public:
  ExpressionError(std::string operation, int column, const std::string& message)
      : std::invalid_argument((operation.empty() ? std::string("error") : operation) + " at column " +
                              std::to_string(column) + ": " + message),
        operation_(std::move(operation)),
        column_(column) {}

  const std::string& operation() const noexcept { return operation_; }
  int column() const noexcept { return column_; }

 private:
  std::string operation_;
  int column_;
};

namespace runtime {

// The result of an expression.
using Value = std::variant<tree::index_t, Layout, Tiler>;

inline const char* kind_name(const Value& v) {
  switch (v.index()) {
    case 0: return "an integer";
    case 1: return "a layout";
    default: return "a tiler";
  }
}

// Integers print as integers, layouts in CuTe notation, tilers as `[T0,T1]`.
inline std::string to_string(const Value& v) {
  if (const auto* i = std::get_if<tree::index_t>(&v)) return std::to_string(*i);
  if (const auto* l = std::get_if<Layout>(&v)) return l->to_string();
  return std::get<Tiler>(v).to_string();
}

// One evaluated argument and the column where its text began.
struct Argument {
  Value value;
  int column;
};

}  // namespace runtime
}  // namespace cute_dsl
#endif  // CUTE_DSL_HOST_ONLY_CODE
