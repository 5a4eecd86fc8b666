// MMA_Atom<Op>: one MMA instruction as a value the generic algorithms can call. It carries the
// instruction's traits (atom/traits/mma_traits*.hpp: shapes and thread/value layouts) and turns
// per-thread register fragments (rank-1 tensors: the "V" mode of a partitioned fragment) into
// the instruction's register arguments:
//
//   atom.call(D, A, B, C)      D = A * B + C for this thread's fragments
//
// algorithm/gemm.hpp calls it for every (m, n[, k]) of a partitioned tile; atom/tiled_mma.hpp
// builds the fragments. For wgmma (sm_90a) the accumulator is updated in place and the member
// `accumulate` is the instruction's run-time scale-d: 0 makes the call compute D = A * B (the
// first K block), 1 (default) D = A * B + D. Other atoms always add C.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/tensor/tensor.hpp"
#include "cute_dsl/atom/traits/mma_traits.hpp"
#include "cute_dsl/atom/traits/mma_traits_sm80.hpp"
#include "cute_dsl/atom/traits/mma_traits_sm90.hpp"

namespace cute_dsl {

namespace detail {

// The 32-bit registers holding fragment values [First, First + 4*Regs/sizeof(T)) of a rank-1
// tensor, packed as the hardware expects (lower index in the lower bits). Values are copied, so
// the fragment's layout does not matter.
template <int Regs, class T, class Frag>
CUTE_DSL_HOST_DEVICE void pack_registers(unsigned (&regs)[Regs], Frag const& frag) {
  constexpr int per_reg = 4 / int(sizeof(T));
  static_assert(per_reg * int(sizeof(T)) == 4, "MMA_Atom: register operands hold 1-, 2- or 4-byte values");
  T values[Regs * per_reg];
  for (int i = 0; i < Regs * per_reg; ++i) values[i] = frag(i);
  __builtin_memcpy(regs, values, sizeof(regs));
}

// The accumulator fragment as the float array wgmma updates in place. The fragment must be a
// contiguous run of registers (what make_fragment_C / partition_fragment_C create).
template <int R, class Frag>
CUTE_DSL_HOST_DEVICE float (&accumulator_array(Frag& frag))[R] {
  return *reinterpret_cast<float (*)[R]>(&frag(0));
}

template <class Op> inline constexpr bool is_wgmma_ss_v = false;
template <int N, GmmaInput In, GmmaMajor MA, GmmaMajor MB, GmmaScale SA, GmmaScale SB>
inline constexpr bool is_wgmma_ss_v<SM90_64xNx16_F32_SS<N, In, MA, MB, SA, SB>> = true;
template <class Op> inline constexpr bool is_wgmma_rs_v = false;
template <int N, GmmaInput In, GmmaMajor MB, GmmaScale SA, GmmaScale SB>
inline constexpr bool is_wgmma_rs_v<SM90_64xNx16_F32_RS<N, In, MB, SA, SB>> = true;
template <class Op> inline constexpr bool is_universal_fma_v = false;
template <class D, class A, class B, class C> inline constexpr bool is_universal_fma_v<UniversalFMA<D, A, B, C>> = true;

}  // namespace detail

// Which operands an atom reads from shared memory through wgmma descriptors (SS: A and B;
// RS: B) rather than from registers.
template <class Op> inline constexpr bool mma_a_is_descriptor_v = detail::is_wgmma_ss_v<Op>;
template <class Op> inline constexpr bool mma_b_is_descriptor_v = detail::is_wgmma_ss_v<Op> || detail::is_wgmma_rs_v<Op>;

template <class Op>
struct MMA_Atom : MMA_Traits<Op> {
  static_assert(MmaOp<Op>, "MMA_Atom<Op>: Op has no MMA_Traits (include the atom/traits header of its arch)");
  using Traits = MMA_Traits<Op>;
  using op_type = Op;
  using ValTypeD = typename Traits::ValTypeD;
  using ValTypeA = typename Traits::ValTypeA;
  using ValTypeB = typename Traits::ValTypeB;
  using ValTypeC = typename Traits::ValTypeC;
  using Shape_MNK = typename Traits::Shape_MNK;
  using ThrID = typename Traits::ThrID;
  using LayoutA_TV = typename Traits::ALayout;
  using LayoutB_TV = typename Traits::BLayout;
  using LayoutC_TV = typename Traits::CLayout;

  // wgmma's scale-d (see the header comment); ignored by the other atoms.
  unsigned accumulate = 1;

  // D = A * B + C on this thread's fragments (rank-1 tensors of the V mode).
  template <class TD, class TA, class TB, class TC>
  CUTE_DSL_HOST_DEVICE void call(TD&& D, TA const& A, TB const& B, TC const& C) const {
    static_assert(is_tensor_v<TD> && is_tensor_v<TA> && is_tensor_v<TB> && is_tensor_v<TC>,
                  "MMA_Atom::call: D, A, B and C must be tensors (register fragments)");
    if constexpr (detail::is_universal_fma_v<Op>) {
      Op::fma(D(0), A(0), B(0), C(0));
    } else if constexpr (detail::is_wgmma_ss_v<Op> || detail::is_wgmma_rs_v<Op>) {
      constexpr int acc = Op::accumulators;
      // wgmma accumulates in place: a distinct C is first copied into D.
      if (&D(0) != &C(0))
        for (int i = 0; i < acc; ++i) D(i) = C(i);
      auto& d = detail::accumulator_array<acc>(D);
      if constexpr (detail::is_wgmma_ss_v<Op>) {
        Op::fma(A(0), B(0), d, accumulate);
      } else {
        unsigned a[4];
        detail::pack_registers<4, ValTypeA>(a, A);
        Op::fma(a, B(0), d, accumulate);
      }
    } else {
      // mma.sync: 4 A registers, 2 B registers, 4 floats of C and D.
      unsigned a[4], b[2];
      detail::pack_registers<4, ValTypeA>(a, A);
      detail::pack_registers<2, ValTypeB>(b, B);
      Op::fma(D(0), D(1), D(2), D(3), a[0], a[1], a[2], a[3], b[0], b[1], C(0), C(1), C(2), C(3));
    }
  }
};

template <class Op>
CUTE_DSL_HOST_DEVICE constexpr auto make_mma_atom(Op const& = {}) {
  return MMA_Atom<Op>{};
}

}  // namespace cute_dsl
