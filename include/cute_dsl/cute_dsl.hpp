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
#include "cute_dsl/tensor/pointer.hpp"
#include "cute_dsl/tensor/engine.hpp"
#include "cute_dsl/tensor/tensor.hpp"
#include "cute_dsl/tensor/tensor_algebra.hpp"
#include "cute_dsl/tensor/tiling.hpp"
#include "cute_dsl/tensor/identity_tensor.hpp"
#include "cute_dsl/tensor/recast.hpp"
#include "cute_dsl/algorithm/copy.hpp"
#include "cute_dsl/algorithm/fill.hpp"
#include "cute_dsl/algorithm/clear.hpp"
#include "cute_dsl/algorithm/axpby.hpp"
#include "cute_dsl/algorithm/gemm.hpp"
#include "cute_dsl/algorithm/reduce.hpp"
#include "cute_dsl/algorithm/cooperative_copy.hpp"
// MMA atoms (docs/03_atoms.md): the sm_80/sm_90a wrappers fail to compile only when USED for
// too old a target.
#include "cute_dsl/atom/mma_atom.hpp"
#include "cute_dsl/atom/tiled_mma.hpp"
// Copy atoms (docs/03_atoms.md): universal copy, cp.async, ldmatrix, stmatrix, TMA; the arch/
// wrappers fail to compile only when USED for too old a target.
#include "cute_dsl/atom/copy_traits_sm75.hpp"
#include "cute_dsl/atom/copy_traits_sm80.hpp"
#include "cute_dsl/atom/copy_traits_sm90.hpp"
#include "cute_dsl/atom/tiled_copy.hpp"
#include "cute_dsl/arch/sm90/tma_copy.hpp"
#include "cute_dsl/atom/tma_atom.hpp"  // TMA as an atom (host builder: atom/make_tma_atom.hpp)
// Synchronisation and pipelines (docs/04_pipelines.md); the arch/ wrappers fail to compile only
// when USED for too old a target.
#include "cute_dsl/arch/sm90/mbarrier.hpp"
#include "cute_dsl/arch/sm90/cluster.hpp"
#include "cute_dsl/arch/sm90/fence.hpp"
#include "cute_dsl/arch/sm90/bulk_copy.hpp"
#include "cute_dsl/pipeline/pipeline_state.hpp"
#include "cute_dsl/pipeline/pipeline_storage.hpp"
#include "cute_dsl/pipeline/tma_pipeline.hpp"
#include "cute_dsl/pipeline/async_pipeline.hpp"
#include "cute_dsl/pipeline/cp_async_pipeline.hpp"
#include "cute_dsl/warp/reduce_ops.hpp"
#include "cute_dsl/warp/shuffle.hpp"
#include "cute_dsl/warp/block_reduce.hpp"
