// A timeline of one fused-communication launch (gemm_sm90_reduce_scatter.hpp): CUDA events
// recorded around the GEMM and each copy of the side streams, read back as microseconds from the
// GEMM's start. For finding where the copies wait or crawl; it costs an event record per copy, so
// it is off unless the caller passes one. Host code, nvcc only.
#pragma once

#include "cute_dsl/config.hpp"

#if CUTE_DSL_HOST_ONLY_CODE && defined(__CUDACC__)

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

namespace cute_dsl::kernels {

class CommTrace {
 public:
  struct Copy {
    const char* what;  // "partials" (to an owner) or "result" (an all-reduce's rows to a peer)
    int peer;
    int segment;       // of the schedule's order
    std::size_t bytes;
    float ready_us;    // its wait satisfied (the stream reached the copy), from the GEMM's start
    float done_us;     // the copy finished
  };
  struct Report {
    float gemm_us = 0;  // the GEMM kernel's end
    std::vector<Copy> copies;
  };

  explicit CommTrace(int max_copies = 512) : capacity_(max_copies) {}
  CommTrace(const CommTrace&) = delete;
  CommTrace& operator=(const CommTrace&) = delete;
  ~CommTrace() {
    for (cudaEvent_t e : pool_) cudaEventDestroy(e);
  }

  // Drops what an earlier launch recorded (the events are reused).
  void clear() { used_ = 0, copies_.clear(), start_ = gemm_end_ = -1; }
  cudaError_t record_start(cudaStream_t s) { return record(s, start_); }
  cudaError_t record_gemm_end(cudaStream_t s) { return record(s, gemm_end_); }
  // Around one copy on side stream s: call before (after its waits) and after.
  cudaError_t record_copy_ready(cudaStream_t s, const char* what, int peer, int segment, std::size_t bytes) {
    if (int(copies_.size()) >= capacity_) return cudaSuccess;  // full: later copies go unrecorded
    copies_.push_back(Pending{what, peer, segment, bytes, -1, -1});
    return record(s, copies_.back().ready);
  }
  cudaError_t record_copy_done(cudaStream_t s) {
    if (copies_.empty() || copies_.back().done >= 0) return cudaSuccess;
    return record(s, copies_.back().done);
  }
  // After the launch's work completed (synchronize first).
  cudaError_t report(Report& out) const {
    out = {};
    if (start_ < 0) return cudaErrorInvalidValue;
    cudaError_t err = since_start(gemm_end_, out.gemm_us);
    for (const Pending& p : copies_) {
      Copy c{p.what, p.peer, p.segment, p.bytes, 0, 0};
      if (err == cudaSuccess) err = since_start(p.ready, c.ready_us);
      if (err == cudaSuccess) err = since_start(p.done, c.done_us);
      out.copies.push_back(c);
    }
    return err;
  }

 private:
  struct Pending {
    const char* what;
    int peer, segment;
    std::size_t bytes;
    int ready, done;  // indices into pool_
  };
  cudaError_t record(cudaStream_t s, int& slot) {
    if (used_ == int(pool_.size())) {
      cudaEvent_t e;
      if (cudaError_t err = cudaEventCreate(&e); err != cudaSuccess) return err;
      pool_.push_back(e);
    }
    slot = used_++;
    return cudaEventRecord(pool_[std::size_t(slot)], s);
  }
  cudaError_t since_start(int slot, float& us) const {
    if (slot < 0) return cudaErrorInvalidValue;
    float ms = 0;
    cudaError_t err = cudaEventElapsedTime(&ms, pool_[std::size_t(start_)], pool_[std::size_t(slot)]);
    us = ms * 1000.f;
    return err;
  }

  int capacity_;
  int used_ = 0, start_ = -1, gemm_end_ = -1;
  std::vector<cudaEvent_t> pool_;
  std::vector<Pending> copies_;
};

}  // namespace cute_dsl::kernels

#endif  // CUTE_DSL_HOST_ONLY_CODE && __CUDACC__
