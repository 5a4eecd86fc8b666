// Host side of the Hopper GEMM's operand loads: the CUtensorMap of A or B (rows x K, L batches)
// that gemm_sm90.hpp's TMA loads and wgmma descriptors expect, for both launchers: nvcc programs
// (gemm_sm90_launch.hpp, cuTensorMapEncodeTiled through cudart) and the JIT (jit/src/gemm_sm90.cpp,
// through its dlopen'ed driver). Plain host C++: no nvcc needed; empty under NVRTC and where
// <cuda.h> is missing (as arch/sm90/tma_descriptor.hpp).
//
//   K-major  (K contiguous):       dims (K, rows, L), box 64 (K) x box_rows
//   MN-major (rows contiguous):    dims (rows, K, L), box 64 (rows) x 64 (K): a tile is several boxes
// Both with the 128-byte swizzle (64 16-bit elements per swizzle row), zeros past the ends and
// an L2 promotion chosen by where the rows start (gemm_operand_l2_promotion).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/arch/sm90/tma_descriptor.hpp"

#if CUTE_DSL_HOST_ONLY_CODE

#include <cstdint>

namespace cute_dsl::kernels {

// Whether every row (and batch) of one operand starts on a multiple of `bytes`: its base, leading
// dimension and batch stride (a tensor map needs 16; the heuristic and the L2 promotion ask 128).
inline bool gemm_operand_rows_aligned(const void* p, long long ld, long long batch_stride, int batches, int element_bytes,
                                      int bytes) {
  return reinterpret_cast<std::uintptr_t>(p) % bytes == 0 && ld * element_bytes % bytes == 0 &&
         (batches == 1 || batch_stride * element_bytes % bytes == 0);
}

}  // namespace cute_dsl::kernels

#endif  // CUTE_DSL_HOST_ONLY_CODE

#ifdef CUTE_DSL_HAVE_TMA_DESCRIPTOR

namespace cute_dsl::kernels {

struct GemmOperandMapSpec {
  const void* data = nullptr;
  bool bf16 = true;      // else f16
  bool k_major = true;   // else MN-major
  int rows = 0, k = 0, l = 1;
  long long ld = 0;            // elements between rows (K-major) or K columns (MN-major)
  long long batch_stride = 0;  // elements between batches (read when l > 1)
  int box_rows = 128;          // K-major: rows per box (the CTA's tile rows or multicast slice)
  // 32-bit floats instead of bf16 / f16 (the plain GEMM's f32 C: boxes of 32 x box_rows). Last:
  // callers fill the fields above by position.
  bool f32 = false;
};

inline constexpr int kGemmOperandBoxK = 64;  // 128 bytes of 16-bit elements: one swizzle row

// The L2 promotion of an operand's loads: 256 bytes where every row starts on a 128-byte line,
// 128 bytes where rows straddle lines (each box row then touches two lines, and 256-byte
// promotion made those loads slower; 64 bytes and none ran as 128). H100, 2026-11-28, heuristic's
// tiles, same machine (bench/results/gemm_l2_promotion_h100_2026-11-28.txt), us: 3000^3 116 ->
// 104, 5000 x 3000 x 3000 165 -> 148, 6000 x 6000 x 3000 372 -> 322, 3000 x 3000 x 6000 175 ->
// 167; rows on 128-byte lines (3008^3, 4096^3, 8192^3) ran alike with 256 or 128.
inline CUtensorMapL2promotion gemm_operand_l2_promotion(const GemmOperandMapSpec& o) {
  const int element_bytes = o.f32 ? 4 : 2;
  return gemm_operand_rows_aligned(o.data, o.ld, o.batch_stride, o.l, element_bytes, 128) ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B
                                                                                         : CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
}

// Throws tma::TmaDescriptorError when a rule of cuTensorMapEncodeTiled is broken.
inline CUtensorMap make_gemm_operand_map(tma::EncodeTiledFn encode, const GemmOperandMapSpec& o) {
  tma::TiledDescriptorSpec spec;
  const int element_bytes = o.f32 ? 4 : 2, box_k = 128 / element_bytes;  // one 128-byte swizzle row
  spec.data_type = o.f32 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32 : o.bf16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  spec.element_bytes = element_bytes;
  spec.global_address = const_cast<void*>(o.data);
  const int inner = o.k_major ? o.k : o.rows, outer = o.k_major ? o.rows : o.k;
  spec.shape = {std::uint64_t(inner), std::uint64_t(outer), std::uint64_t(o.l)};
  const long long batch = o.l > 1 ? o.batch_stride : o.ld * outer;  // unused when L == 1, but must be legal
  spec.strides_bytes = {std::uint64_t(o.ld) * element_bytes, std::uint64_t(batch) * element_bytes};
  spec.box = {std::uint32_t(box_k), std::uint32_t(o.k_major ? o.box_rows : box_k), 1};
  spec.swizzle = tma::SwizzleMode::bytes128;
  spec.l2_promotion = gemm_operand_l2_promotion(o);
  return tma::make_tma_descriptor(encode, spec);
}

}  // namespace cute_dsl::kernels

#endif  // CUTE_DSL_HAVE_TMA_DESCRIPTOR
