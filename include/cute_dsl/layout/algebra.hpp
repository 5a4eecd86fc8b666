// CuTe's layout algebra on template layouts. Static inputs give static (type-level) answers
// computed by the tree algebra at compile time; inputs with run-time leaves give answers whose
// structure comes from the types and whose rules are checked on the values. See
// docs/design/layout.md.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/from_tree.hpp"
#include "cute_dsl/layout/static_bridge.hpp"
#include "cute_dsl/layout/coalesce.hpp"
#include "cute_dsl/layout/composition.hpp"
#include "cute_dsl/layout/complement.hpp"
#include "cute_dsl/layout/inverse.hpp"
#include "cute_dsl/layout/divide.hpp"
#include "cute_dsl/layout/product.hpp"
#include "cute_dsl/layout/max_common.hpp"
#include "cute_dsl/layout/tiling.hpp"
#include "cute_dsl/layout/tile_to_shape.hpp"
