// Shared by the wgmma GPU test and its host emulation: the shared-memory block a test fills,
// the canonical atom of (Major, Type) tiled over an (MN x K) block, atoms along MN first
// (tile_to_shape's column-major order).
#pragma once

#include "cute_dsl/arch/sm90/gmma_layout.hpp"
#include "cute_dsl/layout/algebra.hpp"

namespace mma_test {

template <class T, cute_dsl::GmmaMajor Major, cute_dsl::GmmaLayoutType Type, int MN, int K>
CUTE_DSL_HOST_DEVICE constexpr auto smem_block() {
  using namespace cute_dsl;
  return tile_to_shape(gmma_smem_atom<T, Major, Type>(), make_shape(Int<MN>{}, Int<K>{}));
}

// Short names for the configuration lists of the tests.
inline constexpr auto kSw128 = cute_dsl::GmmaLayoutType::sw128;
inline constexpr auto kSw64 = cute_dsl::GmmaLayoutType::sw64;
inline constexpr auto kSw32 = cute_dsl::GmmaLayoutType::sw32;
inline constexpr auto kInterleave = cute_dsl::GmmaLayoutType::interleave;
inline constexpr auto kMN = cute_dsl::GmmaMajor::MN;
inline constexpr auto kKM = cute_dsl::GmmaMajor::K;

}  // namespace mma_test
