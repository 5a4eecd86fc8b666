// Host side of the Hopper GEMM's operand loads: the CUtensorMap of A or B (rows x K, L batches)
// that gemm_sm90.hpp's TMA loads and wgmma descriptors expect, for both launchers: nvcc programs
// (gemm_sm90_launch.hpp, cuTensorMapEncodeTiled through cudart) and the JIT (jit/src/gemm_sm90.cpp,
// through its dlopen'ed driver). Plain host C++: no nvcc needed; empty under NVRTC and where
// <cuda.h> is missing (as arch/sm90/tma_descriptor.hpp).
//
//   K-major  (K contiguous):       dims (K, rows, L), box 64 (K) x box_rows
//   MN-major (rows contiguous):    dims (rows, K, L), box 64 (rows) x 64 (K): a tile is several boxes
// Both with the 128-byte swizzle (64 16-bit elements per swizzle row), zeros past the ends and
// 256-byte L2 promotion.
#pragma once

#include "cute_dsl/arch/sm90/tma_descriptor.hpp"

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
  spec.l2_promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
  return tma::make_tma_descriptor(encode, spec);
}

}  // namespace cute_dsl::kernels

#endif  // CUTE_DSL_HAVE_TMA_DESCRIPTOR
