// Copy_Traits of ldmatrix (arch/sm75/ldmatrix.hpp), from the PTX ISA figures "ldmatrix fragment"
// (in bits; 128 bits = one 16-byte row of an 8x8 b16 matrix, 1024 bits = one matrix):
//   source: thread t gives the address of row t%8 of matrix t/8 (threads past 8*N repeat: stride 0)
//   dest  : thread t gets bits [32t, 32t+32) of each matrix, i.e. row t/4, 16-bit columns
//           2*(t%4), 2*(t%4)+1; register i holds matrix i.
//   .trans: thread t gets elements (row 2*(t%4) + j, column t/4), j = 0, 1, of each stored matrix.
// RefLayout is the destination: a TiledCopy of ldmatrix describes where the REGISTERS land.
#pragma once

#include "cute_dsl/atom/copy_traits.hpp"
#include "cute_dsl/arch/sm75/ldmatrix.hpp"

namespace cute_dsl {

namespace detail {
// Source side of an ldmatrix of N matrices: 8*N threads each own one 128-bit row.
template <int N>
using LdsmSrcLayout = conditional_t<N == 4, Layout<tuple<_32, _128>, tuple<_128, _1>>,
                                    Layout<tuple<tuple<Int<8 * N>, Int<4 / N>>, _128>, tuple<tuple<_128, _0>, _1>>>;
// Destination, untransposed: 32 contiguous bits per thread per matrix.
template <int N>
using LdsmDstLayoutN = Layout<tuple<_32, tuple<_32, Int<N>>>, tuple<_32, tuple<_1, _1024>>>;
// Destination, transposed: two 16-bit elements per matrix, one row (128 bits) apart.
template <int N>
using LdsmDstLayoutT = Layout<tuple<tuple<_4, _8>, tuple<_16, _2, Int<N>>>, tuple<tuple<_256, _16>, tuple<_1, _128, _1024>>>;
}  // namespace detail

template <int N, bool Transpose>
struct LdsmTraits {
  using ThrID = Layout<_32>;
  using SrcLayout = detail::LdsmSrcLayout<N>;
  using DstLayout = conditional_t<Transpose, detail::LdsmDstLayoutT<N>, detail::LdsmDstLayoutN<N>>;
  using RefLayout = DstLayout;
};

template <> struct Copy_Traits<SM75_U32x1_LDSM_N> : LdsmTraits<1, false> {};
template <> struct Copy_Traits<SM75_U32x2_LDSM_N> : LdsmTraits<2, false> {};
template <> struct Copy_Traits<SM75_U32x4_LDSM_N> : LdsmTraits<4, false> {};
template <> struct Copy_Traits<SM75_U16x2_LDSM_T> : LdsmTraits<1, true> {};
template <> struct Copy_Traits<SM75_U16x4_LDSM_T> : LdsmTraits<2, true> {};
template <> struct Copy_Traits<SM75_U16x8_LDSM_T> : LdsmTraits<4, true> {};

}  // namespace cute_dsl
