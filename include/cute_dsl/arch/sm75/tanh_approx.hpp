// tanh.approx.f32 (sm_75+): the hardware's single-instruction tanh (SASS MUFU.TANH), maximum
// relative error about 2^-11 (PTX ISA, tanh). Why: the accurate tanhf is a few dozen instructions
// with a branch; GELU's fast path (kernels/elementwise_ops.hpp, GeluTanhApprox) trades that
// accuracy, which a 16-bit output cannot show anyway, for one MUFU per element.
// Minimum sm_75: a use compiled for a lower SM fails with a static_assert naming the instruction.
#pragma once

#include "cute_dsl/arch/arch_requirement.hpp"
#include "cute_dsl/config.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

namespace cute_dsl::arch {

template <class Gate = void>
CUTE_DSL_DEVICE inline float tanh_approx(float x) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 75, "tanh.approx.f32");
  float y;
  asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

}  // namespace cute_dsl::arch

#endif  // __CUDACC__ || __CUDACC_RTC__
