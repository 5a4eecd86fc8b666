// A per-device scratch buffer that the GEMM launcher grows on demand: split-K's workspace and the
// operand staging buffer are each one (a Slot). Host code, nvcc only.
//
// Shared by every GEMM on the device that uses the slot: stream order keeps one stream's GEMMs
// apart; GEMMs that run CONCURRENTLY on several streams must each pass their own buffer.
#pragma once

#include "cute_dsl/config.hpp"

#if CUTE_DSL_HOST_ONLY_CODE && defined(__CUDACC__)

#include <cuda_runtime.h>

#include <cstddef>
#include <mutex>

namespace cute_dsl::kernels::detail {

enum class GemmBufferSlot { split_k_workspace, operand_staging, count };

// Slot `slot`'s buffer of `device`, at least `bytes` (zero-filled when it is (re)allocated, if
// `zeroed`). Grows by reallocating, with half again as much room: the old one is freed first
// (cudaFree synchronises the device, so no GEMM still uses it). Devices 0-63.
inline cudaError_t gemm_device_buffer(GemmBufferSlot slot, int device, std::size_t bytes, bool zeroed, void** out) {
  constexpr int kDevices = 64, kSlots = int(GemmBufferSlot::count);
  static std::mutex lock;
  static void* buffers[kSlots][kDevices] = {};
  static std::size_t sizes[kSlots][kDevices] = {};
  if (device < 0 || device >= kDevices) return cudaErrorInvalidDevice;
  std::lock_guard<std::mutex> guard(lock);
  void*& buffer = buffers[int(slot)][device];
  std::size_t& size = sizes[int(slot)][device];
  if (size < bytes) {
    if (buffer != nullptr) cudaFree(buffer);
    buffer = nullptr, size = 0;
    const std::size_t grown = bytes + bytes / 2;
    if (cudaError_t err = cudaMalloc(&buffer, grown); err != cudaSuccess) return err;
    if (zeroed)
      if (cudaError_t err = cudaMemset(buffer, 0, grown); err != cudaSuccess) return err;
    size = grown;
  }
  *out = buffer;
  return cudaSuccess;
}

}  // namespace cute_dsl::kernels::detail

#endif  // CUTE_DSL_HOST_ONLY_CODE && __CUDACC__
