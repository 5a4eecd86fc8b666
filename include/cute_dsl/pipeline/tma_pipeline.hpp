// A multistage pipeline whose producer fills buffers with ASYNC copies (TMA, cp.async.bulk) that
// complete on the FULL barrier by transaction bytes, and whose consumers hand buffers back through
// the EMPTY barrier -- of their own CTA and, with multicast, of every CTA that writes into them.
// The semantics of CUTLASS's PipelineTmaAsync; design notes in docs/design/pipelines.md.
//
// Per stage i and pass p (parity = state.phase()):
//   producer (one thread)  producer_acquire(s): wait EMPTY[i]; arrive_expect_tx(FULL[i], bytes)
//                          issue copies with producer_barrier(s), then ++s
//   consumer threads       consumer_wait(s): wait FULL[i] (copies landed); read buffer i
//                          consumer_release(s): arrive on EMPTY[i] of every CTA in release_mask
//
// Arrival counts (set by init):
//   FULL[i]  : 1 (the producer's arrive_expect_tx) + transaction bytes from every copy into me
//   EMPTY[i] : consumer_arrivals * (number of CTAs whose consumers release to me). With the usual
//              symmetric masks (row/column multicast) that number is popcount(release_mask).
// Multicast: a peer's copy may land in my buffer before my own producer announced the bytes; the
// transaction count goes transiently negative, which is allowed, and the phase cannot complete
// before my producer's arrival.
//
// Setup, by the kernel:
//   if (threadIdx.x == 0) TmaPipeline<S>::init(storage, params);
//   cluster size 1: __syncthreads();   cluster: fence_barrier_init(); cluster_sync();
// End: the producer calls producer_tail(state) so that its CTA outlives the peers' releases
// (remote arrives into an exited CTA are undefined), or the kernel ends with a cluster_sync().
#pragma once

#include "cute_dsl/arch/sm90/mbarrier.hpp"
#include "cute_dsl/config.hpp"
#include "cute_dsl/pipeline/pipeline_state.hpp"
#include "cute_dsl/pipeline/pipeline_storage.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

#include <cuda/std/cstdint>

namespace cute_dsl::pipeline {

struct TmaPipelineParams {
  // Bytes that land in THIS CTA's buffer per stage (all copies, own and peers' multicasts).
  cuda::std::uint32_t transaction_bytes = 0;
  // How many consumer_release calls per stage each releasing CTA makes: consumer threads when
  // they read the stage with ordinary loads (racecheck credits an arrive only to the arriving
  // thread), or e.g. warpgroups releasing once after wgmma.wait_group (docs/design/pipelines.md).
  cuda::std::uint32_t consumer_arrivals = 1;
  // Bit r set: this CTA's consumers release to CTA r's EMPTY barriers (the CTAs that write into
  // my buffers, myself included). 0 means "only myself" (no cluster, or no multicast).
  cuda::std::uint16_t release_mask = 0;
};

template <int Stages>
class TmaPipeline {
 public:
  using Storage = PipelineStorage<Stages>;
  using State = PipelineState<Stages>;

  // By ONE thread of the CTA, before any use; then make it visible (see above).
  CUTE_DSL_DEVICE static void init(Storage& storage, const TmaPipelineParams& params) {
    unsigned releasers = params.release_mask == 0 ? 1u : static_cast<unsigned>(__popc(params.release_mask));
    for (int i = 0; i < Stages; ++i) {
      arch::mbarrier_init(&storage.full[i], 1u);
      arch::mbarrier_init(&storage.empty[i], params.consumer_arrivals * releasers);
    }
  }

  CUTE_DSL_DEVICE TmaPipeline(Storage& storage, const TmaPipelineParams& params)
      : storage_(&storage), params_(params) {}

  // Producer (the one issuing thread): waits until stage s.index() is empty in this CTA, then
  // announces the stage's transaction bytes (one arrival on FULL).
  CUTE_DSL_DEVICE void producer_acquire(const State& s) const { producer_acquire(s, params_.transaction_bytes); }
  // The same for a stage that receives other bytes this time (e.g. an epilogue's source loaded
  // through a GEMM's operand ring, without multicast). @pre every CTA that releases to this one
  // uses the stage alike (same position in the ring), so that the releases still pair up
  CUTE_DSL_DEVICE void producer_acquire(const State& s, cuda::std::uint32_t bytes) const {
    arch::mbarrier_wait(&storage_->empty[s.index()], s.phase());
    arch::mbarrier_arrive_expect_tx(&storage_->full[s.index()], bytes);
  }

  // Non-blocking check before producer_acquire (to overlap other work): is stage s empty?
  CUTE_DSL_DEVICE bool producer_try_acquire(const State& s) const {
    return arch::mbarrier_try_wait_parity(&storage_->empty[s.index()], s.phase());
  }

  // The barrier the stage's copies complete on (its shared address: arch::shared_address(ptr)).
  CUTE_DSL_DEVICE cuda::std::uint64_t* producer_barrier(const State& s) const { return &storage_->full[s.index()]; }

  // Keeps the producer's CTA alive until the consumers of every CTA it serves have released the
  // last `Stages` buffers: call with the producer's state after its last ++.
  CUTE_DSL_DEVICE void producer_tail(State s) const {
    for (int i = 0; i < Stages; ++i) {
      arch::mbarrier_wait(&storage_->empty[s.index()], s.phase());
      ++s;
    }
  }

  // Consumers: block until stage s is full (every byte announced for it has landed).
  CUTE_DSL_DEVICE void consumer_wait(const State& s) const {
    arch::mbarrier_wait(&storage_->full[s.index()], s.phase());
  }

  CUTE_DSL_DEVICE bool consumer_try_wait(const State& s) const {
    return arch::mbarrier_try_wait_parity(&storage_->full[s.index()], s.phase());
  }

  // Consumers: this caller is done reading stage s; one arrival on EMPTY[s] of every CTA in
  // release_mask (a remote arrive through mapa for peers).
  CUTE_DSL_DEVICE void consumer_release(const State& s) const {
    cuda::std::uint64_t* empty = &storage_->empty[s.index()];
    if (params_.release_mask == 0) {
      arch::mbarrier_arrive(empty);
      return;
    }
    for (unsigned mask = params_.release_mask; mask != 0; mask &= mask - 1) {
      arch::mbarrier_arrive_cluster(empty, static_cast<cuda::std::uint32_t>(__ffs(mask) - 1));
    }
  }

 private:
  Storage* storage_;
  TmaPipelineParams params_;
};

}  // namespace cute_dsl::pipeline

#endif  // __CUDACC__ || __CUDACC_RTC__
