// Compile-time architecture gates for the PTX wrappers under arch/smXX/.
//
// Why a dependent static_assert and not `#if __CUDA_ARCH__ < 900 #error`: a header is included
// by translation units compiled for many targets (sm_80 kernels include the sm_90 headers through
// the umbrella), and the host pass parses device functions too. Only a CALL of a wrapper on a
// target that lacks the instruction is a mistake, so each wrapper is a template whose body asserts
// against a (dependent) template argument: the assertion fires when the wrapper is instantiated in
// a device pass for too old a target, with a message naming the instruction and the SM, and never
// otherwise. Never an empty body or a run-time trap.
//
//   template <class Gate = void>
//   CUTE_DSL_DEVICE void mbarrier_expect_tx(...) {
//     CUTE_DSL_REQUIRE_ARCH(Gate, 90, "mbarrier.expect_tx");   // min SM as 10*major+minor
//     asm volatile(...);
//   }
#pragma once

#include "cute_dsl/config.hpp"

// The target of the current device pass as 10*major + minor (90 for sm_90/sm_90a), 0 in a host
// pass. NVRTC defines __CUDA_ARCH__ like nvcc's device pass.
#if defined(__CUDA_ARCH__)
#  define CUTE_DSL_TARGET_SM (__CUDA_ARCH__ / 10)
#  define CUTE_DSL_DEVICE_PASS 1
#else
#  define CUTE_DSL_TARGET_SM 0
#  define CUTE_DSL_DEVICE_PASS 0
#endif

namespace cute_dsl::arch {

// The target SM, made dependent on a template argument (any type) so that a static_assert on it
// waits for instantiation.
template <class Gate>
inline constexpr int target_sm = CUTE_DSL_TARGET_SM;

}  // namespace cute_dsl::arch

// Fails compilation of a device pass whose target is older than sm_<min_sm> when the enclosing
// template is instantiated. `gate`: a type that depends on the enclosing template's parameters;
// `instruction`: a string literal naming the PTX instruction.
#define CUTE_DSL_REQUIRE_ARCH(gate, min_sm, instruction)                                      \
  static_assert(!CUTE_DSL_DEVICE_PASS || ::cute_dsl::arch::target_sm<gate> >= (min_sm),       \
                instruction " needs sm_" #min_sm " or newer: this device pass targets an older GPU")

// 1 when this device pass has the sm_90a feature set (nvcc -arch=sm_90a, NVRTC
// --gpu-architecture=sm_90a). __CUDA_ARCH__ == 900 alone is not enough: plain sm_90 lacks
// wgmma and setmaxnreg.
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#  define CUTE_DSL_SM90A_FEATURES 1
#else
#  define CUTE_DSL_SM90A_FEATURES 0
#endif

namespace cute_dsl::arch {

// True in a host pass and in an sm_90a device pass; dependent on Gate so that the check waits
// for a wrapper to be instantiated (including this header for sm_80 is fine, calling wgmma is not).
template <class Gate>
inline constexpr bool sm90a_features = !CUTE_DSL_DEVICE_PASS || CUTE_DSL_SM90A_FEATURES;

}  // namespace cute_dsl::arch

#define CUTE_DSL_REQUIRE_SM90A(gate, instruction)                                              \
  static_assert(::cute_dsl::arch::sm90a_features<gate>,                                        \
                instruction " needs sm_90a: compile with -arch=sm_90a (this device pass targets "  \
                "a GPU without the sm_90a features: plain sm_90, sm_100a or older)")
