// The checker behind the generated agreement tests (generate_agreement.py).
//
// Three answers meet for every conformance row: the template result (static or dynamic), the
// run-time tree algebra on the row's text (runtime::evaluate_expression), and CuTe's EXPECTED.
//   static result   == tree answer exactly (same tree: the bridge adds nothing),
//                   == EXPECTED under check_layouts.py's equality (1-tuples unwrapped, same
//                      offsets for every index below the size);
//   dynamic result  same function and size as EXPECTED (its grouping may differ by design);
//   ERROR rows      the tree answer and every dynamic form throw LayoutError naming one rule.
#pragma once

#include "cute_dsl/layout/algebra.hpp"
#include "cute_dsl/layout/tree_algebra.hpp"
#include "cute_dsl/runtime/expression.hpp"
#include "cute_dsl/runtime/parse.hpp"
#include "cute_dsl/runtime/print.hpp"
#include "cute_dsl/util/error.hpp"

#include <gtest/gtest.h>

#include <exception>
#include <optional>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

namespace agreement {

using cute_dsl::tree::index_t;
using cute_dsl::tree::Tree;

// ---- check_layouts.py's equality ---------------------------------------------------------------

inline int unwrap(const Tree& t, int i) {
  while (!t.is_leaf(i) && t.nodes[i].children == 1) ++i;
  return i;
}

inline bool same_shape_unwrapped(const Tree& a, int i, const Tree& b, int j) {
  i = unwrap(a, i);
  j = unwrap(b, j);
  if (a.is_leaf(i) != b.is_leaf(j)) return false;
  if (a.is_leaf(i)) return a.nodes[i].shape == b.nodes[j].shape;
  if (a.nodes[i].children != b.nodes[j].children) return false;
  for (int k = 0; k < a.nodes[i].children; ++k)
    if (!same_shape_unwrapped(a, a.child(i, k), b, b.child(j, k))) return false;
  return true;
}

// Same size and the same offset for every index below it.
inline bool same_function(const Tree& a, const Tree& b) {
  const index_t n = cute_dsl::tree::size(a);
  if (n != cute_dsl::tree::size(b)) return false;
  for (index_t i = 0; i < n; ++i)
    if (cute_dsl::tree::evaluate(a, i) != cute_dsl::tree::evaluate(b, i)) return false;
  return true;
}

inline bool checker_equal(const Tree& a, const Tree& b) {
  return same_shape_unwrapped(a, 0, b, 0) && same_function(a, b);
}

inline std::string text(const Tree& t) { return cute_dsl::runtime::to_string(t); }

// ---- one row -------------------------------------------------------------------------------------

class Checker {
 public:
  Checker(const char* label, const char* expression, const char* expected, const char* variant)
      : label_(label), expression_(expression), expected_(expected), variant_(variant) {}

  const std::vector<std::string>& failures() const { return failures_; }

  // The tree algebra on the text must refuse (an ERROR row); nothing compiles statically.
  void tree_only() {
    if (!tree_error()) fail("the tree algebra accepted an ERROR row");
  }

  void static_layout(const Tree& result) {
    const auto tree_answer = tree_value();
    if (!tree_answer) return;
    const Tree* t = std::get_if<cute_dsl::runtime::Layout>(&*tree_answer) ? &std::get<cute_dsl::runtime::Layout>(*tree_answer).tree()
                                                                          : nullptr;
    if (!t) return fail("the tree algebra gave an integer, the template a layout");
    if (!(result == *t)) fail("template " + text(result) + " != tree " + text(*t));
    if (!checker_equal(result, expected_tree())) fail("template " + text(result) + " !~ EXPECTED " + expected_);
  }

  void static_integer(long long result) {
    const auto tree_answer = tree_value();
    if (!tree_answer) return;
    const index_t* v = std::get_if<index_t>(&*tree_answer);
    if (!v) return fail("the tree algebra gave a layout, the template an integer");
    if (result != *v) fail("template " + std::to_string(result) + " != tree " + std::to_string(*v));
    if (std::to_string(result) != expected_) fail("template " + std::to_string(result) + " != EXPECTED " + expected_);
  }

  template <class F>
  void dynamic_layout(F&& f) {
    if (expected_ == "ERROR") return expect_same_error(f);
    try {
      const Tree r = f();
      if (!same_function(r, expected_tree()))
        fail("dynamic " + text(r) + " is not the function of EXPECTED " + expected_);
    } catch (const std::exception& e) {
      fail(std::string("dynamic form threw: ") + e.what());
    }
  }

  template <class F>
  void dynamic_integer(F&& f) {
    try {
      const long long r = f();
      if (std::to_string(r) != expected_) fail("dynamic " + std::to_string(r) + " != EXPECTED " + expected_);
    } catch (const std::exception& e) {
      fail(std::string("dynamic form threw: ") + e.what());
    }
  }

 private:
  void fail(const std::string& why) {
    failures_.push_back(label_ + " [" + variant_ + "] " + expression_ + ": " + why);
  }

  std::optional<cute_dsl::runtime::Value> tree_value() {
    try {
      return cute_dsl::runtime::evaluate_expression(expression_);
    } catch (const std::exception& e) {
      fail(std::string("the tree algebra threw: ") + e.what());
      return std::nullopt;
    }
  }

  // The rule the tree algebra names for this row, if it refuses it.
  std::optional<cute_dsl::tree::Error> tree_error() {
    try {
      cute_dsl::runtime::evaluate_expression(expression_);
    } catch (const cute_dsl::LayoutError& e) {
      return e.rule();
    } catch (const std::exception& e) {
      fail(std::string("the tree algebra threw a non-layout error: ") + e.what());
      return cute_dsl::tree::Error::none;
    }
    return std::nullopt;
  }

  template <class F>
  void expect_same_error(F& f) {
    const auto rule = tree_error();
    if (!rule) return fail("the tree algebra accepted an ERROR row");
    try {
      const Tree r = f();
      fail("dynamic form accepted an ERROR row, giving " + text(r));
    } catch (const cute_dsl::LayoutError& e) {
      if (e.rule() != *rule)
        fail(std::string("dynamic form named another rule: ") + e.what() + " (tree: " + cute_dsl::tree::error_rule(*rule) + ")");
    }
  }

  Tree expected_tree() {
    try {
      return cute_dsl::runtime::parse_layout(expected_);
    } catch (const std::exception& e) {
      fail(std::string("EXPECTED does not parse: ") + e.what());
      return cute_dsl::tree::make_tree_leaf(1, 0);
    }
  }

  std::string label_, expression_, expected_, variant_;
  std::vector<std::string> failures_;
};

struct Case {
  const char* label;
  const char* expression;
  const char* expected;
  const char* variant;
  void (*run)(Checker&);
};

template <std::size_t N>
void run_cases(const Case (&cases)[N]) {
  std::vector<std::string> failures;
  for (const Case& c : cases) {
    Checker checker(c.label, c.expression, c.expected, c.variant);
    c.run(checker);
    failures.insert(failures.end(), checker.failures().begin(), checker.failures().end());
  }
  std::ostringstream report;
  for (const std::string& f : failures) report << f << "\n";
  EXPECT_TRUE(failures.empty()) << failures.size() << " of " << N << " cases failed:\n" << report.str();
  ::testing::Test::RecordProperty("cases", int(N));
}

}  // namespace agreement
