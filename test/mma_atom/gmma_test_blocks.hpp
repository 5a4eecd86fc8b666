// Shared by the wgmma GPU test and its host emulation: the shared-memory block a test fills,
// the canonical atom of (Major, Type) tiled over an (MN x K) block, atoms along MN first.
#pragma once

#include "cute_dsl/arch/sm90/gmma_layout.hpp"
#include "cute_dsl/layout/algebra.hpp"

namespace mma_test {

template <class T, cute_dsl::GmmaMajor Major, cute_dsl::GmmaLayoutType Type, int MN, int K>
CUTE_DSL_HOST_DEVICE constexpr auto smem_block() {
  using namespace cute_dsl;
  constexpr auto atom = gmma_smem_atom<T, Major, Type>();
  constexpr int atom_mn = int(decltype(size<0>(atom.layout_b()))::value);
  constexpr int atom_k = int(decltype(size<1>(atom.layout_b()))::value);
  return composition(atom.layout_a(),
                     blocked_product(atom.layout_b(), make_layout(make_shape(Int<MN / atom_mn>{}, Int<K / atom_k>{}))));
}

// Short names for the configuration lists of the tests.
inline constexpr auto kSw128 = cute_dsl::GmmaLayoutType::sw128;
inline constexpr auto kSw64 = cute_dsl::GmmaLayoutType::sw64;
inline constexpr auto kSw32 = cute_dsl::GmmaLayoutType::sw32;
inline constexpr auto kInterleave = cute_dsl::GmmaLayoutType::interleave;
inline constexpr auto kMN = cute_dsl::GmmaMajor::MN;
inline constexpr auto kKM = cute_dsl::GmmaMajor::K;

}  // namespace mma_test
