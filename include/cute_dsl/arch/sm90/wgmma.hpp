// Hopper warpgroup MMA: wgmma.mma_async m64nNk16 with f32 accumulators and f16 or bf16 inputs,
// for every N = 8, 16, ..., 256, plus the fences that order it. Minimum: sm_90a (the "a"
// features; plain sm_90, sm_100a and older GPUs do not have wgmma).
//
// A warpgroup is 4 consecutive warps (128 threads, the first warp's index a multiple of 4). All
// 128 threads execute each instruction together. D (64 x N, f32) lives in registers: N/2 floats
// per thread, in the order of atom/traits/mma_traits_sm90.hpp's CLayout. A is either a shared
// memory matrix descriptor (SS: arch/sm90/gmma_desc.hpp) or 4 x 32-bit registers holding 8
// halves per thread (RS); B is always a descriptor.
//
// The protocol (PTX ISA "Asynchronous Warpgroup Level Matrix Multiply-Accumulate"):
//   warpgroup_arrive();                 // wgmma.fence: register/smem writes before it are seen
//   Op::fma(desc_a, desc_b, d, scale_d) // issue; may be repeated over K with scale_d = 1
//   warpgroup_commit_batch();           // close the group of wgmma issued so far
//   warpgroup_wait<0>();                // wait until at most 0 groups are pending
// Between issue and wait the accumulator registers belong to the tensor core: the compiler must
// not read, write or move them, which warpgroup_fence_operand() enforces (see below).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/arch/arch_requirement.hpp"
#include "cute_dsl/arch/sm90/wgmma_operands.hpp"

// CUTE_DSL_SM90A_FEATURES and CUTE_DSL_REQUIRE_SM90A come from arch_requirement.hpp.

namespace cute_dsl {

// ---- fences ---------------------------------------------------------------------------------------
// wgmma.fence.sync.aligned (sm_90a): orders this warpgroup's earlier register and shared-memory
// accesses before the wgmma that follow. Needed before the first wgmma and whenever the
// accumulator or RS A registers were touched by ordinary instructions since the last wgmma.
template <class Gate = void>
CUTE_DSL_DEVICE void warpgroup_arrive() {
  CUTE_DSL_REQUIRE_SM90A(Gate, "wgmma.fence");
#if CUTE_DSL_SM90A_FEATURES
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}

// wgmma.commit_group.sync.aligned (sm_90a): closes a batch of issued wgmma into one group.
template <class Gate = void>
CUTE_DSL_DEVICE void warpgroup_commit_batch() {
  CUTE_DSL_REQUIRE_SM90A(Gate, "wgmma.commit_group");
#if CUTE_DSL_SM90A_FEATURES
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}

// wgmma.wait_group.sync.aligned N (sm_90a): waits until at most N committed groups are pending.
// N = 0 makes every accumulator safe to read; N = 1 keeps one batch in flight (pipelining).
template <int N, class Gate = void>
CUTE_DSL_DEVICE void warpgroup_wait() {
  static_assert(N >= 0 && N <= 7, "warpgroup_wait<N>: wgmma.wait_group takes 0 <= N <= 7");
  CUTE_DSL_REQUIRE_SM90A(Gate, "wgmma.wait_group");
#if CUTE_DSL_SM90A_FEATURES
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
#endif
}

// An empty asm that claims to read and write `reg`: the compiler cannot move a use of the value
// across it, nor keep the value in a different register or in memory over it. Placed around the
// issue/wait window it pins accumulators in the registers the tensor core writes asynchronously;
// without it the compiler may read an accumulator before wgmma.wait_group (it does not know the
// asm is asynchronous) or spill/rename it between two wgmma of a K loop.
CUTE_DSL_HOST_DEVICE inline void warpgroup_fence_operand(float& reg) {
#if defined(__CUDA_ARCH__)
  asm volatile("" : "+f"(reg)::"memory");
#else
  (void)reg;
#endif
}
CUTE_DSL_HOST_DEVICE inline void warpgroup_fence_operand(unsigned& reg) {
#if defined(__CUDA_ARCH__)
  asm volatile("" : "+r"(reg)::"memory");
#else
  (void)reg;
#endif
}
template <class T, int R>
CUTE_DSL_HOST_DEVICE inline void warpgroup_fence_operand(T (&regs)[R]) {
  for (int i = 0; i < R; ++i) warpgroup_fence_operand(regs[i]);
}

// ---- operand options --------------------------------------------------------------------------------

// Which dimension of an operand is contiguous in shared memory (the wgmma imm-trans-a/b bit):
// K-major (0, "not transposed": A row-major, B column-major) or MN-major (1).
enum class GmmaMajor : int { K = 0, MN = 1 };

// imm-scale-a / imm-scale-b: multiply A (B) by +1 or -1.
enum class GmmaScale : int { one = 1, neg = -1 };

// The input element type of an instruction (its .atype/.btype).
enum class GmmaInput : int { f16, bf16 };

namespace detail {

// PTX text of the SS form. F arguments: N, type, accumulator list, then the operand numbers of
// desc_a, desc_b, scale_d, scale_a, scale_b, tnsp_a, tnsp_b (two spare numbers absorbed by ...).
#define CUTE_DSL_WGMMA_SS_TEXT(N, T, D, da, db, sd, sa, sb, ta, tb, ...)                              \
  "{\n.reg .pred p;\nsetp.ne.b32 p, %" #sd ", 0;\n"                                                 \
  "wgmma.mma_async.sync.aligned.m64n" #N "k16.f32." T "." T " {" D "}, %" #da ", %" #db ", p, %" #sa \
  ", %" #sb ", %" #ta ", %" #tb ";\n}\n"

// PTX text of the RS form: A from 4 registers; no tnsp-a (registers are always K-major).
#define CUTE_DSL_WGMMA_RS_TEXT(N, T, D, a0, a1, a2, a3, db, sd, sa, sb, tb)                          \
  "{\n.reg .pred p;\nsetp.ne.b32 p, %" #sd ", 0;\n"                                                 \
  "wgmma.mma_async.sync.aligned.m64n" #N "k16.f32." T "." T " {" D "}, {%" #a0 ", %" #a1 ", %" #a2    \
  ", %" #a3 "}, %" #db ", p, %" #sa ", %" #sb ", %" #tb ";\n}\n"

#define CUTE_DSL_WGMMA_SS_FN(name, N, R, T)                                                          \
  template <int SA, int SB, int TA, int TB>                                                          \
  CUTE_DSL_DEVICE static void name(float (&d)[R], unsigned long long desc_a, unsigned long long desc_b, \
                                   unsigned scale_d) {                                    \
    asm volatile(CUTE_DSL_WGMMA_AFTER##R(CUTE_DSL_WGMMA_SS_TEXT, N, T, CUTE_DSL_WGMMA_D##R)          \
                 : CUTE_DSL_WGMMA_OPS##R(d)                                                          \
                 : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(SA), "n"(SB), "n"(TA), "n"(TB));      \
  }

#define CUTE_DSL_WGMMA_RS_FN(name, N, R, T)                                                          \
  template <int SA, int SB, int TB>                                                                  \
  CUTE_DSL_DEVICE static void name(float (&d)[R], unsigned const (&a)[4],                 \
                                   unsigned long long desc_b, unsigned scale_d) {        \
    asm volatile(CUTE_DSL_WGMMA_AFTER##R(CUTE_DSL_WGMMA_RS_TEXT, N, T, CUTE_DSL_WGMMA_D##R)          \
                 : CUTE_DSL_WGMMA_OPS##R(d)                                                          \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d), "n"(SA),   \
                   "n"(SB), "n"(TB));                                                                \
  }

// The asm statements of one N: the only place the instruction text is assembled.
template <int N> struct WgmmaAsm;

#if CUTE_DSL_SM90A_FEATURES
#  define CUTE_DSL_WGMMA_DEFINE_N(N, R)                                                              \
    template <> struct WgmmaAsm<N> {                                                                 \
      CUTE_DSL_WGMMA_SS_FN(ss_f16, N, R, "f16")                                                      \
      CUTE_DSL_WGMMA_SS_FN(ss_bf16, N, R, "bf16")                                                    \
      CUTE_DSL_WGMMA_RS_FN(rs_f16, N, R, "f16")                                                      \
      CUTE_DSL_WGMMA_RS_FN(rs_bf16, N, R, "bf16")                                                    \
    };
#else
// Host pass and other targets: no asm is compiled (the ops' static_assert explains why).
#  define CUTE_DSL_WGMMA_DEFINE_N(N, R)
#endif

CUTE_DSL_WGMMA_DEFINE_N(8, 4)
CUTE_DSL_WGMMA_DEFINE_N(16, 8)
CUTE_DSL_WGMMA_DEFINE_N(24, 12)
CUTE_DSL_WGMMA_DEFINE_N(32, 16)
CUTE_DSL_WGMMA_DEFINE_N(40, 20)
CUTE_DSL_WGMMA_DEFINE_N(48, 24)
CUTE_DSL_WGMMA_DEFINE_N(56, 28)
CUTE_DSL_WGMMA_DEFINE_N(64, 32)
CUTE_DSL_WGMMA_DEFINE_N(72, 36)
CUTE_DSL_WGMMA_DEFINE_N(80, 40)
CUTE_DSL_WGMMA_DEFINE_N(88, 44)
CUTE_DSL_WGMMA_DEFINE_N(96, 48)
CUTE_DSL_WGMMA_DEFINE_N(104, 52)
CUTE_DSL_WGMMA_DEFINE_N(112, 56)
CUTE_DSL_WGMMA_DEFINE_N(120, 60)
CUTE_DSL_WGMMA_DEFINE_N(128, 64)
CUTE_DSL_WGMMA_DEFINE_N(136, 68)
CUTE_DSL_WGMMA_DEFINE_N(144, 72)
CUTE_DSL_WGMMA_DEFINE_N(152, 76)
CUTE_DSL_WGMMA_DEFINE_N(160, 80)
CUTE_DSL_WGMMA_DEFINE_N(168, 84)
CUTE_DSL_WGMMA_DEFINE_N(176, 88)
CUTE_DSL_WGMMA_DEFINE_N(184, 92)
CUTE_DSL_WGMMA_DEFINE_N(192, 96)
CUTE_DSL_WGMMA_DEFINE_N(200, 100)
CUTE_DSL_WGMMA_DEFINE_N(208, 104)
CUTE_DSL_WGMMA_DEFINE_N(216, 108)
CUTE_DSL_WGMMA_DEFINE_N(224, 112)
CUTE_DSL_WGMMA_DEFINE_N(232, 116)
CUTE_DSL_WGMMA_DEFINE_N(240, 120)
CUTE_DSL_WGMMA_DEFINE_N(248, 124)
CUTE_DSL_WGMMA_DEFINE_N(256, 128)

#undef CUTE_DSL_WGMMA_DEFINE_N
#undef CUTE_DSL_WGMMA_RS_FN
#undef CUTE_DSL_WGMMA_SS_FN
#undef CUTE_DSL_WGMMA_RS_TEXT
#undef CUTE_DSL_WGMMA_SS_TEXT

template <int N>
inline constexpr bool valid_wgmma_n = N >= 8 && N <= 256 && N % 8 == 0;

}  // namespace detail

// wgmma.mma_async.sync.aligned.m64nNk16.f32.{f16,bf16}.{f16,bf16} d, a-desc, b-desc, scale-d,
//     imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b;                        (sm_90a)
// D(64xN) = A(64x16) * B(16xN) + (scale_d ? D : 0), both operands read from shared memory
// through descriptors. MajorA/MajorB say which dimension each operand has contiguous.
template <int N, GmmaInput In, GmmaMajor MajorA = GmmaMajor::K, GmmaMajor MajorB = GmmaMajor::K,
          GmmaScale ScaleA = GmmaScale::one, GmmaScale ScaleB = GmmaScale::one>
struct SM90_64xNx16_F32_SS {
  static_assert(detail::valid_wgmma_n<N>, "wgmma m64nNk16: N must be a multiple of 8 in [8, 256]");
  static constexpr int n = N;
  static constexpr int accumulators = N / 2;  // f32 registers per thread
  using DRegisters = float[N / 2];
  using ARegisters = unsigned long long[1];
  using BRegisters = unsigned long long[1];
  using CRegisters = float[N / 2];

  // scale_d == 0: D = A*B (the first K block); otherwise D = A*B + D. A run-time value: it
  // becomes a predicate in the instruction, so one loop body serves every K block.
  CUTE_DSL_DEVICE static void fma(unsigned long long desc_a, unsigned long long desc_b, float (&d)[N / 2],
                                  unsigned scale_d = 1) {
    CUTE_DSL_REQUIRE_SM90A(SM90_64xNx16_F32_SS, "wgmma.mma_async (SM90_64xNx16_F32_SS)");
#if CUTE_DSL_SM90A_FEATURES
    constexpr int sa = int(ScaleA), sb = int(ScaleB), ta = int(MajorA), tb = int(MajorB);
    if constexpr (In == GmmaInput::f16)
      detail::WgmmaAsm<N>::template ss_f16<sa, sb, ta, tb>(d, desc_a, desc_b, scale_d);
    else
      detail::WgmmaAsm<N>::template ss_bf16<sa, sb, ta, tb>(d, desc_a, desc_b, scale_d);
#else
    (void)desc_a, (void)desc_b, (void)d, (void)scale_d;
#endif
  }
};

// wgmma.mma_async.sync.aligned.m64nNk16.f32.{f16,bf16}.{f16,bf16} d, {a0,a1,a2,a3}, b-desc,
//     scale-d, imm-scale-a, imm-scale-b, imm-trans-b;                           (sm_90a)
// As SS, but A comes from registers: each thread holds 8 halves of A (packed in pairs) in the
// order of the traits' ALayout, which is mma.sync m16n8k16's A fragment once per warp.
template <int N, GmmaInput In, GmmaMajor MajorB = GmmaMajor::K, GmmaScale ScaleA = GmmaScale::one,
          GmmaScale ScaleB = GmmaScale::one>
struct SM90_64xNx16_F32_RS {
  static_assert(detail::valid_wgmma_n<N>, "wgmma m64nNk16: N must be a multiple of 8 in [8, 256]");
  static constexpr int n = N;
  static constexpr int accumulators = N / 2;
  using DRegisters = float[N / 2];
  using ARegisters = unsigned[4];
  using BRegisters = unsigned long long[1];
  using CRegisters = float[N / 2];

  CUTE_DSL_DEVICE static void fma(unsigned const (&a)[4], unsigned long long desc_b, float (&d)[N / 2],
                                  unsigned scale_d = 1) {
    CUTE_DSL_REQUIRE_SM90A(SM90_64xNx16_F32_RS, "wgmma.mma_async (SM90_64xNx16_F32_RS)");
#if CUTE_DSL_SM90A_FEATURES
    constexpr int sa = int(ScaleA), sb = int(ScaleB), tb = int(MajorB);
    if constexpr (In == GmmaInput::f16)
      detail::WgmmaAsm<N>::template rs_f16<sa, sb, tb>(d, a, desc_b, scale_d);
    else
      detail::WgmmaAsm<N>::template rs_bf16<sa, sb, tb>(d, a, desc_b, scale_d);
#else
    (void)a, (void)desc_b, (void)d, (void)scale_d;
#endif
  }
};

// The instruction names of the PTX ISA, one per input type.
template <int N, GmmaMajor MajorA = GmmaMajor::K, GmmaMajor MajorB = GmmaMajor::K,
          GmmaScale ScaleA = GmmaScale::one, GmmaScale ScaleB = GmmaScale::one>
using SM90_64xNx16_F32F16F16_SS = SM90_64xNx16_F32_SS<N, GmmaInput::f16, MajorA, MajorB, ScaleA, ScaleB>;
template <int N, GmmaMajor MajorA = GmmaMajor::K, GmmaMajor MajorB = GmmaMajor::K,
          GmmaScale ScaleA = GmmaScale::one, GmmaScale ScaleB = GmmaScale::one>
using SM90_64xNx16_F32BF16BF16_SS = SM90_64xNx16_F32_SS<N, GmmaInput::bf16, MajorA, MajorB, ScaleA, ScaleB>;
template <int N, GmmaMajor MajorB = GmmaMajor::K, GmmaScale ScaleA = GmmaScale::one,
          GmmaScale ScaleB = GmmaScale::one>
using SM90_64xNx16_F32F16F16_RS = SM90_64xNx16_F32_RS<N, GmmaInput::f16, MajorB, ScaleA, ScaleB>;
template <int N, GmmaMajor MajorB = GmmaMajor::K, GmmaScale ScaleA = GmmaScale::one,
          GmmaScale ScaleB = GmmaScale::one>
using SM90_64xNx16_F32BF16BF16_RS = SM90_64xNx16_F32_RS<N, GmmaInput::bf16, MajorB, ScaleA, ScaleB>;

}  // namespace cute_dsl
