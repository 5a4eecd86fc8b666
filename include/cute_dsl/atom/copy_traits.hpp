// Copy_Traits<Op>: what a copy instruction does to a warp's (or thread's) data, as layouts.
//
// Every trait holds (as in CuTe's Copy_Traits), in BITS so that one trait serves every element
// type (Copy_Atom<Op, T> divides by sizeof_bits(T), atom/copy_atom.hpp):
//   ThrID      Layout<_N>: the N threads that take part (1 for a per-thread copy, 32 for a warp's)
//   SrcLayout  (src thread, src value) -> bit offset in the data one instruction moves
//   DstLayout  (dst thread, dst value) -> bit offset in the same data
//   RefLayout  SrcLayout or DstLayout: the side a TiledCopy's thread/value layout describes; the
//              other side is found through it (right_inverse(Ref) o Src maps src (t,v) to ref (t,v)).
// The bit offsets number the moved data as it sits in memory: for ldmatrix/stmatrix, an 8x8
// matrix of 16-bit elements stored row by row (128 bits a row), matrix i after matrix i-1.
//
// This header holds the primary template and the arch-neutral UniversalCopy; the traits of
// arch-specific instructions are in copy_traits_sm75 (ldmatrix), _sm80 (cp.async), _sm90 (stmatrix).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/arch/copy.hpp"

namespace cute_dsl {

// Specialised per copy operation; the primary template names what is missing.
template <class Op>
struct Copy_Traits {
  static_assert(dependent_false<Op>, "Copy_Traits: no traits for this copy operation (include its atom/copy_traits_smXX.hpp)");
};

// The layout of a copy done by one thread moving `Bits` bits: (1 thread, Bits bits).
template <int Bits>
using CopyLayout1Thread = Layout<tuple<_1, Int<Bits>>, tuple<_0, _1>>;

template <class S, class D>
struct Copy_Traits<UniversalCopy<S, D>> {
  using ThrID = Layout<_1>;
  using SrcLayout = CopyLayout1Thread<int(sizeof(S)) * 8>;
  using DstLayout = CopyLayout1Thread<int(sizeof(D)) * 8>;
  using RefLayout = SrcLayout;
};

// An operation that a CopyOp concept accepts: it has traits and a static copy.
template <class Op>
concept CopyOp = requires {
  typename Copy_Traits<Op>::ThrID;
  typename Copy_Traits<Op>::SrcLayout;
  typename Copy_Traits<Op>::DstLayout;
  typename Copy_Traits<Op>::RefLayout;
};

}  // namespace cute_dsl
