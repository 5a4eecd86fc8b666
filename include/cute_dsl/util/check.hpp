// Run-time checks of the layout algebra's rules, and the one text of each rule.
//
// Why one text for both faces: a static input that breaks a rule fails with a static_assert, a
// run-time input with CUTE_DSL_CHECK; a user must read the same words in both cases, e.g.
//   "composition: Stride Divisibility Condition: every stride of B must divide, or be a
//    multiple of, the extents of A it crosses"
// static_assert needs a string literal, so each rule is spelled as two macros (name, why) that
// both paths paste together. The names repeat tree::error_rule(); a test checks that they agree.
//
// What a failed check does:
//   host (g++, clang, nvcc host pass)       throws cute_dsl::LayoutError (util/error.hpp);
//   device (nvcc device pass, NVRTC)        printf's the message, then __trap();
//   constant evaluation                     stops compilation, the notes name the call.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/tree.hpp"
#include "cute_dsl/util/error.hpp"

// The full message without the function: "<rule name>: <why>".
#define CUTE_DSL_RULE_TEXT(rule) CUTE_DSL_RULE_NAME_##rule ": " CUTE_DSL_RULE_WHY_##rule

namespace cute_dsl::detail {

// The "why" half of a rule's text, for checks whose rule is only known at run time.
CUTE_DSL_HOST_DEVICE constexpr const char* rule_why(tree::Error e) {
  switch (e) {
#define CUTE_DSL_RULE_WHY_CASE(rule) \
  case tree::Error::rule: return CUTE_DSL_RULE_WHY_##rule;
    CUTE_DSL_RULE_WHY_CASE(capacity)
    CUTE_DSL_RULE_WHY_CASE(stride_divisibility)
    CUTE_DSL_RULE_WHY_CASE(shape_divisibility)
    CUTE_DSL_RULE_WHY_CASE(complement_injective)
    CUTE_DSL_RULE_WHY_CASE(complement_divisibility)
    CUTE_DSL_RULE_WHY_CASE(left_inverse_divisibility)
    CUTE_DSL_RULE_WHY_CASE(left_inverse_injective)
    CUTE_DSL_RULE_WHY_CASE(rank_mismatch)
    CUTE_DSL_RULE_WHY_CASE(congruence)
    CUTE_DSL_RULE_WHY_CASE(zero_shape)
    CUTE_DSL_RULE_WHY_CASE(negative_stride)
    CUTE_DSL_RULE_WHY_CASE(division_by_zero)
    CUTE_DSL_RULE_WHY_CASE(tile_divisibility)
    CUTE_DSL_RULE_WHY_CASE(overflow)
#undef CUTE_DSL_RULE_WHY_CASE
    case tree::Error::none: break;
  }
  return "the layout algebra refused the input";
}

// Only reached when a rule is broken. Deliberately not constexpr: reached during constant
// evaluation, it stops compilation with "call to non-'constexpr' function check_failed(...)",
// whose arguments show the function, the rule and the values.
[[noreturn]] CUTE_DSL_HOST_DEVICE inline void check_failed(const char* function, tree::Error rule,
                                                              const char* why, long long value0,
                                                              long long value1) {
#if defined(__CUDA_ARCH__) || defined(__CUDACC_RTC__)
  printf("%s: %s: %s (values %lld and %lld)\n", function, tree::error_rule(rule), why, value0, value1);
  __trap();
#else
  throw LayoutError(function, rule,
                    std::string(why) + " (values " + std::to_string(value0) + " and " + std::to_string(value1) + ")");
#endif
}

// A tree::Result that failed becomes the same failure as a CUTE_DSL_CHECK of its rule.
template <class T>
CUTE_DSL_HOST_DEVICE constexpr void check_result(const char* function, const tree::Result<T>& r) {
  if (!r.ok()) check_failed(function, r.error, rule_why(r.error), r.detail0, r.detail1);
}

}  // namespace cute_dsl::detail

// Check a rule at run time. `function` is a string literal naming the user-facing function,
// `rule` an enumerator of tree::Error (e.g. stride_divisibility); `value0/value1` are the
// numbers that broke it, for the message.
#define CUTE_DSL_CHECK_VALUES(cond, function, rule, value0, value1)                                           \
  do {                                                                                                        \
    if (!(cond))                                                                                              \
      ::cute_dsl::detail::check_failed(function, ::cute_dsl::tree::Error::rule, CUTE_DSL_RULE_WHY_##rule,     \
                                       (long long)(value0), (long long)(value1));                             \
  } while (0)
#define CUTE_DSL_CHECK(cond, function, rule) CUTE_DSL_CHECK_VALUES(cond, function, rule, 0, 0)

// The compile-time face: fails compilation with exactly the text a run-time check would throw.
#define CUTE_DSL_STATIC_CHECK(cond, function, rule) static_assert(cond, function ": " CUTE_DSL_RULE_TEXT(rule))
