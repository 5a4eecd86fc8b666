// TV layouts of the sm_80 mma.sync atoms (arch/sm80/mma_sm80.hpp), from the PTX ISA figures
// "MMA .m16n8k16 fragment layout" and "MMA .m16n8k8 fragment layout (.tf32)". In a warp, lane l
// has groupID g = l / 4 and threadID_in_group q = l % 4, so a thread mode (4, 8) with q fastest.
//
//   m16n8k16 A (16x16, row): a0,a1 (g, 2q+{0,1})  a2,a3 (g+8, 2q+{0,1})
//                            a4,a5 (g, 2q+8+{0,1}) a6,a7 (g+8, 2q+8+{0,1})
//   m16n8k16 B (16x8, col):  b0,b1 (k=2q+{0,1}, n=g)  b2,b3 (k=2q+8+{0,1}, n=g)
//   C/D (16x8):              c0,c1 (g, 2q+{0,1})  c2,c3 (g+8, 2q+{0,1})
//   m16n8k8 tf32 A (16x8):   a0 (g, q)  a1 (g+8, q)  a2 (g, q+4)  a3 (g+8, q+4)
//   m16n8k8 tf32 B (8x8):    b0 (k=q, n=g)  b1 (k=q+4, n=g)
// Offsets are column-major in the atom's tile: m + 16k for A, n + 8k for B, m + 16n for C.
#pragma once

#include "cute_dsl/atom/traits/mma_traits.hpp"
#include "cute_dsl/arch/sm80/mma_sm80.hpp"

// The 16-bit element types, declared only: the caller includes <cuda_fp16.h> / <cuda_bf16.h>
// when it makes register fragments of them (NVRTC pays for those headers otherwise).
struct __half;
struct __nv_bfloat16;

namespace cute_dsl {

namespace detail {
// (thread, value) layouts shared by the three sm_80 atoms (and, once per warp, by sm_90's).
using SM80_Thr4x8 = Shape<Int<4>, Int<8>>;
using SM80_16x16_A = Layout<Shape<SM80_Thr4x8, Shape<Int<2>, Int<2>, Int<2>>>,
                            Stride<Stride<Int<32>, Int<1>>, Stride<Int<16>, Int<8>, Int<128>>>>;
using SM80_8x16_B = Layout<Shape<SM80_Thr4x8, Shape<Int<2>, Int<2>>>,
                           Stride<Stride<Int<16>, Int<1>>, Stride<Int<8>, Int<64>>>>;
using SM80_16x8_C = Layout<Shape<SM80_Thr4x8, Shape<Int<2>, Int<2>>>,
                           Stride<Stride<Int<32>, Int<1>>, Stride<Int<16>, Int<8>>>>;
using SM80_16x8_A_TF32 = Layout<Shape<SM80_Thr4x8, Shape<Int<2>, Int<2>>>,
                                Stride<Stride<Int<16>, Int<1>>, Stride<Int<8>, Int<64>>>>;
using SM80_8x8_B_TF32 = Layout<Shape<SM80_Thr4x8, Int<2>>, Stride<Stride<Int<8>, Int<1>>, Int<32>>>;

// The three atoms differ only in input type, K, and the A/B layouts.
template <class T, int K, class ALayout_, class BLayout_>
struct SM80_16x8_F32_Traits {
  using ValTypeD = float;
  using ValTypeA = T;
  using ValTypeB = T;
  using ValTypeC = float;
  using Shape_MNK = Shape<Int<16>, Int<8>, Int<K>>;
  using ThrID = Layout<Int<32>>;
  using ALayout = ALayout_;
  using BLayout = BLayout_;
  using CLayout = SM80_16x8_C;
};
}  // namespace detail

template <>
struct MMA_Traits<SM80_16x8x16_F32F16F16F32_TN> : detail::SM80_16x8_F32_Traits<__half, 16, detail::SM80_16x16_A, detail::SM80_8x16_B> {};
template <>
struct MMA_Traits<SM80_16x8x16_F32BF16BF16F32_TN>
    : detail::SM80_16x8_F32_Traits<__nv_bfloat16, 16, detail::SM80_16x16_A, detail::SM80_8x16_B> {};
// tf32 operands are held as float (the instruction reads the upper 19 bits of each).
template <>
struct MMA_Traits<SM80_16x8x8_F32TF32TF32F32_TN>
    : detail::SM80_16x8_F32_Traits<float, 8, detail::SM80_16x8_A_TF32, detail::SM80_8x8_B_TF32> {};

}  // namespace cute_dsl
