// MMA_Traits<Op>: what the generic MMA machinery (atom/mma_atom.hpp, atom/tiled_mma.hpp) needs to
// know about one instruction, in CuTe's vocabulary:
//
//   ValTypeD/A/B/C   element types of the operands as the caller holds them
//   Shape_MNK        (M, N, K) of one instruction
//   ThrID            the instruction's threads: (logical thread) -> thread index in the group
//   ALayout          (thread, value) -> m + M * k     where thread t's value v of A sits
//   BLayout          (thread, value) -> n + N * k
//   CLayout          (thread, value) -> m + M * n     (also D's)
//
// The TV layouts are transcriptions of the PTX ISA's fragment figures; test/mma_atom compares
// every (thread, value) with a table written from those figures. Specializations for each arch
// live beside this file (mma_traits_sm80.hpp, mma_traits_sm90.hpp).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/layout/int_tuple.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/arch/universal_fma.hpp"

namespace cute_dsl {

// Undefined for anything that is not an MMA operation (MMA_Atom checks and explains).
template <class Op>
struct MMA_Traits;

template <class Op>
concept MmaOp = requires { typename MMA_Traits<Op>::Shape_MNK; };

// The scalar FMA: one thread, one value of each operand.
template <class D, class A, class B, class C>
struct MMA_Traits<UniversalFMA<D, A, B, C>> {
  using ValTypeD = D;
  using ValTypeA = A;
  using ValTypeB = B;
  using ValTypeC = C;
  using Shape_MNK = Shape<Int<1>, Int<1>, Int<1>>;
  using ThrID = Layout<Int<1>, Int<0>>;
  using ALayout = Layout<Shape<Int<1>, Int<1>>, Stride<Int<0>, Int<0>>>;
  using BLayout = Layout<Shape<Int<1>, Int<1>>, Stride<Int<0>, Int<0>>>;
  using CLayout = Layout<Shape<Int<1>, Int<1>>, Stride<Int<0>, Int<0>>>;
};

}  // namespace cute_dsl
