// A generic producer/consumer pipeline on mbarriers, for warp-specialised kernels whose producer
// warps fill buffers with ordinary stores, cp.async, or anything that is finished when the
// producer says so (no transaction bytes: for TMA/bulk copies use tma_pipeline.hpp). cp.async
// copies are NOT covered by producer_commit's mbarrier.arrive (it does not wait for them): the
// producer must cp_async_wait<0>() before producer_commit (or arrive with cp.async.mbarrier.arrive).
//
//   producer threads  producer_acquire(s): wait EMPTY[i]; write buffer i; producer_commit(s)
//   consumer threads  consumer_wait(s):    wait FULL[i];  read buffer i;  consumer_release(s)
//
// FULL[i] completes after `producer_arrivals` producer_commit calls, EMPTY[i] after
// `consumer_arrivals` consumer_release calls: count threads (every thread commits/releases) or
// warps (one lane per warp after __syncwarp(): correct, but racecheck credits an arrive only to
// the arriving thread and reports the other lanes' accesses, so tests count threads). An arrival
// releases the caller's prior accesses at CTA scope and a wait acquires them, so no extra fence
// is needed for shared-memory data.
// Works from sm_80 (single arrivals, test_wait loop); sm_90 waits with try_wait.
//
// Setup: if (threadIdx.x == 0) AsyncPipeline<S>::init(storage, params); __syncthreads();
#pragma once

#include "cute_dsl/arch/sm90/mbarrier.hpp"
#include "cute_dsl/config.hpp"
#include "cute_dsl/pipeline/pipeline_state.hpp"
#include "cute_dsl/pipeline/pipeline_storage.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

#include <cuda/std/cstdint>

namespace cute_dsl::pipeline {

struct AsyncPipelineParams {
  cuda::std::uint32_t producer_arrivals = 1;  // producer_commit calls that fill a stage
  cuda::std::uint32_t consumer_arrivals = 1;  // consumer_release calls that empty a stage
};

template <int Stages>
class AsyncPipeline {
 public:
  using Storage = PipelineStorage<Stages>;
  using State = PipelineState<Stages>;

  // By ONE thread, then __syncthreads().
  CUTE_DSL_DEVICE static void init(Storage& storage, const AsyncPipelineParams& params) {
    for (int i = 0; i < Stages; ++i) {
      arch::mbarrier_init(&storage.full[i], params.producer_arrivals);
      arch::mbarrier_init(&storage.empty[i], params.consumer_arrivals);
    }
  }

  CUTE_DSL_DEVICE explicit AsyncPipeline(Storage& storage) : storage_(&storage) {}

  CUTE_DSL_DEVICE void producer_acquire(const State& s) const {
    arch::mbarrier_wait(&storage_->empty[s.index()], s.phase());
  }
  CUTE_DSL_DEVICE void producer_commit(const State& s) const { arch::mbarrier_arrive(&storage_->full[s.index()]); }

  CUTE_DSL_DEVICE void consumer_wait(const State& s) const {
    arch::mbarrier_wait(&storage_->full[s.index()], s.phase());
  }
  CUTE_DSL_DEVICE void consumer_release(const State& s) const { arch::mbarrier_arrive(&storage_->empty[s.index()]); }

  // The producer's last step: wait until the consumers released every stage (see tma_pipeline.hpp).
  CUTE_DSL_DEVICE void producer_tail(State s) const {
    for (int i = 0; i < Stages; ++i) {
      producer_acquire(s);
      ++s;
    }
  }

 private:
  Storage* storage_;
};

}  // namespace cute_dsl::pipeline

#endif  // __CUDACC__ || __CUDACC_RTC__
