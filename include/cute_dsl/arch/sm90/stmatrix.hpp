// stmatrix (sm_90+): the inverse of ldmatrix. A warp stores 1, 2 or 4 8x8 matrices of 16-bit
// elements from registers in the mma fragment order to shared memory (SASS STSM).
//
//   stmatrix.sync.aligned.m8n8{.x1,.x2,.x4}{.trans}.shared.b16 [addr], {r0[,r1,r2,r3]};
//
// Thread t supplies the shared address of row t%8 of matrix t/8 (16 contiguous bytes, 16-byte
// aligned); register ri of thread t holds, for matrix i, the two elements (row t/4, columns
// 2*(t%4), 2*(t%4)+1), written transposed with .trans.
//
// Names as in CuTe: U32xN_STSM_N, U16x(2N)_STSM_T. Minimum: sm_90.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/arch/target.hpp"
#include "cute_dsl/arch/copy.hpp"

namespace cute_dsl {

namespace detail {
template <int NumMatrices, bool Transpose>
struct StsmOp {
  using SRegisters = unsigned[NumMatrices];
  using DRegisters = uint128_t[1];  // the row this thread points at
  static constexpr int num_matrices = NumMatrices;
  static constexpr bool transpose = Transpose;

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
  // Registers first, then the destination row (source before destination, as every copy).
  template <class... Args>
  CUTE_DSL_DEVICE static void copy(Args&&... args) {
    static_assert(arch::target_at_least<900, void(Args...)>, "stmatrix (SM90_*_STSM_*) needs sm_90 or newer");
    static_assert(sizeof...(Args) == NumMatrices + 1, "stmatrix: pass one 32-bit register per 8x8 matrix, then the row");
    copy_impl(static_cast<Args&&>(args)...);
  }

 private:
  CUTE_DSL_DEVICE static void copy_impl(unsigned r0, uint128_t& row) {
    unsigned a = smem_address(&row);
    if constexpr (Transpose)
      asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};\n" ::"r"(a), "r"(r0) : "memory");
    else
      asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};\n" ::"r"(a), "r"(r0) : "memory");
  }
  CUTE_DSL_DEVICE static void copy_impl(unsigned r0, unsigned r1, uint128_t& row) {
    unsigned a = smem_address(&row);
    if constexpr (Transpose)
      asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};\n" ::"r"(a), "r"(r0), "r"(r1) : "memory");
    else
      asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};\n" ::"r"(a), "r"(r0), "r"(r1) : "memory");
  }
  CUTE_DSL_DEVICE static void copy_impl(unsigned r0, unsigned r1, unsigned r2, unsigned r3, uint128_t& row) {
    unsigned a = smem_address(&row);
    if constexpr (Transpose)
      asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(a), "r"(r0), "r"(r1),
                   "r"(r2), "r"(r3) : "memory");
    else
      asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(a), "r"(r0), "r"(r1), "r"(r2),
                   "r"(r3) : "memory");
  }
#endif
};
}  // namespace detail

struct SM90_U32x1_STSM_N : detail::StsmOp<1, false> {};
struct SM90_U32x2_STSM_N : detail::StsmOp<2, false> {};
struct SM90_U32x4_STSM_N : detail::StsmOp<4, false> {};
struct SM90_U16x2_STSM_T : detail::StsmOp<1, true> {};
struct SM90_U16x4_STSM_T : detail::StsmOp<2, true> {};
struct SM90_U16x8_STSM_T : detail::StsmOp<4, true> {};

}  // namespace cute_dsl
