// The words of each rule of the layout algebra: one table, read by tree::error_rule() (run-time
// messages) and by the static_asserts and run-time checks (util/check.hpp). Macros, because a
// static_assert message must be a string literal.
//   CUTE_DSL_RULE_NAME_<e>: the rule's name, for tree::Error::<e>;
//   CUTE_DSL_RULE_WHY_<e>:  what the rule asks, in words.
#pragma once

#include "cute_dsl/config.hpp"  // the C++20 check, like every public header

#define CUTE_DSL_RULE_NAME_capacity "Capacity: the layout has too many modes for CUTE_DSL_TREE_CAPACITY"
#define CUTE_DSL_RULE_WHY_capacity "raise CUTE_DSL_TREE_CAPACITY or use fewer modes"
#define CUTE_DSL_RULE_NAME_stride_divisibility "Stride Divisibility Condition"
#define CUTE_DSL_RULE_WHY_stride_divisibility \
  "every stride of B must divide, or be a multiple of, the extents of A it crosses"
#define CUTE_DSL_RULE_NAME_shape_divisibility "Shape Divisibility Condition"
#define CUTE_DSL_RULE_WHY_shape_divisibility \
  "every shape of B must be a multiple of, or divide, the extents of A it spans"
#define CUTE_DSL_RULE_NAME_complement_injective "Injectivity Condition (the layout must not overlap itself)"
#define CUTE_DSL_RULE_WHY_complement_injective \
  "sorted by stride, each mode must start at or past the end of the modes below it"
#define CUTE_DSL_RULE_NAME_complement_divisibility "Stride Divisibility Condition (sorted strides must nest exactly)"
#define CUTE_DSL_RULE_WHY_complement_divisibility \
  "sorted by stride, each stride must be a multiple of the extent (shape times stride) of the mode below it"
#define CUTE_DSL_RULE_NAME_left_inverse_divisibility "Left Inverse Divisibility Condition"
#define CUTE_DSL_RULE_WHY_left_inverse_divisibility "sorted by stride, each stride must divide the next one"
#define CUTE_DSL_RULE_NAME_left_inverse_injective "Injectivity Condition (left_inverse needs an injective layout)"
#define CUTE_DSL_RULE_WHY_left_inverse_injective "distinct coordinates must map to distinct offsets"
#define CUTE_DSL_RULE_NAME_rank_mismatch "Rank Condition"
#define CUTE_DSL_RULE_WHY_rank_mismatch "a tiler must not have more modes than the layout it applies to"
#define CUTE_DSL_RULE_NAME_congruence "Congruence Condition (shape and stride must nest alike)"
#define CUTE_DSL_RULE_WHY_congruence "the two int-tuples must have the same nesting"
#define CUTE_DSL_RULE_NAME_zero_shape "Positive Shape Condition"
#define CUTE_DSL_RULE_WHY_zero_shape "every extent must be at least 1"
#define CUTE_DSL_RULE_NAME_negative_stride "Non-negative Stride Condition"
#define CUTE_DSL_RULE_WHY_negative_stride "the algebra does not handle negative strides"
#define CUTE_DSL_RULE_NAME_division_by_zero "Division by zero"
#define CUTE_DSL_RULE_WHY_division_by_zero "a divisor computed from the inputs is zero"
#define CUTE_DSL_RULE_NAME_tile_divisibility "Tile Divisibility Condition"
#define CUTE_DSL_RULE_WHY_tile_divisibility \
  "the target shape must be a multiple of the block's shape in every mode"
#define CUTE_DSL_RULE_NAME_overflow "Integer overflow"
#define CUTE_DSL_RULE_WHY_overflow "a size, offset or stride does not fit in 64 bits"

