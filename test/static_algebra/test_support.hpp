// Helpers of the static_algebra tests: random run-time layouts of a fixed nesting, and the
// comparison of a template answer with the tree algebra's answer on the same values.
#pragma once

#include "cute_dsl/layout/algebra.hpp"
#include "cute_dsl/layout/tree_algebra.hpp"
#include "cute_dsl/runtime/print.hpp"
#include "cute_dsl/util/error.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace static_algebra_test {

using namespace cute_dsl;
using tree::index_t;

inline std::string text(const tree::Tree& t) { return runtime::to_string(t); }

// Same size and the same offset for every index below it.
inline bool same_function(const tree::Tree& a, const tree::Tree& b) {
  const index_t n = tree::size(a);
  if (n != tree::size(b)) return false;
  for (index_t i = 0; i < n; ++i)
    if (tree::evaluate(a, i) != tree::evaluate(b, i)) return false;
  return true;
}

// Every run-time leaf of T replaced by a value drawn from `pick`; static leaves kept.
template <class T, class Pick>
T random_int_tuple(Pick& pick) {
  if constexpr (is_tuple_v<T>) {
    return transform(T{}, [&](auto x) { return random_int_tuple<decltype(x)>(pick); });
  } else if constexpr (is_C_v<T>) {
    return T{};
  } else {
    return T(pick());
  }
}

// The same layout with every leaf a run-time int.
template <class L>
auto dynamic_copy(L const& l) {
  auto to_int = [](auto x) { return int(x); };
  return make_layout(transform_leaf(l.shape(), to_int), transform_leaf(l.stride(), to_int));
}

struct Random {
  std::mt19937 rng{12345};
  int shape() {
    static constexpr int kShapes[] = {1, 2, 2, 3, 4, 4, 6, 8};
    return kShapes[rng() % 8];
  }
  int stride() {
    static constexpr int kStrides[] = {0, 1, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32};
    return kStrides[rng() % 12];
  }
  // A compact-ish stride for shape s at position k, to get many valid inputs.
  template <class L>
  L layout() {
    auto ps = [&] { return shape(); };
    auto pd = [&] { return stride(); };
    return L(random_int_tuple<typename L::shape_type>(ps), random_int_tuple<typename L::stride_type>(pd));
  }
  // Column-major compact strides over the drawn shapes, sometimes with a gap, so that most
  // compositions and complements are valid.
  template <class L>
  L compact_layout() {
    if constexpr (is_static_v<typename L::stride_type> || !is_same_v<decltype(flatten_to_tuple(declval<typename L::stride_type>())),
                                                                       decltype(flatten_to_tuple(declval<typename L::shape_type>()))>) {
      return layout<L>();  // static strides: nothing to choose
    } else {
    auto ps = [&] { return shape(); };
    auto s = random_int_tuple<typename L::shape_type>(ps);
    index_t current = 1 + (rng() % 4 == 0 ? 1 : 0);
    auto d = transform_leaf(s, [&](auto x) {
      const index_t here = current;
      current *= index_t(x) * (rng() % 5 == 0 ? 2 : 1);
      return int(here);
    });
    return L(s, d);
    }
  }
};

// The outcome of one call: a tree, or the rule it was refused by.
struct Outcome {
  bool ok = false;
  tree::Tree tree{};
  tree::Error error = tree::Error::none;
  std::string message;
};

template <class F>
Outcome outcome_of(F&& f) {
  Outcome o;
  try {
    o.tree = f();
    o.ok = true;
  } catch (const LayoutError& e) {
    o.error = e.rule();
    o.message = e.what();
  }
  return o;
}

inline Outcome outcome_of_tree(const tree::Result<tree::Tree>& r) {
  Outcome o;
  o.ok = r.ok();
  if (o.ok) o.tree = r.value;
  o.error = r.error;
  return o;
}

// The template answer agrees with the tree's: both refuse by the same rule, or both accept with
// the same function and size.
inline ::testing::AssertionResult agree(const Outcome& templ, const Outcome& tree_answer, const std::string& what) {
  if (templ.ok != tree_answer.ok)
    return ::testing::AssertionFailure() << what << ": template " << (templ.ok ? "accepted (" + text(templ.tree) + ")" : templ.message)
                                         << " but the tree " << (tree_answer.ok ? "accepted " + text(tree_answer.tree) : std::string(tree::error_rule(tree_answer.error)));
  if (!templ.ok) {
    if (templ.error != tree_answer.error)
      return ::testing::AssertionFailure() << what << ": template refused by " << templ.message << ", the tree by "
                                           << tree::error_rule(tree_answer.error);
    return ::testing::AssertionSuccess();
  }
  if (!same_function(templ.tree, tree_answer.tree))
    return ::testing::AssertionFailure() << what << ": template " << text(templ.tree) << " is not the function of the tree's "
                                         << text(tree_answer.tree);
  return ::testing::AssertionSuccess();
}

}  // namespace static_algebra_test
