// AsyncPipeline (pipeline/async_pipeline.hpp): producer warps fill stages with ordinary stores,
// consumer warps read them; every producer thread commits and every consumer thread releases.
#include <gpu_test.cuh>
#include <cluster_launch.cuh>

#include <cute_dsl/pipeline/async_pipeline.hpp>

#include <cstdint>
#include <vector>

namespace {
using namespace cute_dsl;

constexpr int kStages = 3;
constexpr int kProducerWarps = 2;
constexpr int kConsumerWarps = 3;
constexpr int kTileInts = 64 * 32;

// Producers store tile `t` (in[t] + 1 per element) into the stage; consumer warp c writes
// out[t * kTileInts + i] = stage[i] * 2 for its share i = c*32 + lane (step 96) of the tile.
__global__ void async_pipeline_kernel(const int* in, int* out, int tiles) {
  __shared__ int buf[kStages][kTileInts];
  __shared__ pipeline::PipelineStorage<kStages> barriers;
  using Pipe = pipeline::AsyncPipeline<kStages>;
  pipeline::AsyncPipelineParams params;
  params.producer_arrivals = kProducerWarps * 32;  // every producer thread commits
  params.consumer_arrivals = kConsumerWarps * 32;  // every consumer thread (racecheck: see TmaPipeline test)
  if (threadIdx.x == 0) Pipe::init(barriers, params);
  __syncthreads();
  Pipe pipe(barriers);
  const int warp_id = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp_id < kProducerWarps) {
    auto state = pipeline::make_producer_start_state<kStages>();
    for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
      pipe.producer_acquire(state);
      for (int i = threadIdx.x; i < kTileInts; i += kProducerWarps * 32)
        buf[state.index()][i] = in[static_cast<std::size_t>(t) * kTileInts + i] + 1;
      pipe.producer_commit(state);
      ++state;
    }
    pipe.producer_tail(state);
  } else {
    const int c = warp_id - kProducerWarps;
    auto state = pipeline::make_consumer_start_state<kStages>();
    for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
      pipe.consumer_wait(state);
      for (int i = c * 32 + lane; i < kTileInts; i += kConsumerWarps * 32)
        out[static_cast<std::size_t>(t) * kTileInts + i] = buf[state.index()][i] * 2;
      pipe.consumer_release(state);
      ++state;
    }
  }
}

TEST(AsyncPipeline, ProducerAndConsumerWarps) {
  CUTE_DSL_REQUIRE_GPU(90);
  auto seed = cute_dsl_test::test_seed();
  const int tiles = cute_dsl_test::sanitizer_scaled(777), blocks = 11;
  auto in = cute_dsl_test::random_ints(static_cast<std::size_t>(tiles) * kTileInts, seed);
  cute_dsl_test::DeviceBuffer<int> d_in(in.size()), d_out(in.size());
  CUTE_DSL_TEST_CUDA(d_in.upload(in));
  CUTE_DSL_TEST_CUDA(d_out.poison());
  async_pipeline_kernel<<<blocks, 32 * (kProducerWarps + kConsumerWarps)>>>(d_in.get(), d_out.get(), tiles);
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<int> out;
  CUTE_DSL_TEST_CUDA(d_out.download(out));
  for (std::size_t k = 0; k < in.size(); ++k) ASSERT_EQ(out[k], (in[k] + 1) * 2) << "element " << k << " seed " << seed;
}

}  // namespace
