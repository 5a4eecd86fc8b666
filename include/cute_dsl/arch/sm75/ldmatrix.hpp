// ldmatrix (sm_75+): a warp loads 1, 2 or 4 8x8 matrices of 16-bit elements from shared memory
// into registers in the mma fragment order (SASS LDSM).
//
//   ldmatrix.sync.aligned.m8n8{.x1,.x2,.x4}{.trans}.shared.b16 {d0[,d1,d2,d3]}, [addr];
//
// Thread t supplies the shared address of row t%8 of matrix t/8 (x1: threads 0-7, x2: 0-15,
// x4: 0-31; the addresses of other threads are ignored); each row is 16 contiguous bytes,
// 16-byte aligned. Register di of thread t receives, from matrix i, the two elements
// (row t/4, columns 2*(t%4), 2*(t%4)+1); with .trans the matrix is transposed on the way,
// i.e. (rows 2*(t%4), 2*(t%4)+1 of column t/4) as stored.
//
// Names as in CuTe: U32xN_LDSM_N moves N 32-bit registers untransposed, U16x(2N)_LDSM_T the same
// registers holding transposed 16-bit pairs. Minimum: sm_75.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/arch/target.hpp"
#include "cute_dsl/arch/copy.hpp"

namespace cute_dsl {

namespace detail {
template <int NumMatrices, bool Transpose>
struct LdsmOp {
  using SRegisters = uint128_t[1];  // the row this thread points at
  using DRegisters = unsigned[NumMatrices];
  static constexpr int num_matrices = NumMatrices;
  static constexpr bool transpose = Transpose;

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
  template <class... Regs>
  CUTE_DSL_DEVICE static void copy(uint128_t const& smem_row, Regs&... d) {
    static_assert(arch::target_at_least<750, void(Regs...)>, "ldmatrix (SM75_*_LDSM_*) needs sm_75 or newer");
    static_assert(sizeof...(Regs) == NumMatrices && (is_same_v<Regs, unsigned> && ...),
                  "ldmatrix: pass one unsigned (32-bit) register per 8x8 matrix");
    unsigned a = smem_address(&smem_row);
    unsigned* r[] = {&d...};
    if constexpr (NumMatrices == 1 && !Transpose)
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n" : "=r"(*r[0]) : "r"(a) : "memory");
    else if constexpr (NumMatrices == 1)
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n" : "=r"(*r[0]) : "r"(a) : "memory");
    else if constexpr (NumMatrices == 2 && !Transpose)
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n" : "=r"(*r[0]), "=r"(*r[1]) : "r"(a) : "memory");
    else if constexpr (NumMatrices == 2)
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n" : "=r"(*r[0]), "=r"(*r[1]) : "r"(a) : "memory");
    else if constexpr (!Transpose)
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                   : "=r"(*r[0]), "=r"(*r[1]), "=r"(*r[2]), "=r"(*r[3]) : "r"(a) : "memory");
    else
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                   : "=r"(*r[0]), "=r"(*r[1]), "=r"(*r[2]), "=r"(*r[3]) : "r"(a) : "memory");
  }
#endif
};
}  // namespace detail

struct SM75_U32x1_LDSM_N : detail::LdsmOp<1, false> {};
struct SM75_U32x2_LDSM_N : detail::LdsmOp<2, false> {};
struct SM75_U32x4_LDSM_N : detail::LdsmOp<4, false> {};
struct SM75_U16x2_LDSM_T : detail::LdsmOp<1, true> {};
struct SM75_U16x4_LDSM_T : detail::LdsmOp<2, true> {};
struct SM75_U16x8_LDSM_T : detail::LdsmOp<4, true> {};

}  // namespace cute_dsl
