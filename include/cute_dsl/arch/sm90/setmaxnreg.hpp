// setmaxnreg: a warpgroup hands registers back to the SM or takes more of them.             sm_90a
//
// A warp-specialized kernel launches every warpgroup with the same register budget (the kernel's
// launch bounds), but its roles need very different amounts: the TMA producer a few dozen, the
// wgmma consumers their accumulators (128 floats per thread for a 64x256 tile) plus addresses.
// The producer releases registers (dec) and the consumers claim them (inc), so that the
// consumers' budget can exceed 65536 / threads-per-block.
//
//   setmaxnreg.dec.sync.aligned.u32 N;   setmaxnreg.inc.sync.aligned.u32 N;
//
// N is an immediate in [24, 256], a multiple of 8. Every thread of the warpgroup must execute the
// same instruction (.sync.aligned). `inc` blocks until enough registers are free in the SM's
// pool, so the sum over warpgroups must fit the 64K registers the block was launched with.
// Needs the arch-specific target sm_90a (PTX ISA 8.0).
#pragma once

#include "cute_dsl/arch/arch_requirement.hpp"
#include "cute_dsl/config.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

namespace cute_dsl::arch {

template <int Registers>
inline constexpr bool valid_setmaxnreg_count = Registers >= 24 && Registers <= 256 && Registers % 8 == 0;

// setmaxnreg.inc.sync.aligned.u32 Registers;                                         sm_90a
template <int Registers, class Gate = void>
CUTE_DSL_DEVICE void setmaxnreg_inc() {
  static_assert(valid_setmaxnreg_count<Registers>, "setmaxnreg_inc: the count must be a multiple of 8 in [24, 256]");
  CUTE_DSL_REQUIRE_SM90A(Gate, "setmaxnreg.inc");
#if CUTE_DSL_SM90A_FEATURES
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(Registers));
#endif
}

// setmaxnreg.dec.sync.aligned.u32 Registers;                                         sm_90a
template <int Registers, class Gate = void>
CUTE_DSL_DEVICE void setmaxnreg_dec() {
  static_assert(valid_setmaxnreg_count<Registers>, "setmaxnreg_dec: the count must be a multiple of 8 in [24, 256]");
  CUTE_DSL_REQUIRE_SM90A(Gate, "setmaxnreg.dec");
#if CUTE_DSL_SM90A_FEATURES
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(Registers));
#endif
}

}  // namespace cute_dsl::arch

#endif  // __CUDACC__ || __CUDACC_RTC__
