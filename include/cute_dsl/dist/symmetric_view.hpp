// A symmetric buffer as a kernel sees it: the same allocation (same size, same layout) exists on
// every rank, and this GPU can load and store each rank's copy through a pointer of its own
// address space (peer memory over NVLink). A communication engine provides the mapping -- NCCL's
// symmetric windows (dist/nccl_window.hpp: ncclGetPeerPointer of each rank, gathered once at
// set-up) -- and the kernels only index it: no engine header reaches device code, so the kernels
// compile under NVRTC and in CI without NCCL.
#pragma once

#include "cute_dsl/config.hpp"

namespace cute_dsl::dist {

inline constexpr int kMaxRanks = 8;  // one NVLink domain of a host (the 2, 4, 8 GPUs)

struct SymmetricView {
  char* base[kMaxRanks];  // rank r's copy, mapped into this GPU (base[rank]: the local one)
  int rank;               // this GPU's rank
  int world;              // ranks, <= kMaxRanks

  // Byte `offset` of rank `peer`'s copy, as a T*. @pre 0 <= peer < world
  template <class T>
  CUTE_DSL_HOST_DEVICE T* at(int peer, long long offset) const {
    return reinterpret_cast<T*>(base[peer] + offset);
  }
};

}  // namespace cute_dsl::dist
