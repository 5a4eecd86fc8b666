// TmaPipeline (pipeline/tma_pipeline.hpp): one producer warp fills `Stages` buffers with bulk
// copies, consumer warps sum them; single CTAs, and clusters whose CTAs multicast parts of every
// tile into all peers and release buffers to all of them.
#include <gpu_test.cuh>
#include <cluster_launch.cuh>

#include <cute_dsl/arch/sm90/bulk_copy.hpp>
#include <cute_dsl/arch/sm90/cluster.hpp>
#include <cute_dsl/pipeline/tma_pipeline.hpp>
#include <cute_dsl/warp/shuffle.hpp>

#include <cstdint>
#include <vector>

namespace {
using namespace cute_dsl;
using namespace cute_dsl::arch;
using pipeline::TmaPipeline;
using pipeline::TmaPipelineParams;

constexpr int kStages = 4;
constexpr int kTileInts = 2048;  // 8 KiB per stage
constexpr int kConsumerWarps = 4;
constexpr int kThreads = 32 * (1 + kConsumerWarps);

struct Shared {
  alignas(128) int tiles[kStages][kTileInts];
  pipeline::PipelineStorage<kStages> barriers;
};

// Block b owns tiles b, b + gridDim.x, ...; per tile each consumer warp writes the sum of its
// quarter to sums[tile * kConsumerWarps + warp], and copies the tile, plus the tile's number,
// to `copy`. Within a cluster of `cluster_n` CTAs (1 = no cluster), the CTAs process the same
// tiles: CTA r multicasts part r of each tile into every CTA, and the results of quarter c are
// written by the CTA with c % cluster_n == (rank + 1) % cluster_n, so that what is checked includes
// parts that PEERS delivered into each CTA.
__global__ void tma_pipeline_kernel(const int* src, int tiles, int* sums, int* copy, int cluster_n) {
  extern __shared__ __align__(128) unsigned char smem_raw[];
  Shared& smem = *reinterpret_cast<Shared*>(smem_raw);
  const int warp_id = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const unsigned rank = cluster_n > 1 ? cluster_ctarank() : 0u;
  const int group = blockIdx.x / cluster_n;
  const int groups = gridDim.x / cluster_n;

  TmaPipelineParams params;
  params.transaction_bytes = kTileInts * sizeof(int);
  // Every consumer THREAD releases (not one elected lane per warp after __syncwarp): both are
  // correct, but racecheck only credits an mbarrier arrive with the arriving thread's own reads,
  // so with an elected lane it reports the other 31 lanes' reads as racing with the next bulk
  // copy into the stage (docs/design/pipelines.md, "Who releases").
  params.consumer_arrivals = kConsumerWarps * 32;
  params.release_mask = cluster_n > 1 ? multicast_mask_all(cluster_n) : 0;
  if (threadIdx.x == 0) TmaPipeline<kStages>::init(smem.barriers, params);
  if (cluster_n > 1) {
    fence_barrier_init();
    cluster_sync();
  } else {
    __syncthreads();
  }
  TmaPipeline<kStages> pipe(smem.barriers, params);

  if (warp_id == 0) {  // producer
    if (elect_one_sync()) {
      auto state = pipeline::make_producer_start_state<kStages>();
      const unsigned part_bytes = kTileInts * sizeof(int) / cluster_n;
      const int part_ints = kTileInts / cluster_n;
      for (int tile = group; tile < tiles; tile += groups) {
        pipe.producer_acquire(state);
        int* dst = smem.tiles[state.index()] + rank * part_ints;
        const int* from = src + static_cast<std::size_t>(tile) * kTileInts + rank * part_ints;
        if (cluster_n > 1)
          bulk_copy_g2s_multicast(dst, from, part_bytes, pipe.producer_barrier(state), multicast_mask_all(cluster_n));
        else
          bulk_copy_g2s(dst, from, part_bytes, pipe.producer_barrier(state));
        ++state;
      }
      pipe.producer_tail(state);
    }
  } else {  // consumers
    const int c = warp_id - 1;
    auto state = pipeline::make_consumer_start_state<kStages>();
    for (int tile = group; tile < tiles; tile += groups) {
      pipe.consumer_wait(state);
      const int* buf = smem.tiles[state.index()];
      int sum = 0;
      const int quarter = kTileInts / kConsumerWarps;
      const bool writer = c % cluster_n == static_cast<int>(rank + 1) % cluster_n;
      for (int i = lane; i < quarter; i += 32) {
        int v = buf[c * quarter + i];
        sum += v;
        if (writer) copy[static_cast<std::size_t>(tile) * kTileInts + c * quarter + i] = v + tile;
      }
      sum = warp::all_reduce_sum(sum);
      if (lane == 0 && writer) sums[tile * kConsumerWarps + c] = sum;
      pipe.consumer_release(state);  // this thread's reads of the stage are done
      ++state;
    }
  }
  if (cluster_n > 1) {  // no CTA leaves while peers may still address it
    __syncwarp();        // the producer warp reconverged: barrier.cluster is .aligned
    cluster_sync();
  }
}

void run_tma_pipeline(int cluster_n, int blocks, int tiles) {
  tiles = cute_dsl_test::sanitizer_scaled(tiles);
  auto seed = cute_dsl_test::test_seed();
  auto src = cute_dsl_test::random_ints(static_cast<std::size_t>(tiles) * kTileInts, seed);
  cute_dsl_test::DeviceBuffer<int> d_src(src.size()), d_copy(src.size()), d_sums(tiles * kConsumerWarps);
  CUTE_DSL_TEST_CUDA(d_src.upload(src));
  CUTE_DSL_TEST_CUDA(d_copy.poison());
  CUTE_DSL_TEST_CUDA(d_sums.poison());
  CUTE_DSL_TEST_CUDA(cute_dsl_test::launch_cluster(tma_pipeline_kernel, dim3(blocks), dim3(kThreads),
                                                   dim3(cluster_n), sizeof(Shared), d_src.get(), tiles,
                                                   d_sums.get(), d_copy.get(), cluster_n));
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<int> copy, sums;
  CUTE_DSL_TEST_CUDA(d_copy.download(copy));
  CUTE_DSL_TEST_CUDA(d_sums.download(sums));
  const int quarter = kTileInts / kConsumerWarps;
  for (int t = 0; t < tiles; ++t) {
    for (int c = 0; c < kConsumerWarps; ++c) {
      int expect = 0;
      for (int i = 0; i < quarter; ++i) expect += src[static_cast<std::size_t>(t) * kTileInts + c * quarter + i];
      ASSERT_EQ(sums[t * kConsumerWarps + c], expect) << "tile " << t << " warp " << c << " seed " << seed;
    }
    for (int i = 0; i < kTileInts; ++i) {
      std::size_t k = static_cast<std::size_t>(t) * kTileInts + i;
      ASSERT_EQ(copy[k], src[k] + t) << "tile " << t << " element " << i << " seed " << seed;
    }
  }
}

TEST(TmaPipeline, OneCtaManyTiles) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_tma_pipeline(1, 1, 301);
}

TEST(TmaPipeline, ManyCtas) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_tma_pipeline(1, 13, 997);
}

TEST(TmaPipeline, Cluster2MulticastReleaseToPeers) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_tma_pipeline(2, 2 * 7, 503);
}

TEST(TmaPipeline, Cluster4MulticastReleaseToPeers) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_tma_pipeline(4, 4 * 5, 503);
}

}  // namespace
