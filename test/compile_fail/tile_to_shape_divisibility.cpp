// A target shape that the swizzled atom does not divide: 100 rows of 8-row atoms.
// EXPECT: tile_to_shape: Tile Divisibility Condition: the target shape must be a multiple of the block's shape in every mode
#include "cute_dsl/layout/algebra.hpp"
#include "cute_dsl/arch/sm90/gmma_layout.hpp"
using namespace cute_dsl;
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
auto r = tile_to_shape(gmma_smem_atom<short, GmmaMajor::K, GmmaLayoutType::sw128>(), make_shape(_96{} + _4{}, _64{}, _4{}));
#else
auto r = tile_to_shape(gmma_smem_atom<short, GmmaMajor::K, GmmaLayoutType::sw128>(), make_shape(_96{} + _8{}, _64{}, _4{}));
#endif
