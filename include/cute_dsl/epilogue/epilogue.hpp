// Fused GEMM epilogues as expression trees (docs/10_epilogues.md): the whole public surface.
#pragma once

#include "cute_dsl/epilogue/compute.hpp"
#include "cute_dsl/epilogue/convert.hpp"
#include "cute_dsl/epilogue/evaluate.hpp"
#include "cute_dsl/epilogue/functors.hpp"
#include "cute_dsl/epilogue/leaves.hpp"
#include "cute_dsl/epilogue/node.hpp"
#include "cute_dsl/epilogue/reduce.hpp"
#include "cute_dsl/epilogue/reduce_scatter.hpp"
#include "cute_dsl/epilogue/store.hpp"
