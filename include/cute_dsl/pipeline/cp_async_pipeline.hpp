// The SM80 multistage pattern on cp.async groups: a ring of `Stages` shared-memory buffers that
// every thread both fills (cp.async) and reads, kept `Stages - 1` tiles ahead.
//
//   CpAsyncPipeline<S> p;
//   for (k = 0; k < S - 1; ++k) { load tile k into p.write_stage(); p.producer_commit(); }   // prologue
//   for (k = 0; k < tiles; ++k) {
//     p.consumer_wait();                          // tile k landed, and every thread left tile k-1
//     if (k + S - 1 < tiles) load tile k+S-1 into p.write_stage();   // = the stage of tile k-1
//     p.producer_commit();                        // ALWAYS commit (maybe an empty group)
//     compute on p.read_stage(); p.consumer_release();
//   }
//
// Why it is correct: cp.async.wait_group<S-2> leaves at most S-2 younger groups in flight, so the
// group of tile k (committed S-1 groups before the current newest) has landed for THIS thread; the
// __syncthreads() that follows makes every thread's part visible, and also proves every thread is
// done with tile k-1, whose buffer the next load overwrites. Committing every iteration, even with
// nothing loaded, keeps "tile k is S-1 groups old" true to the end.
// Minimum: sm_80 (cp.async).
#pragma once

#include "cute_dsl/arch/sm80/cp_async.hpp"
#include "cute_dsl/config.hpp"
#include "cute_dsl/pipeline/pipeline_state.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

namespace cute_dsl::pipeline {

template <int Stages>
class CpAsyncPipeline {
  static_assert(Stages >= 2, "CpAsyncPipeline<Stages>: the multistage pattern needs at least 2 stages");

 public:
  // The buffer the next loads go to / the buffer to compute on.
  CUTE_DSL_DEVICE unsigned write_stage() const { return write_.index(); }
  CUTE_DSL_DEVICE unsigned read_stage() const { return read_.index(); }

  // Closes this thread's group of loads for the current write stage (cp.async.commit_group).
  CUTE_DSL_DEVICE void producer_commit() {
    cp_async_fence();
    ++write_;
  }

  // Waits until the read stage's tile has landed for every thread of the block.
  CUTE_DSL_DEVICE void consumer_wait() const {
    cp_async_wait<Stages - 2>();
    __syncthreads();
  }

  // Done computing on the read stage (its reuse is ordered by the next consumer_wait's barrier).
  CUTE_DSL_DEVICE void consumer_release() { ++read_; }

  // Waits for every outstanding copy (before the kernel reuses the buffers for something else).
  CUTE_DSL_DEVICE void drain() const {
    cp_async_wait<0>();
    __syncthreads();
  }

 private:
  PipelineState<Stages> write_{};
  PipelineState<Stages> read_{};
};

}  // namespace cute_dsl::pipeline

#endif  // __CUDACC__ || __CUDACC_RTC__
