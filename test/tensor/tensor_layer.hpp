// The headers under test: the tensor layer and the algorithms, with the layout algebra they use
// (not the umbrella, so these tests depend only on what they test).
#pragma once

#include <cute_dsl/layout/algebra.hpp>
#include <cute_dsl/layout/composed_layout.hpp>
#include <cute_dsl/tensor/pointer.hpp>
#include <cute_dsl/tensor/engine.hpp>
#include <cute_dsl/tensor/tensor.hpp>
#include <cute_dsl/tensor/tensor_algebra.hpp>
#include <cute_dsl/tensor/tiling.hpp>
#include <cute_dsl/tensor/identity_tensor.hpp>
#include <cute_dsl/tensor/recast.hpp>
#include <cute_dsl/algorithm/copy.hpp>
#include <cute_dsl/algorithm/fill.hpp>
#include <cute_dsl/algorithm/clear.hpp>
#include <cute_dsl/algorithm/axpby.hpp>
#include <cute_dsl/algorithm/gemm.hpp>
#include <cute_dsl/algorithm/reduce.hpp>
#include <cute_dsl/algorithm/cooperative_copy.hpp>
