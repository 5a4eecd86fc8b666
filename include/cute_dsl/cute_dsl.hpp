// The umbrella header for users: every device-facing part of the library.
// Library headers themselves include only what they use; the host-only run-time face
// (cute_dsl/runtime/) and printing (cute_dsl/util/print.hpp) are included separately.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/numeric/math.hpp"
#include "cute_dsl/container/tuple.hpp"
#include "cute_dsl/container/tuple_algorithms.hpp"
#include "cute_dsl/concepts.hpp"
#include "cute_dsl/layout/underscore.hpp"
#include "cute_dsl/layout/int_tuple.hpp"
#include "cute_dsl/layout/stride.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/swizzle.hpp"
#include "cute_dsl/layout/composed_layout.hpp"
#include "cute_dsl/layout/tree.hpp"
#include "cute_dsl/layout/tree_algebra.hpp"
#include "cute_dsl/layout/to_tree.hpp"
#include "cute_dsl/layout/algebra.hpp"
