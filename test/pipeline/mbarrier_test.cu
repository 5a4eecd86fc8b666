// mbarrier phases and transaction bytes (arch/sm90/mbarrier.hpp, arch/sm90/bulk_copy.hpp).
#include <gpu_test.cuh>
#include <cluster_launch.cuh>

#include <cute_dsl/arch/sm90/bulk_copy.hpp>
#include <cute_dsl/arch/sm90/fence.hpp>
#include <cute_dsl/arch/sm90/mbarrier.hpp>

#include <cstdint>
#include <vector>

namespace {
using namespace cute_dsl::arch;

constexpr int kThreads = 256;
constexpr int kRounds = 40;

// Every round each thread publishes a value, arrives, waits for the round's phase (parity
// round & 1), then reads a neighbour's value. A wrong phase or a missing arrival reads a stale or
// unwritten slot (or hangs).
__global__ void phases_kernel(const int* in, int* out) {
  __shared__ std::uint64_t bar;
  __shared__ int slots[2][kThreads];
  const int t = threadIdx.x;
  if (t == 0) mbarrier_init(&bar, kThreads);
  __syncthreads();
  for (int r = 0; r < kRounds; ++r) {
    slots[r & 1][t] = in[r * kThreads + t];
    if (r % 2 == 0) {
      mbarrier_arrive(&bar);
      mbarrier_wait(&bar, r & 1);
    } else {  // the token form
      std::uint64_t token = mbarrier_arrive(&bar);
      while (!mbarrier_test_wait(&bar, token)) {
      }
    }
    out[r * kThreads + t] = slots[r & 1][(t * 37 + r) % kThreads];
  }
  __syncthreads();
  if (t == 0) mbarrier_invalidate(&bar);
}

// Single-thread facts about phases: out[i] = 1 where the check holds.
__global__ void parity_facts_kernel(int* out) {
  __shared__ std::uint64_t bar;
  mbarrier_init(&bar, 2);
  out[0] = !mbarrier_test_wait_parity(&bar, 0);  // phase 0 incomplete
  out[1] = mbarrier_test_wait_parity(&bar, 1);   // "the phase before" counts as complete
  mbarrier_arrive(&bar);
  out[2] = !mbarrier_try_wait_parity(&bar, 0);   // one of two arrivals
  mbarrier_arrive(&bar);
  out[3] = mbarrier_try_wait_parity(&bar, 0);    // phase 0 done, phase 1 running
  out[4] = !mbarrier_test_wait_parity(&bar, 1);
  mbarrier_arrive(&bar, 2u);                     // both arrivals at once: phase 1 done
  out[5] = mbarrier_test_wait_parity(&bar, 1);
  mbarrier_arrive_expect_tx(&bar, 16);            // tx pending: phase 2 cannot complete...
  mbarrier_arrive(&bar);
  out[6] = !mbarrier_test_wait_parity(&bar, 0);
  mbarrier_invalidate(&bar);
  out[7] = 1;
}

// Chunks of `src` land in shared memory through cp.async.bulk completing on the barrier; all
// threads then copy them out transformed. expect_tx either with the arrival or separately.
constexpr int kChunkInts = 1024;  // 4 KiB
__global__ void bulk_load_kernel(const int* src, int* out, int chunks, bool separate_expect) {
  __shared__ alignas(128) int buf[kChunkInts];
  __shared__ std::uint64_t bar;
  if (threadIdx.x == 0) mbarrier_init(&bar, 1);
  __syncthreads();
  for (int c = 0; c < chunks; ++c) {
    if (threadIdx.x == 0) {
      constexpr unsigned bytes = kChunkInts * sizeof(int);
      if (separate_expect) {
        mbarrier_expect_tx(&bar, bytes / 2);
        bulk_copy_g2s(buf, src + c * kChunkInts, bytes / 2, &bar);
        mbarrier_expect_tx(&bar, bytes / 2);
        bulk_copy_g2s(buf + kChunkInts / 2, src + c * kChunkInts + kChunkInts / 2, bytes / 2, &bar);
        mbarrier_arrive(&bar);
      } else {
        mbarrier_arrive_expect_tx(&bar, bytes);
        bulk_copy_g2s(buf, src + c * kChunkInts, bytes, &bar);
      }
    }
    mbarrier_wait(&bar, c & 1);
    for (int i = threadIdx.x; i < kChunkInts; i += blockDim.x) out[c * kChunkInts + i] = buf[i] * 3 + c;
    __syncthreads();  // everyone done reading before the next copy overwrites buf
  }
}

// Threads write shared memory, fence for the async proxy, one thread bulk-stores it.
__global__ void bulk_store_kernel(const int* src, int* out) {
  __shared__ alignas(128) int buf[kChunkInts];
  const int base = blockIdx.x * kChunkInts;
  for (int i = threadIdx.x; i < kChunkInts; i += blockDim.x) buf[i] = src[base + i] - 7;
  fence_view_async_shared();
  __syncthreads();
  if (threadIdx.x == 0) {
    bulk_copy_s2g(out + base, buf, kChunkInts * sizeof(int));
    bulk_commit_group();
    bulk_wait_group<0>();
  }
}

TEST(Mbarrier, PhasesWithManyThreads) {
  CUTE_DSL_REQUIRE_GPU(90);
  auto seed = cute_dsl_test::test_seed();
  auto in = cute_dsl_test::random_ints(kRounds * kThreads, seed);
  cute_dsl_test::DeviceBuffer<int> d_in(in.size()), d_out(in.size());
  CUTE_DSL_TEST_CUDA(d_in.upload(in));
  CUTE_DSL_TEST_CUDA(d_out.poison());
  phases_kernel<<<4, kThreads>>>(d_in.get(), d_out.get());
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<int> out;
  CUTE_DSL_TEST_CUDA(d_out.download(out));
  for (int r = 0; r < kRounds; ++r)
    for (int t = 0; t < kThreads; ++t)
      ASSERT_EQ(out[r * kThreads + t], in[r * kThreads + (t * 37 + r) % kThreads]) << "round " << r << " thread " << t << " seed " << seed;
}

TEST(Mbarrier, ParityFacts) {
  CUTE_DSL_REQUIRE_GPU(90);
  cute_dsl_test::DeviceBuffer<int> d_out(8);
  CUTE_DSL_TEST_CUDA(d_out.poison());
  parity_facts_kernel<<<1, 1>>>(d_out.get());
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<int> out;
  CUTE_DSL_TEST_CUDA(d_out.download(out));
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], 1) << "fact " << i;
}

void check_bulk_load(bool separate_expect) {
  auto seed = cute_dsl_test::test_seed();
  const int chunks = 37;
  auto src = cute_dsl_test::random_ints(chunks * kChunkInts, seed);
  cute_dsl_test::DeviceBuffer<int> d_src(src.size()), d_out(src.size());
  CUTE_DSL_TEST_CUDA(d_src.upload(src));
  CUTE_DSL_TEST_CUDA(d_out.poison());
  bulk_load_kernel<<<1, 128>>>(d_src.get(), d_out.get(), chunks, separate_expect);
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<int> out;
  CUTE_DSL_TEST_CUDA(d_out.download(out));
  for (int c = 0; c < chunks; ++c)
    for (int i = 0; i < kChunkInts; ++i)
      ASSERT_EQ(out[c * kChunkInts + i], src[c * kChunkInts + i] * 3 + c) << "chunk " << c << " i " << i << " seed " << seed;
}

TEST(Mbarrier, ArriveExpectTxCompletedByBulkCopy) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_bulk_load(false);
}

TEST(Mbarrier, ExpectTxTwiceThenArrive) {
  CUTE_DSL_REQUIRE_GPU(90);
  check_bulk_load(true);
}

TEST(BulkCopy, StoreFromSharedAfterProxyFence) {
  CUTE_DSL_REQUIRE_GPU(90);
  auto seed = cute_dsl_test::test_seed();
  const int blocks = 19;
  auto src = cute_dsl_test::random_ints(blocks * kChunkInts, seed);
  cute_dsl_test::DeviceBuffer<int> d_src(src.size()), d_out(src.size());
  CUTE_DSL_TEST_CUDA(d_src.upload(src));
  CUTE_DSL_TEST_CUDA(d_out.poison());
  bulk_store_kernel<<<blocks, 128>>>(d_src.get(), d_out.get());
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<int> out;
  CUTE_DSL_TEST_CUDA(d_out.download(out));
  for (std::size_t i = 0; i < src.size(); ++i) ASSERT_EQ(out[i], src[i] - 7) << "i " << i << " seed " << seed;
}

}  // namespace
