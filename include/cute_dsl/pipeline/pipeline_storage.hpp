// The shared-memory part of an mbarrier pipeline: one FULL and one EMPTY barrier per stage.
//
//   producer: wait EMPTY[i] -> fill buffer i -> signal FULL[i]
//   consumer: wait FULL[i]  -> use buffer i  -> signal EMPTY[i]
//
// Put one in the kernel's shared-memory struct (8-byte aligned, as mbarriers require); the
// pipelines (tma_pipeline.hpp, async_pipeline.hpp) initialise and use it.
#pragma once

#include "cute_dsl/config.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

#include <cuda/std/cstdint>

namespace cute_dsl::pipeline {

template <int Stages>
struct PipelineStorage {
  static_assert(Stages >= 1, "PipelineStorage: a pipeline needs at least one stage");
  alignas(8) cuda::std::uint64_t full[Stages];
  alignas(8) cuda::std::uint64_t empty[Stages];
};

}  // namespace cute_dsl::pipeline

#endif  // __CUDACC__ || __CUDACC_RTC__
