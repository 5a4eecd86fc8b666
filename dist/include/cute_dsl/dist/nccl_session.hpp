// The communication engine of the distributed kernels: NCCL (>= 2.28, its symmetric windows and
// device API), one process per GPU. Host code; link CuteDSL::dist (built when CMake finds NCCL:
// cmake/FindNCCL.cmake looks in the nvidia-nccl-cu13 wheel, NCCL_ROOT and the system).
//
//   int main() {
//     return cute_dsl::dist::run_local_ranks(4, [](int rank, int world, const ncclUniqueId& id) {
//       cute_dsl::dist::NcclSession session(rank, world, id);       // GPU `rank`, NCCL communicator
//       cute_dsl::dist::SymmetricBuffer buf(session, layout.bytes());  // same bytes on every rank
//       ... epilogue::reduce_scatter(buf.view(), layout, out, ldo, ++epoch, acc()) ...
//       return 0;
//     });
//   }
//
// NVLink multicast (NVLS) is never used: the session sets NCCL_NVLS_ENABLE=0 in its process, and
// nothing here calls cuMulticastCreate. Errors throw std::runtime_error naming the call and
// NCCL's / CUDA's message.
#pragma once

#include <cuda_runtime.h>
#include <nccl.h>

#include <cstddef>
#include <functional>

#include "cute_dsl/dist/symmetric_view.hpp"

namespace cute_dsl::dist {

// Runs fn(rank, world, id) in `world` processes forked from this one (before this process
// touches CUDA: call it first), one per GPU, all sharing one NCCL unique id; waits for all.
// Returns 0 when every rank returned 0; otherwise the first failing rank's status (a rank that
// throws prints "ERROR: rank r: <what>" and fails). Throws when fewer than `world` GPUs exist.
int run_local_ranks(int world, const std::function<int(int rank, int world, const ncclUniqueId& id)>& fn);

// This process's GPU (`rank`) and its NCCL communicator. Checks that every peer GPU is reachable
// by loads and stores (peer access), which the symmetric windows need.
class NcclSession {
 public:
  NcclSession(int rank, int world, const ncclUniqueId& id);
  ~NcclSession();
  NcclSession(const NcclSession&) = delete;
  NcclSession& operator=(const NcclSession&) = delete;

  int rank() const { return rank_; }
  int world() const { return world_; }
  ncclComm_t comm() const { return comm_; }
  // Every rank reaches this point on `stream` (a one-element all-reduce), then the host waits.
  void barrier(cudaStream_t stream = nullptr) const;

 private:
  int rank_, world_;
  ncclComm_t comm_ = nullptr;
  int* scratch_ = nullptr;
};

// `bytes` on every rank from ncclMemAlloc, registered as one symmetric window, zeroed; view()
// maps every rank's copy (ncclGetPeerPointer, once, at construction). Collective: every rank
// constructs (and destroys) it in the same order with the same size.
class SymmetricBuffer {
 public:
  SymmetricBuffer(NcclSession& session, std::size_t bytes);
  ~SymmetricBuffer();
  SymmetricBuffer(const SymmetricBuffer&) = delete;
  SymmetricBuffer& operator=(const SymmetricBuffer&) = delete;

  SymmetricView view() const { return view_; }
  void* local() const { return local_; }
  std::size_t bytes() const { return bytes_; }

 private:
  NcclSession& session_;
  void* local_ = nullptr;
  std::size_t bytes_ = 0;
  ncclWindow_t window_{};
  SymmetricView view_{};
};

}  // namespace cute_dsl::dist
