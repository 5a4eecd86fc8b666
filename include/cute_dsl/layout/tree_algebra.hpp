// The layout algebra over the value form tree::Tree, written once for the host tool, the JIT and
// (in constant expressions) the compile-time templates. Every function is constexpr, allocates
// nothing, throws nothing, and reports a refused input as a tree::Result whose Error names the
// rule. See docs/design/algebra_core.md.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/tree.hpp"
#include "cute_dsl/layout/tree_basics.hpp"
#include "cute_dsl/layout/tree_coalesce.hpp"
#include "cute_dsl/layout/tree_composition.hpp"
#include "cute_dsl/layout/tree_complement.hpp"
#include "cute_dsl/layout/tree_inverse.hpp"
#include "cute_dsl/layout/tree_divide.hpp"
#include "cute_dsl/layout/tree_product.hpp"
#include "cute_dsl/layout/tree_tile_to_shape.hpp"
#include "cute_dsl/layout/tree_common.hpp"
