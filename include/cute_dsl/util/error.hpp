// The host-side error of the layout algebra: thrown when a run-time input breaks a rule that,
// for compile-time inputs, would be a static_assert. The message names the function and the
// rule, e.g. "composition: Stride Divisibility Condition: stride 3 vs extent 4".
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/tree.hpp"

#if CUTE_DSL_HOST_ONLY_CODE
#include <stdexcept>
#include <string>

namespace cute_dsl {

class LayoutError : public std::invalid_argument {
 public:
  LayoutError(std::string function, tree::Error rule, const std::string& detail = {})
      : std::invalid_argument(compose(function, rule, detail)),
        function_(std::move(function)),
        rule_(rule) {}

  const std::string& function() const noexcept { return function_; }
  tree::Error rule() const noexcept { return rule_; }

 private:
  static std::string compose(const std::string& function, tree::Error rule, const std::string& detail) {
    std::string m = function + ": " + tree::error_rule(rule);
    if (!detail.empty()) m += ": " + detail;
    return m;
  }
  std::string function_;
  tree::Error rule_;
};

// Unwrap a tree::Result or throw a LayoutError naming `function`.
template <class T>
T value_or_throw(const char* function, const tree::Result<T>& r) {
  if (!r.ok())
    throw LayoutError(function, r.error,
                      "offending values " + std::to_string(r.detail0) + " and " + std::to_string(r.detail1));
  return r.value;
}

}  // namespace cute_dsl
#endif  // CUTE_DSL_HOST_ONLY_CODE
