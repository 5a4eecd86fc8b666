// TMA load and store of a ragged 2-D float matrix with every swizzle mode (none, 32, 64, 128 B),
// and a multicast load across a 2-CTA cluster. Random data, poisoned outputs, every element
// checked: loaded boxes against the matrix (zeros past the edges) at the byte offsets the swizzle
// mode puts them (Swizzle<B,4,3> on byte offsets, B = 1, 2, 3), stores against the matrix with
// the padding past the last column left untouched. SASS: UTMALDG.2D[.MULTICAST], UTMASTG.2D,
// UTMACMDFLUSH, UTMAPF.
#include <cuda.h>

#include <cstring>
#include <string>
#include <vector>

#include "cute_dsl/arch/sm90/cluster.hpp"
#include "cute_dsl/arch/sm90/mbarrier.hpp"
#include "cute_dsl/arch/sm90/tma_copy.hpp"
#include "cute_dsl/arch/sm90/tma_descriptor.hpp"
#include "cute_dsl/layout/composed_layout.hpp"
#include "tma_test_matrix.cuh"

using namespace cute_dsl;
using tma_test::Matrix;
using tma_test::random_matrix;
using tma_test::same_bits;
using tma_test::expect_stored;

namespace {

constexpr int kBoxRows = 16;
template <int B> constexpr int box_cols = B == 0 ? 32 : (16 << B) / 4;  // floats: 128 B, or the swizzle span

// The shared layout of one box in elements: (cols, rows) column-major = row-major rows of floats.
template <int B>
auto box_layout() {
  auto plain = make_layout(make_shape(Int<box_cols<B>>{}, Int<kBoxRows>{}));
  if constexpr (B == 0) return plain;
  else return composition(Swizzle<B, 2, 3>{}, plain);
}
// Where TMA puts byte `lin` of a dense box (the claim the descriptor builder relies on).
template <int B>
long swizzled_byte(long lin) {
  if constexpr (B == 0) return lin;
  else return Swizzle<B, 4, 3>::apply_value(lin);
}


CUtensorMap descriptor_for(const float* dptr, const Matrix& m, auto smem_layout) {
  return tma::make_tma_descriptor<float>(tma::encode_tiled_from_cudart(), dptr, {std::uint64_t(m.cols), std::uint64_t(m.rows)},
                                         {std::uint64_t(m.pitch) * 4}, smem_layout);
}

template <int B>
__global__ void tma_load_kernel(const __grid_constant__ CUtensorMap map, float* out) {
  constexpr int n = box_cols<B> * kBoxRows;
  __shared__ alignas(1024) float box[n];
  __shared__ alignas(8) cuda::std::uint64_t bar;
  if (threadIdx.x == 0) {
    prefetch_tma_descriptor(&map);
    arch::mbarrier_init(&bar, 1);
    arch::fence_barrier_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    arch::mbarrier_arrive_expect_tx(&bar, n * 4);  // the whole box, out-of-bounds fill included
    SM90_TMA_LOAD::copy(&map, arch::shared_address(&bar), box, int(blockIdx.x) * box_cols<B>, int(blockIdx.y) * kBoxRows);
  }
  arch::mbarrier_wait(&bar, 0);
  float* o = out + (std::size_t(blockIdx.y) * gridDim.x + blockIdx.x) * n;
  for (int k = threadIdx.x; k < n; k += blockDim.x) o[k] = box[k];
}

template <int B>
__global__ void tma_store_kernel(const __grid_constant__ CUtensorMap map, const float* in, int rows, int cols, int pitch) {
  constexpr int n = box_cols<B> * kBoxRows;
  __shared__ alignas(1024) float box[n];
  for (int e = threadIdx.x; e < n; e += blockDim.x) {
    const int r = int(blockIdx.y) * kBoxRows + e / box_cols<B>, c = int(blockIdx.x) * box_cols<B> + e % box_cols<B>;
    const long lin = long(e) * 4;
    const long at = B == 0 ? lin : long(Swizzle<(B > 0 ? B : 1), 4, 3>::apply_value(lin));
    box[at / 4] = (r < rows && c < cols) ? in[std::size_t(r) * pitch + c] : 12345.f;  // past the edge: must be clipped
  }
  tma_store_fence();
  __syncthreads();
  if (threadIdx.x == 0) {
    SM90_TMA_STORE::copy(&map, box, int(blockIdx.x) * box_cols<B>, int(blockIdx.y) * kBoxRows);
    tma_store_arrive();
    tma_store_wait<0>();
  }
}

// Each CTA of a 2-CTA cluster loads half of a 16x32 tile (8 rows) and multicasts it to both.
__global__ void tma_multicast_kernel(const __grid_constant__ CUtensorMap map, float* out) {
  constexpr int half_rows = 8, cols = 32, n = 2 * half_rows * cols;
  __shared__ alignas(1024) float tile[n];
  __shared__ alignas(8) cuda::std::uint64_t bar;
  const int rank = int(arch::cluster_ctarank());
  if (threadIdx.x == 0) {
    arch::mbarrier_init(&bar, 1);
    arch::fence_barrier_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) arch::mbarrier_arrive_expect_tx(&bar, n * 4);  // both halves land here
  arch::cluster_sync();  // both barriers armed before either half is sent
  if (threadIdx.x == 0)
    SM90_TMA_LOAD_MULTICAST::copy(&map, arch::shared_address(&bar), static_cast<unsigned short>(0b11), tile + rank * half_rows * cols,
                                  0, rank * half_rows);
  arch::mbarrier_wait(&bar, 0);
  for (int k = threadIdx.x; k < n; k += blockDim.x) out[rank * n + k] = tile[k];
  arch::cluster_sync();  // no CTA leaves while its partner may still write into it
}


template <int B>
void check_tma_load() {
  CUTE_DSL_REQUIRE_GPU(90);
  constexpr int bc = box_cols<B>, n = bc * kBoxRows;
  const std::uint32_t seed = cute_dsl_test::test_seed();
  Matrix m = random_matrix(3 * kBoxRows + 5, 2 * bc + 4, seed);  // ragged in both dimensions
  const int gx = (m.cols + bc - 1) / bc, gy = (m.rows + kBoxRows - 1) / kBoxRows;
  cute_dsl_test::DeviceBuffer<float> da(m.host.size()), dout(std::size_t(gx) * gy * n);
  ASSERT_TRUE(da.ok() && dout.ok());
  CUTE_DSL_TEST_CUDA(da.upload(m.host));
  CUTE_DSL_TEST_CUDA(dout.poison());
  CUtensorMap map{};
  try {
    map = descriptor_for(da.get(), m, box_layout<B>());
  } catch (const std::exception& e) {
    FAIL() << e.what();
  }
  tma_load_kernel<B><<<dim3(gx, gy), 128>>>(map, dout.get());
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<float> out;
  CUTE_DSL_TEST_CUDA(dout.download(out));
  for (int by = 0; by < gy; ++by)
    for (int bx = 0; bx < gx; ++bx)
      for (int e = 0; e < n; ++e) {
        const int r = by * kBoxRows + e / bc, c = bx * bc + e % bc;
        const float expected = (r < m.rows && c < m.cols) ? m.host[std::size_t(r) * m.pitch + c] : 0.f;
        const float got = out[(std::size_t(by) * gx + bx) * n + swizzled_byte<B>(long(e) * 4) / 4];
        ASSERT_TRUE(same_bits(got, expected)) << "swizzle " << B << " element (" << r << "," << c << "): " << got << " vs "
                                              << expected << " seed " << seed;
      }
}

template <int B>
void check_tma_store() {
  CUTE_DSL_REQUIRE_GPU(90);
  constexpr int bc = box_cols<B>;
  const std::uint32_t seed = cute_dsl_test::test_seed();
  Matrix m = random_matrix(3 * kBoxRows + 5, 2 * bc + 4, seed);
  const int gx = (m.cols + bc - 1) / bc, gy = (m.rows + kBoxRows - 1) / kBoxRows;
  cute_dsl_test::DeviceBuffer<float> din(m.host.size()), dout(m.host.size());
  ASSERT_TRUE(din.ok() && dout.ok());
  CUTE_DSL_TEST_CUDA(din.upload(m.host));
  CUTE_DSL_TEST_CUDA(dout.poison());
  CUtensorMap map{};
  try {
    map = descriptor_for(dout.get(), m, box_layout<B>());
  } catch (const std::exception& e) {
    FAIL() << e.what();
  }
  tma_store_kernel<B><<<dim3(gx, gy), 128>>>(map, din.get(), m.rows, m.cols, m.pitch);
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<float> out;
  CUTE_DSL_TEST_CUDA(dout.download(out));
  expect_stored(out, m, B, seed);
}

}  // namespace

TEST(TmaLoad, NoSwizzleRagged) { check_tma_load<0>(); }
TEST(TmaLoad, Swizzle32BRagged) { check_tma_load<1>(); }
TEST(TmaLoad, Swizzle64BRagged) { check_tma_load<2>(); }
TEST(TmaLoad, Swizzle128BRagged) { check_tma_load<3>(); }
TEST(TmaStore, NoSwizzleRagged) { check_tma_store<0>(); }
TEST(TmaStore, Swizzle32BRagged) { check_tma_store<1>(); }
TEST(TmaStore, Swizzle64BRagged) { check_tma_store<2>(); }
TEST(TmaStore, Swizzle128BRagged) { check_tma_store<3>(); }

TEST(TmaLoad, MulticastTwoCtaCluster) {
  CUTE_DSL_REQUIRE_GPU(90);
  const std::uint32_t seed = cute_dsl_test::test_seed();
  Matrix m = random_matrix(16, 32, seed);
  cute_dsl_test::DeviceBuffer<float> da(m.host.size()), dout(2 * 16 * 32);
  ASSERT_TRUE(da.ok() && dout.ok());
  CUTE_DSL_TEST_CUDA(da.upload(m.host));
  CUTE_DSL_TEST_CUDA(dout.poison());
  CUtensorMap map{};
  try {
    map = descriptor_for(da.get(), m, composition(Swizzle<3, 2, 3>{}, make_layout(make_shape(_32{}, _8{}))));  // half a tile
  } catch (const std::exception& e) {
    FAIL() << e.what();
  }
  CUTE_DSL_TEST_CUDA(tma_test::launch_cluster_pair(tma_multicast_kernel, map, dout.get()));
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<float> out;
  CUTE_DSL_TEST_CUDA(dout.download(out));
  for (int cta = 0; cta < 2; ++cta)
    for (int e = 0; e < 16 * 32; ++e) {
      const int r = e / 32, c = e % 32;
      const float got = out[std::size_t(cta) * 512 + swizzled_byte<3>(long(e) * 4) / 4];
      ASSERT_TRUE(same_bits(got, m.host[std::size_t(r) * m.pitch + c])) << "CTA " << cta << " (" << r << "," << c << ") seed " << seed;
    }
}
