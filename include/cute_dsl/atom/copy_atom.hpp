// Copy_Atom<Op, T>: one copy instruction (Op, an arch/ struct) applied to elements of type T.
//
// Its thread/value layouts are the instruction's Copy_Traits (in bits) divided by sizeof_bits(T):
//   ValLayoutSrc  (src thread, src value) -> element offset in the data one instruction moves
//   ValLayoutDst, ValLayoutRef likewise; NumValSrc / NumValDst: elements per thread per call.
//
// copy(atom, src, dst) moves this thread's share: src holds k*NumValSrc elements and dst
// k*NumValDst, in groups of NumValSrc (NumValDst) consecutive 1-D indices; each group is one
// instruction, whose operands are the addresses of the groups' first elements reinterpreted as
// the instruction's register units (uint128_t for a 16-byte row, unsigned for a 32-bit register).
//   @pre the elements of a group are contiguous in memory or registers (checked for static
//        plain layouts; a swizzle must keep them together, e.g. 16-byte rows for ldmatrix);
//        addresses aligned to the unit (16 bytes for ldmatrix rows and 16-byte cp.async).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/tensor/tensor.hpp"
#include "cute_dsl/tensor/recast.hpp"
#include "cute_dsl/atom/copy_traits.hpp"

namespace cute_dsl {

template <class Op, class T>
struct Copy_Atom {
  static_assert(CopyOp<Op>, "Copy_Atom: Op needs Copy_Traits<Op> (include the atom/copy_traits_smXX.hpp of the instruction)");
  using Traits = Copy_Traits<Op>;
  using ValType = T;
  static constexpr int value_bits = int(sizeof(T)) * 8;

  using ThrID = typename Traits::ThrID;
  using ValLayoutSrc = decltype(upcast<value_bits>(typename Traits::SrcLayout{}));
  using ValLayoutDst = decltype(upcast<value_bits>(typename Traits::DstLayout{}));
  using ValLayoutRef = decltype(upcast<value_bits>(typename Traits::RefLayout{}));

  static constexpr int NumThr = int(decltype(size(ThrID{}))::value);
  static constexpr int NumValSrc = int(decltype(size<1>(ValLayoutSrc{}))::value);
  static constexpr int NumValDst = int(decltype(size<1>(ValLayoutDst{}))::value);
  static constexpr int NumValRef = int(decltype(size<1>(ValLayoutRef{}))::value);
};

namespace detail {
// True when indices [0, n) of the static plain layout L are at offsets L(0), L(0)+1, ...
template <class L>
CUTE_DSL_HOST_DEVICE constexpr bool first_values_contiguous(int n) {
  if constexpr (is_static_v<L> && requires { typename L::stride_type; }) {
    for (int i = 1; i < n; ++i)
      if (int(L{}(i)) != int(L{}(0)) + i) return false;
  }
  return true;
}

// The register units of one side of an instruction: Regs is U[N].
template <class Regs> struct reg_array;
template <class U, unsigned long N> struct reg_array<U[N]> { using unit = U; static constexpr int count = int(N); };

template <class Op, class SU, class DU, unsigned long... Si, unsigned long... Di>
CUTE_DSL_HOST_DEVICE void call_copy_op(SU const* s, DU* d, index_sequence<Si...>, index_sequence<Di...>) {
  Op::copy(s[Si]..., d[Di]...);
}

// Ops that take a predicate themselves (cp.async's zero-fill forms) instead of being skipped.
template <class Op>
CUTE_DSL_HOST_DEVICE constexpr bool has_zero_fill() {
  if constexpr (requires { Op::zero_fill; }) return Op::zero_fill;
  else return false;
}
}  // namespace detail

// One instruction: src and dst are this thread's NumValSrc / NumValDst elements, from 1-D
// indices src_index / dst_index on.
template <class Op, class T, class SE, class SL, class Dst>
CUTE_DSL_HOST_DEVICE void copy_atom_call(Copy_Atom<Op, T> const&, Tensor<SE, SL> const& src, Dst& dst, int src_index = 0,
                                         int dst_index = 0, bool valid = true) {
  using Atom = Copy_Atom<Op, T>;
  using SR = detail::reg_array<typename Op::SRegisters>;
  using DR = detail::reg_array<typename Op::DRegisters>;
  static_assert(int(sizeof(typename SR::unit)) * SR::count == Atom::NumValSrc * int(sizeof(T)),
                "copy(Copy_Atom): the instruction's source registers must hold exactly NumValSrc elements of T");
  static_assert(int(sizeof(typename DR::unit)) * DR::count == Atom::NumValDst * int(sizeof(T)),
                "copy(Copy_Atom): the instruction's destination registers must hold exactly NumValDst elements of T");
  auto* s = reinterpret_cast<typename SR::unit const*>(&src(src_index));
  auto* d = reinterpret_cast<typename DR::unit*>(&dst(dst_index));
  if constexpr (detail::has_zero_fill<Op>()) Op::copy(*s, *d, valid);
  else if (valid) detail::call_copy_op<Op>(s, d, make_index_sequence<SR::count>{}, make_index_sequence<DR::count>{});
}

// This thread's share, one instruction per group of NumValSrc source elements. dst may be a
// register tensor (an lvalue) or a view (a partition or slice, possibly a temporary).
template <class Op, class T, class SE, class SL, class Dst>
  requires is_tensor_v<Dst>
CUTE_DSL_HOST_DEVICE void copy(Copy_Atom<Op, T> const& atom, Tensor<SE, SL> const& src, Dst&& dst) {
  using Atom = Copy_Atom<Op, T>;
  using DL = typename remove_cvref_t<Dst>::layout_type;
  static_assert(detail::first_values_contiguous<SL>(Atom::NumValSrc),
                "copy(Copy_Atom): the source values of one instruction must be contiguous (a group of NumValSrc)");
  static_assert(detail::first_values_contiguous<DL>(Atom::NumValDst),
                "copy(Copy_Atom): the destination values of one instruction must be contiguous (a group of NumValDst)");
  const int calls = int(size(src)) / Atom::NumValSrc;
  CUTE_DSL_UNROLL
  for (int k = 0; k < calls; ++k) copy_atom_call(atom, src, dst, k * Atom::NumValSrc, k * Atom::NumValDst);
}

// Predicated: group k (source elements k*NumValSrc ...) moves only where pred(k*NumValSrc) is true;
// pred is a bool tensor indexed like src (e.g. the same partition of an identity tensor compared
// with the bounds) or anything callable as pred(i). A zero-fill op (SM80_CP_ASYNC_*_ZFILL) writes
// zeros where pred is false; any other op leaves the destination untouched there.
template <class Op, class T, class Pred, class SE, class SL, class Dst>
  requires is_tensor_v<Dst>
CUTE_DSL_HOST_DEVICE void copy_if(Copy_Atom<Op, T> const& atom, Pred const& pred, Tensor<SE, SL> const& src, Dst&& dst) {
  using Atom = Copy_Atom<Op, T>;
  const int calls = int(size(src)) / Atom::NumValSrc;
  CUTE_DSL_UNROLL
  for (int k = 0; k < calls; ++k)
    copy_atom_call(atom, src, dst, k * Atom::NumValSrc, k * Atom::NumValDst, bool(pred(k * Atom::NumValSrc)));
}

}  // namespace cute_dsl
