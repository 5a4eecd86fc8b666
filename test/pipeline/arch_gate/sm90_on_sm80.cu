// Compiled for sm_80 by test/pipeline/CMakeLists.txt: each sm_90-only wrapper, selected by
// -DGATE_CASE=<n>, must fail with its own message naming the instruction (tests
// pipeline.arch_gate.*); with no GATE_CASE the sm_80 subset compiles (the control).
#include <cute_dsl/arch/sm90/bulk_copy.hpp>
#include <cute_dsl/arch/sm90/cluster.hpp>
#include <cute_dsl/arch/sm90/fence.hpp>
#include <cute_dsl/arch/sm90/mbarrier.hpp>
#include <cute_dsl/pipeline/async_pipeline.hpp>

using namespace cute_dsl;

__global__ void gate_kernel(const int* src, int* out, unsigned n) {
  __shared__ cuda::std::uint64_t bar;
  __shared__ pipeline::PipelineStorage<2> storage;
  // The control: everything that exists on sm_80 (the AsyncPipeline waits with test_wait there).
  arch::mbarrier_init(&bar, 1);
  arch::mbarrier_arrive(&bar);
  arch::mbarrier_wait(&bar, 0);
  pipeline::AsyncPipeline<2> pipe(storage);
  pipe.consumer_wait(pipeline::make_consumer_start_state<2>());
  out[0] = arch::mbarrier_test_wait_parity(&bar, 0);
#if GATE_CASE == 1
  arch::mbarrier_expect_tx(&bar, n);
#elif GATE_CASE == 2
  out[1] = arch::mbarrier_try_wait_parity(&bar, n);
#elif GATE_CASE == 3
  arch::mbarrier_arrive_cluster(&bar, n);
#elif GATE_CASE == 4
  out[1] = arch::cluster_ctarank();
#elif GATE_CASE == 5
  __shared__ alignas(16) int buf[64];
  arch::bulk_copy_g2s(buf, src, n, &bar);
#elif GATE_CASE == 6
  arch::fence_view_async_shared();
#elif GATE_CASE == 7
  out[1] = arch::elect_one_sync();
#endif
  (void)src;
  (void)n;
}
