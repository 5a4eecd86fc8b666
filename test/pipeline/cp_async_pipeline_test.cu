// CpAsyncPipeline (pipeline/cp_async_pipeline.hpp): a large array streamed through 2, 3 and 4
// shared-memory stages with cp.async, every element transformed and checked.
#include <gpu_test.cuh>
#include <cluster_launch.cuh>

#include <cute_dsl/arch/sm80/cp_async.hpp>
#include <cute_dsl/pipeline/cp_async_pipeline.hpp>

#include <cstdint>
#include <vector>

namespace {
using namespace cute_dsl;

constexpr int kThreads = 128;
constexpr int kTileInts = kThreads * 4;  // one 16-byte cp.async per thread per tile

struct Int4 {
  int v[4];
};

// Block b streams tiles b, b + gridDim.x, ... and writes out[i] = 5 * in[i] - tile. Each thread
// reads another thread's 16 bytes of the tile, so a missing __syncthreads or wait shows.
template <int Stages>
__global__ void cp_async_stream_kernel(const int* in, int* out, int tiles) {
  __shared__ alignas(16) int buf[Stages][kTileInts];
  pipeline::CpAsyncPipeline<Stages> pipe;
  const int t = threadIdx.x;
  int load_tile = blockIdx.x;
  auto load = [&](int tile) {
    if (tile < tiles) {
      const Int4& src = reinterpret_cast<const Int4*>(in + static_cast<std::size_t>(tile) * kTileInts)[t];
      Int4& dst = reinterpret_cast<Int4*>(buf[pipe.write_stage()])[t];
      SM80_CP_ASYNC_CACHEGLOBAL<Int4>::copy(src, dst);
    }
  };
  for (int k = 0; k < Stages - 1; ++k) {
    load(load_tile);
    load_tile += gridDim.x;
    pipe.producer_commit();
  }
  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    pipe.consumer_wait();
    load(load_tile);
    load_tile += gridDim.x;
    pipe.producer_commit();
    const int* stage = buf[pipe.read_stage()];
    const int other = (t * 4 + 3 * kTileInts / 4 + 16) % kTileInts;  // another thread's chunk
    for (int j = 0; j < 4; ++j) {
      const int i = (other + j) % kTileInts;
      out[static_cast<std::size_t>(tile) * kTileInts + i] = 5 * stage[i] - tile;
    }
    pipe.consumer_release();
  }
  pipe.drain();
}

template <int Stages>
void run_stream() {
  auto seed = cute_dsl_test::test_seed();
  const int tiles = cute_dsl_test::sanitizer_scaled(1531), blocks = 37;
  auto in = cute_dsl_test::random_ints(static_cast<std::size_t>(tiles) * kTileInts, seed, -100000, 100000);
  cute_dsl_test::DeviceBuffer<int> d_in(in.size()), d_out(in.size());
  CUTE_DSL_TEST_CUDA(d_in.upload(in));
  CUTE_DSL_TEST_CUDA(d_out.poison());
  cp_async_stream_kernel<Stages><<<blocks, kThreads>>>(d_in.get(), d_out.get(), tiles);
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<int> out;
  CUTE_DSL_TEST_CUDA(d_out.download(out));
  for (int tile = 0; tile < tiles; ++tile)
    for (int i = 0; i < kTileInts; ++i) {
      std::size_t k = static_cast<std::size_t>(tile) * kTileInts + i;
      ASSERT_EQ(out[k], 5 * in[k] - tile) << "Stages " << Stages << " tile " << tile << " i " << i << " seed " << seed;
    }
}

TEST(CpAsyncPipeline, TwoStages) {
  CUTE_DSL_REQUIRE_GPU(80);
  run_stream<2>();
}
TEST(CpAsyncPipeline, ThreeStages) {
  CUTE_DSL_REQUIRE_GPU(80);
  run_stream<3>();
}
TEST(CpAsyncPipeline, FourStages) {
  CUTE_DSL_REQUIRE_GPU(80);
  run_stream<4>();
}

}  // namespace
