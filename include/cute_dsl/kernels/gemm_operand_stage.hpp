// Staging of GEMM operands that a tensor map cannot describe: each row (the operand's contiguous
// dimension) copied into a buffer whose rows start on 128-byte lines, so that the TMA mainloop
// serves shapes that would otherwise fall to the copy mainloop (gemm_sm90.hpp).
//
//   GemmStageParams p{{a_operand, b_operand}, 2};
//   gemm_stage_operands_kernel<__nv_bfloat16><<<grid, kGemmStageThreads>>>(p);
//
// Why: a tensor map needs a 16-byte-aligned base and leading dimension; a K of 4099 or a pointer
// one element off breaks both, and the copy mainloop, whose 128 producer threads load every
// 16 bytes themselves, reached only ~30 TFLOP/s on an H100 (bench/results/gemm_sweep_*). Copying
// the operand once costs 2 x its bytes of memory traffic -- microseconds against the GEMM's
// milliseconds on the shapes where it matters. The launcher decides by a model
// (gemm_sm90_stage.hpp, docs/design/gemm_sm90_parts.md).
//
// The rows move in 16-byte chunks through registers, each read the widest way its address allows
// (detail::copy_box_load_chunk: the same chunk rules as the copy mainloop), consecutive threads on
// consecutive chunks of a row. The destination's padding past the row's end is written as zeros.
#pragma once

#include "cute_dsl/config.hpp"

namespace cute_dsl::kernels {

// One operand: `rows` x `batches` rows of `width` 16-bit elements (its contiguous dimension),
// from `src` (leading dimension `ld`, batch stride `batch_stride`, in elements) to `dst` (rows
// of `dst_ld` elements, batches `dst_batch_stride` apart). @pre dst 16-byte aligned, dst_ld a
// multiple of 8, dst_ld >= width
struct GemmStageOperand {
  void const* src;
  void* dst;
  int width, rows, batches;
  long long ld, batch_stride;
  long long dst_ld, dst_batch_stride;
  CUTE_DSL_HOST_DEVICE constexpr long long chunks_per_row() const { return dst_ld / 8; }
  CUTE_DSL_HOST_DEVICE constexpr long long chunks() const { return (long long)batches * rows * chunks_per_row(); }
};

struct GemmStageParams {
  GemmStageOperand op[2];
  int count;  // operands used: 1 or 2
};

inline constexpr int kGemmStageThreads = 256;

}  // namespace cute_dsl::kernels

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

#include "cute_dsl/algorithm/copy_box.hpp"
#include "cute_dsl/tensor/pointer.hpp"
#include "cute_dsl/tensor/tensor.hpp"

namespace cute_dsl::kernels {

// Grid-stride over every chunk of every operand. T: the 16-bit element type.
template <class T>
__global__ void __launch_bounds__(kGemmStageThreads) gemm_stage_operands_kernel(const __grid_constant__ GemmStageParams p) {
  static_assert(sizeof(T) == 2, "gemm_stage_operands_kernel: 16-bit elements");
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (int o = 0; o < p.count; ++o) {
    const GemmStageOperand& op = p.op[o];
    // (element of the row, row, batch), as the caller's strides and as the staged buffer's.
    const auto shape = make_shape(op.dst_ld, (long long)op.rows, (long long)op.batches);
    const auto src = make_tensor(make_gmem_ptr(static_cast<T const*>(op.src)), make_layout(shape, make_stride(_1{}, op.ld, op.batch_stride)));
    const auto dst = make_tensor(make_gmem_ptr(static_cast<T*>(op.dst)), make_layout(shape, make_stride(_1{}, op.dst_ld, op.dst_batch_stride)));
    T const* first = &src(0, 0, 0);
    T const* last = &src(op.width - 1, op.rows - 1, op.batches - 1);
    const long long per_row = op.chunks_per_row(), total = op.chunks();
    for (long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x; c < total; c += stride) {
      const long long line = c / per_row;  // batch * rows + row
      const long long col = (c - line * per_row) * 8, batch = line / op.rows, row = line - batch * op.rows;
      using cute_dsl::detail::CopyBoxChunk;
      const CopyBoxChunk chunk = cute_dsl::detail::copy_box_load_chunk<T>(&src(col, row, batch), int(op.width - col), first, last);
      *reinterpret_cast<CopyBoxChunk*>(&dst(col, row, batch)) = chunk;
    }
  }
}

}  // namespace cute_dsl::kernels

#endif  // __CUDACC__ || __CUDACC_RTC__
