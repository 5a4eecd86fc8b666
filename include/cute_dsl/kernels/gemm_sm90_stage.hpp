// Host side of the GEMM's operand staging (kernels/gemm_operand_stage.hpp): which operands a
// tensor map cannot describe, whether copying them into aligned rows beats the copy mainloop,
// the staging buffer, and the copy's launch. For nvcc translation units; gemm_sm90_launch.hpp
// calls it before choosing a mainloop.
//
// The model (docs/design/gemm_sm90_parts.md, "Operands TMA cannot describe"):
//   copy mainloop   its 128 producer threads per SM load every chunk themselves: ~3.6 GB/s of
//                   operand tiles per SM on an H100 (~30 TFLOP/s at 128 x 128 tiles on 2048^2 x 777
//                   up to 4095 x 4097 x 4099, bench/results/gemm_sweep_h100_2026-11-25b.md), so
//                   t_copy = bytes its tiles load / (busy SMs x 3.6 GB/s);
//   staging         reads and writes each staged operand once (~2 TB/s) plus a launch:
//                   t_stage = 2 x staged bytes / 2 TB/s + 4 us;
//   then TMA        ~20x the copy mainloop's rate on the same tiles: t_copy / 20.
// Staging is chosen when t_stage + t_copy / 20 < t_copy. Tiny GEMMs (where the launch dominates)
// keep the copy mainloop; anything with a few MFLOP per SM is staged.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/arch/sm90/wgmma.hpp"
#include "cute_dsl/kernels/gemm_device_buffer.hpp"
#include "cute_dsl/kernels/gemm_operand_map.hpp"
#include "cute_dsl/kernels/gemm_operand_stage.hpp"

namespace cute_dsl::kernels {

// What the launcher does with operands a tensor map cannot describe.
enum class GemmSm90Unaligned {
  automatic,      // the model above
  stage,          // always stage them (TMA mainloop)
  copy_mainloop,  // never: the copy mainloop reads them in place
};

// The model's constants (see the header comment).
inline constexpr double kGemmCopyMainloopBytesPerSmSecond = 3.6e9;
inline constexpr double kGemmTmaOverCopyMainloop = 20.0;
inline constexpr double kGemmStageBytesPerSecond = 2.0e12;
inline constexpr double kGemmStageLaunchSeconds = 4e-6;

// An operand of `rows` x `batches` rows of `width` elements (its contiguous dimension), staged
// into rows of a whole number of 128-byte lines. A zero batch stride (one operand shared by every
// batch) is staged once.
CUTE_DSL_HOST_DEVICE constexpr GemmStageOperand gemm_stage_operand(const void* src, int width, int rows, int batches, long long ld,
                                                                   long long batch_stride, int element_bytes) {
  const long long per_line = 128 / element_bytes;
  const long long dst_ld = (width + per_line - 1) / per_line * per_line;
  const int staged_batches = batch_stride == 0 ? 1 : batches;
  return {src, nullptr, width, rows, staged_batches, ld, batch_stride, dst_ld, batch_stride == 0 ? 0 : dst_ld * rows};
}

// Bytes of an operand's staged copy, rounded to 256 (the next one starts aligned).
CUTE_DSL_HOST_DEVICE constexpr long long gemm_stage_bytes(const GemmStageOperand& op, int element_bytes) {
  return ((long long)op.batches * op.rows * op.dst_ld * element_bytes + 255) / 256 * 256;
}

// The model: true when staging `staged_bytes` and running the TMA mainloop is estimated faster
// than the copy mainloop for an M x N x K x L GEMM of `element_bytes` inputs on `sm_count` SMs.
CUTE_DSL_HOST_DEVICE constexpr bool gemm_sm90_stage_pays(long long m, long long n, long long k, long long l, double staged_bytes, int element_bytes,
                                 int sm_count) {
  constexpr long long kTile = 128;  // the copy mainloop's tile (both dimensions)
  const long long row_blocks = (m + kTile - 1) / kTile, col_blocks = (n + kTile - 1) / kTile;
  const long long tiles = row_blocks * col_blocks * l;
  const long long busy = tiles < sm_count ? tiles : sm_count;
  // Each tile loads its rows of A and of B over the whole K.
  const double loaded = double(element_bytes) * double(k) * double(l) * (double(m) * double(col_blocks) + double(n) * double(row_blocks));
  const double t_copy = loaded / (double(busy) * kGemmCopyMainloopBytesPerSmSecond);
  const double t_stage = 2.0 * staged_bytes / kGemmStageBytesPerSecond + kGemmStageLaunchSeconds;
  return t_stage + t_copy / kGemmTmaOverCopyMainloop < t_copy;
}

}  // namespace cute_dsl::kernels

#if CUTE_DSL_HOST_ONLY_CODE && defined(__CUDACC__)

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace cute_dsl::kernels {

// The operands of `args` a tensor map cannot describe, as staging copies them (dst unset; their
// buffer offsets in `offsets`, which[o]: 0 for A, 1 for B); returns the bytes of buffer they need
// (0: nothing to stage).
// Args: GemmSm90Arguments<TA, TD> (16-bit TA).
template <class Args>
std::size_t gemm_sm90_stage_plan(const Args& args, GemmStageParams& p, std::size_t (&offsets)[2], int (&which)[2]) {
  using TA = std::remove_cv_t<std::remove_pointer_t<decltype(args.a)>>;
  constexpr int kBytes = int(sizeof(TA));
  const auto& s = args.shape;
  const bool k_major_a = args.major_a == GmmaMajor::K, k_major_b = args.major_b == GmmaMajor::K;
  p = GemmStageParams{};
  std::size_t bytes = 0;
  auto add = [&](GemmStageOperand op, int operand) {
    offsets[p.count] = bytes, bytes += std::size_t(gemm_stage_bytes(op, kBytes));
    which[p.count] = operand;
    p.op[p.count++] = op;
  };
  if (!gemm_operand_rows_aligned(args.a, args.lda, args.batch_stride_a, s.l, kBytes, 16))
    add(gemm_stage_operand(args.a, k_major_a ? s.k : s.m, k_major_a ? s.m : s.k, s.l, args.lda, args.batch_stride_a, kBytes), 0);
  if (!gemm_operand_rows_aligned(args.b, args.ldb, args.batch_stride_b, s.l, kBytes, 16))
    add(gemm_stage_operand(args.b, k_major_b ? s.k : s.n, k_major_b ? s.n : s.k, s.l, args.ldb, args.batch_stride_b, kBytes), 1);
  return bytes;
}

// Bytes a caller's args.staging must hold for these arguments (0: nothing to stage).
template <class Args>
std::size_t gemm_sm90_staging_bytes(const Args& args) {
  GemmStageParams p;
  std::size_t offsets[2];
  int which[2];
  return gemm_sm90_stage_plan(args, p, offsets, which);
}

// If `args` has operands a tensor map cannot describe and args.unaligned (with the model, for
// `automatic`) says to stage them: copies them on `stream` into args.staging (or the device's
// staging buffer) and points `staged` at the copies (rows on 128-byte lines, same majors).
// Returns whether it staged in `did`; `staged` is `args` otherwise. Errors: the buffer's
// allocation or the copy's launch; args.staging smaller than gemm_sm90_staging_bytes(args) or
// off 256 bytes: cudaErrorInvalidValue. Args: GemmSm90Arguments<TA, TD> (16-bit TA).
template <class Args>
cudaError_t gemm_sm90_stage_operands(const Args& args, cudaStream_t stream, Args& staged, bool& did) {
  using TA = std::remove_cv_t<std::remove_pointer_t<decltype(args.a)>>;
  constexpr int kBytes = int(sizeof(TA));
  static_assert(kBytes == 2, "gemm_sm90_stage_operands: 16-bit inputs");
  staged = args, did = false;
  if (args.unaligned == GemmSm90Unaligned::copy_mainloop) return cudaSuccess;
  const auto& s = args.shape;
  GemmStageParams p;
  std::size_t offsets[2];
  int which[2];
  const std::size_t bytes = gemm_sm90_stage_plan(args, p, offsets, which);
  if (bytes == 0) return cudaSuccess;
  // A caller's buffer that cannot hold the copies is refused before the device is asked anything
  // (when staging is forced; `automatic` may still choose the copy mainloop, which needs none).
  const bool caller_buffer_short = args.staging != nullptr &&
                                   (args.staging_bytes < bytes || reinterpret_cast<std::uintptr_t>(args.staging) % 256 != 0);
  if (caller_buffer_short && args.unaligned == GemmSm90Unaligned::stage) return cudaErrorInvalidValue;
  int device = 0, sms = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err != cudaSuccess) return err;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || sms <= 0) (void)cudaGetLastError(), sms = 132;
  if (args.unaligned == GemmSm90Unaligned::automatic && !gemm_sm90_stage_pays(s.m, s.n, s.k, s.l, double(bytes), kBytes, sms))
    return cudaSuccess;
  if (caller_buffer_short) return cudaErrorInvalidValue;
  void* buffer = args.staging;
  if (buffer == nullptr)
    if ((err = detail::gemm_device_buffer(detail::GemmBufferSlot::operand_staging, device, bytes, false, &buffer)) != cudaSuccess)
      return err;
  long long chunks = 0;
  for (int o = 0; o < p.count; ++o) {
    p.op[o].dst = static_cast<char*>(buffer) + offsets[o];
    chunks += p.op[o].chunks();
  }
  // At most 16 blocks per SM (a few waves); each thread then loops over its chunks.
  long long blocks = (chunks + kGemmStageThreads - 1) / kGemmStageThreads;
  if (blocks > 16LL * sms) blocks = 16LL * sms;
  gemm_stage_operands_kernel<TA><<<unsigned(blocks), kGemmStageThreads, 0, stream>>>(p);
  if ((err = cudaGetLastError()) != cudaSuccess) return err;
  for (int o = 0; o < p.count; ++o) {
    const GemmStageOperand& op = p.op[o];
    if (which[o] == 0) staged.a = static_cast<const TA*>(op.dst), staged.lda = op.dst_ld, staged.batch_stride_a = op.dst_batch_stride;
    else staged.b = static_cast<const TA*>(op.dst), staged.ldb = op.dst_ld, staged.batch_stride_b = op.dst_batch_stride;
  }
  did = true;
  return cudaSuccess;
}

}  // namespace cute_dsl::kernels

#endif  // CUTE_DSL_HOST_ONLY_CODE && __CUDACC__
