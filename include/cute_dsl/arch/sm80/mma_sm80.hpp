// Ampere warp-level tensor-core MMA: mma.sync.aligned with f32 accumulators. Minimum: sm_80.
// One warp (32 threads) computes D(16x8) = A(16xK) * B(Kx8) + C; each thread holds a fragment
// of each matrix in registers, in the order given by atom/traits/mma_traits_sm80.hpp (the PTX
// ISA's fragment figures for mma.m16n8k16 / mma.m16n8k8). "row.col": A is row-major (K-major)
// and B column-major (K-major) within the fragments; f16/bf16 values are packed two per
// 32-bit register, the lower K index in the low half.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/arch/arch_requirement.hpp"

namespace cute_dsl {

namespace detail {
// The one asm shape shared by the three instructions: 4 f32 out, 4 A regs, 2 B regs, 4 f32 in.
#define CUTE_DSL_MMA_SM80_F32_BODY(instruction)                                                    \
  asm volatile(instruction " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n" \
               : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)                                           \
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(c0), "f"(c1), "f"(c2), "f"(c3))
}  // namespace detail

#define CUTE_DSL_DEFINE_MMA_SM80_F32(Name, instruction)                                            \
  struct Name {                                                                                     \
    using DRegisters = float[4];                                                                    \
    using ARegisters = unsigned[4];                                                      \
    using BRegisters = unsigned[2];                                                      \
    using CRegisters = float[4];                                                                    \
    template <class Gate = void>                                                                    \
    CUTE_DSL_DEVICE static void fma(float& d0, float& d1, float& d2, float& d3,                     \
                                    unsigned a0, unsigned a1,                 \
                                    unsigned a2, unsigned a3,                 \
                                    unsigned b0, unsigned b1, float c0,       \
                                    float c1, float c2, float c3) {                                 \
      CUTE_DSL_REQUIRE_ARCH(Gate, 80, instruction " (" #Name ")");                                 \
      if constexpr (CUTE_DSL_TARGET_SM >= 80) CUTE_DSL_MMA_SM80_F32_BODY(instruction);              \
      else (void)d0, (void)d1, (void)d2, (void)d3, (void)a0, (void)a1, (void)a2, (void)a3,          \
               (void)b0, (void)b1, (void)c0, (void)c1, (void)c2, (void)c3;                          \
    }                                                                                               \
  };

// mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32  d, a, b, c;   (sm_80)
CUTE_DSL_DEFINE_MMA_SM80_F32(SM80_16x8x16_F32F16F16F32_TN, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32")
// mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32  d, a, b, c;  (sm_80)
CUTE_DSL_DEFINE_MMA_SM80_F32(SM80_16x8x16_F32BF16BF16F32_TN, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32")
// mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32  d, a, b, c;   (sm_80; a, b: tf32 in 32-bit regs)
CUTE_DSL_DEFINE_MMA_SM80_F32(SM80_16x8x8_F32TF32TF32F32_TN, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32")

#undef CUTE_DSL_DEFINE_MMA_SM80_F32
#undef CUTE_DSL_MMA_SM80_F32_BODY

}  // namespace cute_dsl
