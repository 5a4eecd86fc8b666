// TV layouts of the sm_90a wgmma atoms (arch/sm90/wgmma.hpp), from the PTX ISA figures "WGMMA
// .m64nNk16 register fragment layout for accumulator matrix D" and "... for matrix A". The 128
// threads of a warpgroup are (4, 8, 4): q = lane % 4, g = lane / 4, w = warp; warp w owns rows
// 16w .. 16w+15 and, within them, the m16n8k16 pattern repeats for every 8 columns:
//
//   D (64xN):  d[4j+0], d[4j+1] at (16w+g, 8j+2q+{0,1});  d[4j+2], d[4j+3] at (16w+g+8, same)
//   A (64x16, registers, RS only):  a0..a7 as mma.m16n8k16's A, rows offset by 16w
//
// Offsets are column-major in the atom's tile: m + 64k for A, n + N*k for B, m + 64n for C.
// A and B read from shared memory (descriptors) are not split among threads: every thread "sees"
// the whole 64x16 (Nx16) block, so their layouts have a stride-0 thread mode.
#pragma once

#include "cute_dsl/atom/traits/mma_traits.hpp"
#include "cute_dsl/arch/sm90/wgmma.hpp"

struct __half;
struct __nv_bfloat16;

namespace cute_dsl {

namespace detail {
using SM90_Thr4x8x4 = Shape<Int<4>, Int<8>, Int<4>>;

template <int N>
using SM90_64xN_C = Layout<Shape<SM90_Thr4x8x4, Shape<Int<2>, Int<2>, Int<N / 8>>>,
                           Stride<Stride<Int<128>, Int<1>, Int<16>>, Stride<Int<64>, Int<8>, Int<512>>>>;
using SM90_64x16_A_RS = Layout<Shape<SM90_Thr4x8x4, Shape<Int<2>, Int<2>, Int<2>>>,
                               Stride<Stride<Int<128>, Int<1>, Int<16>>, Stride<Int<64>, Int<8>, Int<512>>>>;
// Every thread addresses the whole (MN, 16) block through the descriptor.
template <int MN>
using SM90_MNx16_Smem = Layout<Shape<Int<128>, Shape<Int<MN>, Int<16>>>, Stride<Int<0>, Stride<Int<1>, Int<MN>>>>;

template <GmmaInput In> struct gmma_value_type;
template <> struct gmma_value_type<GmmaInput::f16> { using type = __half; };
template <> struct gmma_value_type<GmmaInput::bf16> { using type = __nv_bfloat16; };

template <int N, GmmaInput In>
struct SM90_64xNx16_Traits {
  using ValTypeD = float;
  using ValTypeA = typename gmma_value_type<In>::type;
  using ValTypeB = typename gmma_value_type<In>::type;
  using ValTypeC = float;
  using Shape_MNK = Shape<Int<64>, Int<N>, Int<16>>;
  using ThrID = Layout<Int<128>>;
  using BLayout = SM90_MNx16_Smem<N>;
  using CLayout = SM90_64xN_C<N>;
};
}  // namespace detail

// The inverse: which GmmaInput an element type is (a kernel templated on the element type picks
// its wgmma with it). Only the two 16-bit float types have one.
template <class T> struct gmma_input_of;
template <> struct gmma_input_of<__half> { static constexpr GmmaInput value = GmmaInput::f16; };
template <> struct gmma_input_of<__nv_bfloat16> { static constexpr GmmaInput value = GmmaInput::bf16; };
template <class T> inline constexpr bool has_gmma_input_v = requires { gmma_input_of<T>::value; };

template <int N, GmmaInput In, GmmaMajor MA, GmmaMajor MB, GmmaScale SA, GmmaScale SB>
struct MMA_Traits<SM90_64xNx16_F32_SS<N, In, MA, MB, SA, SB>> : detail::SM90_64xNx16_Traits<N, In> {
  using ALayout = detail::SM90_MNx16_Smem<64>;
  static constexpr GmmaMajor major_a = MA;
  static constexpr GmmaMajor major_b = MB;
};

template <int N, GmmaInput In, GmmaMajor MB, GmmaScale SA, GmmaScale SB>
struct MMA_Traits<SM90_64xNx16_F32_RS<N, In, MB, SA, SB>> : detail::SM90_64xNx16_Traits<N, In> {
  using ALayout = detail::SM90_64x16_A_RS;
  static constexpr GmmaMajor major_a = GmmaMajor::K;
  static constexpr GmmaMajor major_b = MB;
};

}  // namespace cute_dsl
