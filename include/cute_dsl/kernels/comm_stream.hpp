// What the fused communication launchers (gemm_sm90_reduce_scatter.hpp, gemm_sm90_all_gather.hpp)
// share on the host: the driver's stream memory operations (cuStreamWaitValue32 /
// cuStreamWriteValue32, through cudart's entry-point query: no -lcuda) and the side stream their
// copy-engine transfers are queued on, forked from and joined back into the caller's stream.
// Host code, nvcc only.
#pragma once

#include "cute_dsl/config.hpp"

#if CUTE_DSL_HOST_ONLY_CODE && defined(__CUDACC__)

#include <cuda.h>
#include <cuda_runtime.h>

#include <mutex>

#include "cute_dsl/kernels/gemm_sm90_launch.hpp"

namespace cute_dsl::kernels::detail {

// cuStreamWaitValue32 / cuStreamWriteValue32 (CUDA 12 ABI), fetched once.
struct StreamMemoryOps {
  CUresult (*wait)(CUstream, CUdeviceptr, cuuint32_t, unsigned) = nullptr;
  CUresult (*write)(CUstream, CUdeviceptr, cuuint32_t, unsigned) = nullptr;
};

inline cudaError_t stream_memory_ops(StreamMemoryOps& ops) {
  static std::once_flag once;
  static StreamMemoryOps fetched;
  static cudaError_t result = cudaSuccess;
  std::call_once(once, [] {
    cudaDriverEntryPointQueryResult status{};
    void* fn = nullptr;
    if ((result = cudaGetDriverEntryPointByVersion("cuStreamWaitValue32", &fn, 12000, cudaEnableDefault, &status)) != cudaSuccess) return;
    if (status != cudaDriverEntryPointSuccess || fn == nullptr) return void(result = cudaErrorNotSupported);
    fetched.wait = reinterpret_cast<decltype(fetched.wait)>(fn);
    if ((result = cudaGetDriverEntryPointByVersion("cuStreamWriteValue32", &fn, 12000, cudaEnableDefault, &status)) != cudaSuccess) return;
    if (status != cudaDriverEntryPointSuccess || fn == nullptr) return void(result = cudaErrorNotSupported);
    fetched.write = reinterpret_cast<decltype(fetched.write)>(fn);
  });
  ops = fetched;
  return result;
}

inline cudaError_t from_driver(CUresult r) {
  return r == CUDA_SUCCESS ? cudaSuccess : r == CUDA_ERROR_NOT_SUPPORTED ? cudaErrorNotSupported : cudaErrorUnknown;
}

inline CUdeviceptr device_address(const void* p) { return reinterpret_cast<CUdeviceptr>(p); }

// A side stream of one launch and its fork / join events: the caller's stream (then this
// launch's own events), or the device's, made once per `slot` (a launcher with two side streams
// opens slots 0 and 1; concurrent launches on one device, e.g. several simulated ranks, must then
// each pass their own).
struct CommStream {
  static constexpr int kSlots = 2;
  cudaStream_t side = nullptr;
  cudaEvent_t fork = nullptr, join = nullptr;
  bool own_events = false;

  // @pre 0 <= slot < kSlots
  cudaError_t open(cudaStream_t comm_stream, int slot = 0) {
    if (comm_stream != nullptr) {
      side = comm_stream, own_events = true;
      if (cudaError_t err = cudaEventCreateWithFlags(&fork, cudaEventDisableTiming); err != cudaSuccess) return err;
      return cudaEventCreateWithFlags(&join, cudaEventDisableTiming);
    }
    int device = 0;
    if (cudaError_t err = cudaGetDevice(&device); err != cudaSuccess) return err;
    if (!device_is_cached(device)) return cudaErrorInvalidDevice;
    static std::mutex lock;
    static cudaStream_t sides[kCachedDevices][kSlots];
    static cudaEvent_t forks[kCachedDevices][kSlots], joins[kCachedDevices][kSlots];
    std::lock_guard<std::mutex> guard(lock);
    if (sides[device][slot] == nullptr) {
      if (cudaError_t err = cudaStreamCreateWithFlags(&sides[device][slot], cudaStreamNonBlocking); err != cudaSuccess) return err;
      if (cudaError_t err = cudaEventCreateWithFlags(&forks[device][slot], cudaEventDisableTiming); err != cudaSuccess) return err;
      if (cudaError_t err = cudaEventCreateWithFlags(&joins[device][slot], cudaEventDisableTiming); err != cudaSuccess) return err;
    }
    side = sides[device][slot], fork = forks[device][slot], join = joins[device][slot];
    return cudaSuccess;
  }
  // The side stream starts after what `stream` holds so far.
  cudaError_t fork_from(cudaStream_t stream) const {
    if (cudaError_t err = cudaEventRecord(fork, stream); err != cudaSuccess) return err;
    return cudaStreamWaitEvent(side, fork);
  }
  // `stream` goes on once the side stream's work is done; the first error of `err` and these wins.
  cudaError_t join_into(cudaStream_t stream, cudaError_t err) {
    if (cudaError_t e = cudaEventRecord(join, side); err == cudaSuccess) err = e;
    if (cudaError_t e = cudaStreamWaitEvent(stream, join); err == cudaSuccess) err = e;
    if (own_events) cudaEventDestroy(fork), cudaEventDestroy(join), fork = join = nullptr;
    return err;
  }
};

}  // namespace cute_dsl::kernels::detail

#endif  // CUTE_DSL_HOST_ONLY_CODE && __CUDACC__
