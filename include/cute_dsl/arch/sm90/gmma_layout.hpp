// The canonical shared-memory layouts that a wgmma matrix descriptor can describe (PTX ISA,
// "Shared Memory Matrix Layout" of the asynchronous warpgroup MMA), as swizzled layout atoms of
// (MN, K) coordinates -> ELEMENT offsets. Tile an atom over a block (blocked_product /
// tile_to_shape), point arch/sm90/gmma_desc.hpp's make_gmma_desc at a 64 x 16 (or N x 16)
// piece of the block, and wgmma reads exactly the elements this layout places.
//
// The unit of everything is a 16-byte "core row": a core matrix is 8 such rows (8 x 16 B). With
// E = 16 / sizeof(T) elements per core row and W the swizzle width in bytes:
//
//   mode           W     K-major atom (MN x K)            MN-major atom (MN x K)
//   interleave     16    Sw<0> o (8, E):(E, 1)            Sw<0> o (E, 8):(1, E)
//   32B swizzle    32    Sw<1,m,3> o (8, 2E):(2E, 1)      Sw<1,m,3> o (2E, 8):(1, 2E)
//   64B swizzle    64    Sw<2,m,3> o (8, 4E):(4E, 1)      Sw<2,m,3> o (4E, 8):(1, 4E)
//   128B swizzle   128   Sw<3,m,3> o (8, 8E):(8E, 1)      Sw<3,m,3> o (8E, 8):(1, 8E)
//
// with m = log2(E): the swizzle permutes 16-byte chunks (m low element bits untouched) within
// each 8-row, W-byte block by XOR with the row index. A note on notation: CuTe prints the bf16
// 128B K-major atom as Sw<3,4,3> o smem_ptr[16b] o (8,64):(64,1) because its swizzle acts on
// BYTE addresses; ours act on element offsets, so the same atom is Sw<3,3,3> o (8,64):(64,1)
// for 2-byte types (Sw<3,2,3> for 4-byte tf32, Sw<3,4,3> for 1-byte types). Both describe the
// same bytes provided the block starts at a multiple of 8 * W bytes (1024 B for 128B swizzle).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/swizzle.hpp"
#include "cute_dsl/layout/composed_layout.hpp"
#include "cute_dsl/arch/sm90/wgmma.hpp"

namespace cute_dsl {

// The descriptor's 2-bit layout type (bits 62-63): which swizzle the operand uses.
enum class GmmaLayoutType : int { interleave = 0, sw128 = 1, sw64 = 2, sw32 = 3 };

namespace detail {

// log2 of the swizzle width in 16-byte units: the Swizzle's B (bit count).
template <GmmaLayoutType L>
inline constexpr int gmma_swizzle_bits = L == GmmaLayoutType::sw128 ? 3 : L == GmmaLayoutType::sw64 ? 2
                                         : L == GmmaLayoutType::sw32  ? 1 : 0;

template <int Bytes>
inline constexpr int log2_of = Bytes == 1 ? 0 : Bytes == 2 ? 1 : Bytes == 4 ? 2 : Bytes == 8 ? 3 : Bytes == 16 ? 4 : -1;

}  // namespace detail

// Swizzle width in bytes (16 for interleave: one core row, no swizzle).
template <GmmaLayoutType L>
inline constexpr int gmma_swizzle_bytes = 16 << detail::gmma_swizzle_bits<L>;

// The swizzle of layout type L for elements of ElemBytes bytes, acting on element offsets.
template <GmmaLayoutType L, int ElemBytes>
using GmmaSwizzle = Swizzle<detail::gmma_swizzle_bits<L>, 4 - detail::log2_of<ElemBytes>, 3>;

// The swizzle atom of layout type L for element type T, (MN, K) -> element offset.
template <class T, GmmaMajor Major, GmmaLayoutType L>
CUTE_DSL_HOST_DEVICE constexpr auto gmma_smem_atom() {
  static_assert(detail::log2_of<int(sizeof(T))> >= 0 && sizeof(T) <= 4,
                "gmma_smem_atom: wgmma operands have 1-, 2- or 4-byte elements");
  constexpr int row = gmma_swizzle_bytes<L> / int(sizeof(T));  // elements along the contiguous dimension
  if constexpr (Major == GmmaMajor::K)
    return composition(GmmaSwizzle<L, int(sizeof(T))>{},
                       make_layout(make_shape(Int<8>{}, Int<row>{}), make_stride(Int<row>{}, Int<1>{})));
  else
    return composition(GmmaSwizzle<L, int(sizeof(T))>{},
                       make_layout(make_shape(Int<row>{}, Int<8>{}), make_stride(Int<1>{}, Int<row>{})));
}

// The names CuTe users look for (e.g. Layout_K_SW128_Atom<bf16>).
template <class T> using GmmaLayoutKInterleaveAtom = decltype(gmma_smem_atom<T, GmmaMajor::K, GmmaLayoutType::interleave>());
template <class T> using GmmaLayoutKSw32Atom = decltype(gmma_smem_atom<T, GmmaMajor::K, GmmaLayoutType::sw32>());
template <class T> using GmmaLayoutKSw64Atom = decltype(gmma_smem_atom<T, GmmaMajor::K, GmmaLayoutType::sw64>());
template <class T> using GmmaLayoutKSw128Atom = decltype(gmma_smem_atom<T, GmmaMajor::K, GmmaLayoutType::sw128>());
template <class T> using GmmaLayoutMNInterleaveAtom = decltype(gmma_smem_atom<T, GmmaMajor::MN, GmmaLayoutType::interleave>());
template <class T> using GmmaLayoutMNSw32Atom = decltype(gmma_smem_atom<T, GmmaMajor::MN, GmmaLayoutType::sw32>());
template <class T> using GmmaLayoutMNSw64Atom = decltype(gmma_smem_atom<T, GmmaMajor::MN, GmmaLayoutType::sw64>());
template <class T> using GmmaLayoutMNSw128Atom = decltype(gmma_smem_atom<T, GmmaMajor::MN, GmmaLayoutType::sw128>());

}  // namespace cute_dsl
