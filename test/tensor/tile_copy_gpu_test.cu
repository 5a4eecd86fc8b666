// A ragged global matrix (1000 x 1030 floats, column-major) through the whole tensor layer on
// the GPU: each block takes its 64 x 64 tile with local_tile, stages it in shared memory
// (cooperative_copy for interior tiles; local_partition + copy_if predicated by an identity
// tensor on the ragged edge), copies shared -> shared with cooperative_copy (vectorised when the
// two layouts agree, element-wise when one is transposed), loads per-thread register fragments,
// computes out = alpha * in + beta * c with axpby, and stores with copy_if. Every element of the
// poisoned output (and a poisoned guard band after it) is compared with the host.

#include <cstring>
#include <vector>

#include "gpu_test.cuh"
#include "tile_axpby_kernel.cuh"

using namespace cute_dsl_tensor_test;

namespace {

template <class SmemB>
void run_tile_axpby(const char* what) {
  CUTE_DSL_REQUIRE_GPU(80);
  const int M = 1000, N = 1030, guard = 256;
  const std::uint32_t seed = cute_dsl_test::test_seed();
  SCOPED_TRACE(::testing::Message() << what << ", seed " << seed);
  auto h_in = cute_dsl_test::random_vector<float>(std::size_t(M) * N, seed);
  auto h_c = cute_dsl_test::random_vector<float>(std::size_t(M) * N, seed + 1);
  // alpha = 2, beta = 1: every result is exactly representable whether or not the compiler
  // contracts to an FMA, so the comparison can be exact.
  const float alpha = 2.f, beta = 1.f;

  cute_dsl_test::DeviceBuffer<float> d_in(h_in.size()), d_c(h_c.size()), d_out(h_in.size() + guard);
  ASSERT_TRUE(d_in.ok() && d_c.ok() && d_out.ok());
  CUTE_DSL_TEST_CUDA(d_in.upload(h_in));
  CUTE_DSL_TEST_CUDA(d_c.upload(h_c));
  CUTE_DSL_TEST_CUDA(d_out.poison());

  dim3 grid((M + 63) / 64, (N + 63) / 64);
  tile_axpby_kernel<SmemB><<<grid, kThreads>>>(d_in.get(), d_c.get(), d_out.get(), M, N, alpha, beta);
  CUTE_DSL_TEST_LAUNCHED();

  std::vector<float> h_out;
  CUTE_DSL_TEST_CUDA(d_out.download(h_out));
  int bad = 0;
  for (std::size_t i = 0; i < std::size_t(M) * N; ++i) {
    const float want = alpha * h_in[i] + beta * h_c[i];
    if (h_out[i] != want && ++bad <= 10)
      ADD_FAILURE() << "element (" << i % M << ", " << i / M << "): got " << h_out[i] << ", want " << want;
  }
  for (int g = 0; g < guard; ++g) {
    std::uint32_t bits;
    std::memcpy(&bits, &h_out[std::size_t(M) * N + g], 4);
    if (bits != 0xFFFFFFFFu && ++bad <= 20) ADD_FAILURE() << "guard element " << g << " was written";
  }
  EXPECT_EQ(bad, 0);
}

// sA -> sB with equal layouts: the 16-byte vector path of cooperative_copy.
TEST(TileCopy, RaggedMatrixThroughSharedMemoryVectorised) { run_tile_axpby<ColMajorTile>("col-major sB"); }
// sB transposed: cooperative_copy falls back to element copies.
TEST(TileCopy, RaggedMatrixThroughSharedMemoryTransposed) { run_tile_axpby<RowMajorTile>("row-major sB"); }

}  // namespace
