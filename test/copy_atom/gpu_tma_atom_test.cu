// The TMA atoms (atom/tma_atom.hpp) on the GPU: loads and stores of a ragged float matrix through
// the atom with every swizzle mode (none, 32, 64, 128 B), and a multicast load shared by the two
// CTAs of a cluster. Random data, poisoned outputs, every element checked. Shared memory is read
// and written through the atom's shared layout (a Swizzle o Layout tensor), so the test also
// proves that TMA's address swizzle and the layout's Swizzle name the same elements.
#include <cuda.h>

#include <cstring>
#include <vector>

#include "cute_dsl/arch/sm90/cluster.hpp"
#include "cute_dsl/arch/sm90/mbarrier.hpp"
#include "cute_dsl/atom/make_tma_atom.hpp"
#include "cute_dsl/tensor/identity_tensor.hpp"
#include "cute_dsl/tensor/tiling.hpp"
#include "tma_test_matrix.cuh"

using namespace cute_dsl;
using tma_test::Matrix;
using tma_test::random_matrix;
using tma_test::same_bits;
using tma_test::expect_stored;

namespace {

constexpr int kRows = 16;
template <int B> constexpr int tile_cols = B == 0 ? 24 : (16 << B) / 4;  // floats: a swizzle span (none: 96 B)

// One CTA tile in shared memory: (cols, rows), dimension 0 contiguous, maybe swizzled.
template <int B>
auto tile_layout() {
  auto plain = make_layout(make_shape(Int<tile_cols<B>>{}, Int<kRows>{}));
  if constexpr (B == 0) return plain;
  else return composition(Swizzle<B, 2, 3>{}, plain);
}
template <int B> using TileLayout = decltype(tile_layout<B>());

auto global_layout(const Matrix& m) { return make_layout(make_shape(m.cols, m.rows), make_stride(_1{}, m.pitch)); }
// What a TMA load leaves at (row, col) of the matrix: the element, or the zero fill past its edges.
float loaded_value(const Matrix& m, int r, int c) { return (r < m.rows && c < m.cols) ? m.host[std::size_t(r) * m.pitch + c] : 0.f; }

// A 13 x 28 float matrix (ragged against one 16 x 32 tile) on the device, and a poisoned output.
struct SmallRagged {
  std::uint32_t seed = cute_dsl_test::test_seed();
  Matrix m = random_matrix(13, 28, seed);
  cute_dsl_test::DeviceBuffer<float> da, dout;
  explicit SmallRagged(std::size_t out_elements) : da(m.host.size()), dout(out_elements) {}
};
// The load atom over the matrix at `data` (the tile's shared layout, then the multicast size if
// any), or the test fails with the builder's message.
template <class Atom, class... SmemAndMcast>
void build_load_atom(Atom& tma, float* data, const Matrix& m, SmemAndMcast... smem_and_mcast) {
  try {
    tma = make_tma_load_atom(tma::encode_tiled_from_cudart(), data, global_layout(m), smem_and_mcast...);
  } catch (const std::exception& e) {
    FAIL() << e.what();
  }
}
void upload_and_poison(SmallRagged& t) {
  ASSERT_TRUE(t.da.ok() && t.dout.ok());
  CUTE_DSL_TEST_CUDA(t.da.upload(t.m.host));
  CUTE_DSL_TEST_CUDA(t.dout.poison());
}

// EvictFirst: the loads carry an L2 evict_first policy (with_l2_policy): the same bytes must land.
template <class Atom, bool EvictFirst = false>
__global__ void atom_load_kernel(const __grid_constant__ Atom tma, int rows, int cols, float* out) {
  using L = typename Atom::smem_layout;
  constexpr int n = int(Atom::Math::tile_elements), bc = Atom::Math::tile().crd[0];
  __shared__ alignas(1024) float buf[n];
  __shared__ alignas(8) cuda::std::uint64_t bar;
  auto s = make_tensor(make_smem_ptr(buf), L{});
  if (threadIdx.x == 0) {
    arch::mbarrier_init(&bar, 1);
    arch::fence_barrier_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    auto tile = local_tile(make_identity_tensor(make_shape(cols, rows)), make_shape(Int<bc>{}, Int<kRows>{}),
                           make_coord(int(blockIdx.x), int(blockIdx.y)));
    auto thr = tma.get_slice(0);
    arch::mbarrier_arrive_expect_tx(&bar, Atom::transaction_bytes);
    if constexpr (EvictFirst) copy(tma.with(bar).with_l2_policy(l2_evict_first_policy()), thr.partition_S(tile), thr.partition_D(s));
    else copy(tma.with(bar), thr.partition_S(tile), thr.partition_D(s));
  }
  arch::mbarrier_wait(&bar, 0);
  float* o = out + (std::size_t(blockIdx.y) * gridDim.x + blockIdx.x) * n;
  for (int e = threadIdx.x; e < n; e += blockDim.x) o[e] = s(e % bc, e / bc);  // logical (col, row) order
}

template <class Atom>
__global__ void atom_store_kernel(const __grid_constant__ Atom tma, const float* in, int rows, int cols, int pitch) {
  using L = typename Atom::smem_layout;
  constexpr int n = int(Atom::Math::tile_elements), bc = Atom::Math::tile().crd[0];
  __shared__ alignas(1024) float buf[n];
  auto s = make_tensor(make_smem_ptr(buf), L{});
  for (int e = threadIdx.x; e < n; e += blockDim.x) {
    const int c = int(blockIdx.x) * bc + e % bc, r = int(blockIdx.y) * kRows + e / bc;
    s(e % bc, e / bc) = (r < rows && c < cols) ? in[std::size_t(r) * pitch + c] : 12345.f;  // past the edge: clipped
  }
  tma_store_fence();
  __syncthreads();
  if (threadIdx.x == 0) {
    auto tile = local_tile(make_identity_tensor(make_shape(cols, rows)), make_shape(Int<bc>{}, Int<kRows>{}),
                           make_coord(int(blockIdx.x), int(blockIdx.y)));
    auto thr = tma.get_slice();
    copy(tma, thr.partition_S(s), thr.partition_D(tile));
    tma_store_arrive();
    tma_store_wait<0>();
  }
}

// Each CTA of a 2-CTA cluster loads its half of the rows of one tile and multicasts it to both.
template <class Atom, bool EvictFirst = false>
__global__ void atom_multicast_kernel(const __grid_constant__ Atom tma, int rows, int cols, float* out) {
  using L = typename Atom::smem_layout;
  constexpr int n = int(Atom::Math::tile_elements), bc = Atom::Math::tile().crd[0];
  __shared__ alignas(1024) float buf[n];
  __shared__ alignas(8) cuda::std::uint64_t bar;
  auto s = make_tensor(make_smem_ptr(buf), L{});
  const int rank = int(arch::cluster_ctarank());
  if (threadIdx.x == 0) {
    arch::mbarrier_init(&bar, 1);
    arch::fence_barrier_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) arch::mbarrier_arrive_expect_tx(&bar, Atom::transaction_bytes);  // both halves land here
  arch::cluster_sync();  // both barriers armed before either half is sent
  if (threadIdx.x == 0) {
    auto tile = local_tile(make_identity_tensor(make_shape(cols, rows)), make_shape(Int<bc>{}, Int<kRows>{}), make_coord(0, 0));
    auto thr = tma.get_slice(rank);
    const auto call = tma.with(bar, static_cast<unsigned short>(0b11));
    if constexpr (EvictFirst) copy(call.with_l2_policy(l2_evict_first_policy()), thr.partition_S(tile), thr.partition_D(s));
    else copy(call, thr.partition_S(tile), thr.partition_D(s));
  }
  arch::mbarrier_wait(&bar, 0);
  for (int e = threadIdx.x; e < n; e += blockDim.x) out[rank * n + e] = s(e % bc, e / bc);
  arch::cluster_sync();  // no CTA leaves while its partner may still write into it
}

// A tile of two 8-row boxes (32 floats x (8, 2) rows, 128-byte swizzle): CTA i loads only its
// first i boxes (copy(call, box, dst, boxes)); shared memory past them keeps its poison.
using TwoRowBoxes = decltype(composition(Swizzle<3, 2, 3>{}, make_layout(make_shape(_32{}, make_shape(_8{}, _2{})),
                                                                          make_stride(_1{}, make_stride(_32{}, _256{})))));
constexpr float kSmemPoison = 777.f;

// The kernel's `copies` copies of the bc-column tile in t.dout, copy i after copy i - 1: the rows
// below rows_loaded(i) hold the matrix's values (zeros past its edge), the rest the poison.
template <class RowsLoaded>
void expect_tile_copies(SmallRagged& t, int bc, int copies, RowsLoaded rows_loaded, const char* copy_name) {
  std::vector<float> out;
  CUTE_DSL_TEST_CUDA(t.dout.download(out));
  const int n = bc * kRows;
  for (int i = 0; i < copies; ++i)
    for (int e = 0; e < n; ++e) {
      const int r = e / bc, c = e % bc;
      const float expected = r < rows_loaded(i) ? loaded_value(t.m, r, c) : kSmemPoison;
      ASSERT_TRUE(same_bits(out[std::size_t(i) * n + e], expected)) << copy_name << " " << i << " (" << r << "," << c << ") seed " << t.seed;
    }
}

template <class Atom>
__global__ void atom_first_boxes_kernel(const __grid_constant__ Atom tma, int rows, int cols, float* out) {
  using L = typename Atom::smem_layout;
  constexpr int n = int(Atom::Math::tile_elements), bc = Atom::Math::tile().crd[0], br = Atom::Math::tile().crd[1];
  __shared__ alignas(1024) float buf[n];
  __shared__ alignas(8) cuda::std::uint64_t bar;
  auto s = make_tensor(make_smem_ptr(buf), L{});
  const int boxes = int(blockIdx.x);
  for (int e = threadIdx.x; e < n; e += blockDim.x) buf[e] = kSmemPoison;
  tma_store_fence();  // the poison (generic proxy) before TMA's writes (async proxy)
  if (threadIdx.x == 0) {
    arch::mbarrier_init(&bar, 1);
    arch::fence_barrier_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    auto tile = local_tile(make_identity_tensor(make_shape(cols, rows)), make_shape(Int<bc>{}, Int<br>{}), make_coord(0, 0));
    auto thr = tma.get_slice(0);
    arch::mbarrier_arrive_expect_tx(&bar, Atom::transaction_bytes_of(boxes));
    copy(tma.with(bar), thr.partition_S(tile), thr.partition_D(s), boxes);
  }
  arch::mbarrier_wait(&bar, 0);
  for (int e = threadIdx.x; e < n; e += blockDim.x) out[std::size_t(blockIdx.x) * n + e] = s(e % bc, e / bc);
}

template <int B, bool EvictFirst = false>
void check_atom_load() {
  CUTE_DSL_REQUIRE_GPU(90);
  constexpr int bc = tile_cols<B>, n = bc * kRows;
  const std::uint32_t seed = cute_dsl_test::test_seed();
  Matrix m = random_matrix(3 * kRows + 5, 2 * bc + 4, seed);  // ragged in both dimensions
  const int gx = (m.cols + bc - 1) / bc, gy = (m.rows + kRows - 1) / kRows;
  cute_dsl_test::DeviceBuffer<float> da(m.host.size()), dout(std::size_t(gx) * gy * n);
  ASSERT_TRUE(da.ok() && dout.ok());
  CUTE_DSL_TEST_CUDA(da.upload(m.host));
  CUTE_DSL_TEST_CUDA(dout.poison());
  TmaLoadAtom<float, TileLayout<B>, 1> tma{};
  ASSERT_NO_FATAL_FAILURE(build_load_atom(tma, da.get(), m, tile_layout<B>()));
  atom_load_kernel<decltype(tma), EvictFirst><<<dim3(gx, gy), 128>>>(tma, m.rows, m.cols, dout.get());
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<float> out;
  CUTE_DSL_TEST_CUDA(dout.download(out));
  for (int by = 0; by < gy; ++by)
    for (int bx = 0; bx < gx; ++bx)
      for (int e = 0; e < n; ++e) {
        const int r = by * kRows + e / bc, c = bx * bc + e % bc;
        const float expected = loaded_value(m, r, c);
        const float got = out[(std::size_t(by) * gx + bx) * n + e];
        ASSERT_TRUE(same_bits(got, expected)) << "swizzle " << B << " (" << r << "," << c << "): " << got << " vs " << expected
                                              << " seed " << seed;
      }
}

template <int B>
void check_atom_store() {
  CUTE_DSL_REQUIRE_GPU(90);
  constexpr int bc = tile_cols<B>;
  const std::uint32_t seed = cute_dsl_test::test_seed();
  Matrix m = random_matrix(3 * kRows + 5, 2 * bc + 4, seed);
  const int gx = (m.cols + bc - 1) / bc, gy = (m.rows + kRows - 1) / kRows;
  cute_dsl_test::DeviceBuffer<float> din(m.host.size()), dout(m.host.size());
  ASSERT_TRUE(din.ok() && dout.ok());
  CUTE_DSL_TEST_CUDA(din.upload(m.host));
  CUTE_DSL_TEST_CUDA(dout.poison());
  TmaStoreAtom<float, TileLayout<B>> tma{};
  try {
    tma = make_tma_store_atom(tma::encode_tiled_from_cudart(), dout.get(), global_layout(m), tile_layout<B>());
  } catch (const std::exception& e) {
    FAIL() << e.what();
  }
  atom_store_kernel<<<dim3(gx, gy), 128>>>(tma, din.get(), m.rows, m.cols, m.pitch);
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<float> out;
  CUTE_DSL_TEST_CUDA(dout.download(out));
  expect_stored(out, m, B, seed);
}

}  // namespace

TEST(TmaAtom, LoadNoSwizzleRagged) { check_atom_load<0>(); }
TEST(TmaAtom, LoadSwizzle32BRagged) { check_atom_load<1>(); }
TEST(TmaAtom, LoadSwizzle64BRagged) { check_atom_load<2>(); }
TEST(TmaAtom, LoadSwizzle128BRagged) { check_atom_load<3>(); }
TEST(TmaAtom, LoadWithL2EvictFirstPolicySwizzle128BRagged) { check_atom_load<3, true>(); }
TEST(TmaAtom, StoreNoSwizzleRagged) { check_atom_store<0>(); }
TEST(TmaAtom, StoreSwizzle32BRagged) { check_atom_store<1>(); }
TEST(TmaAtom, StoreSwizzle64BRagged) { check_atom_store<2>(); }
TEST(TmaAtom, StoreSwizzle128BRagged) { check_atom_store<3>(); }

// 13 x 28 floats in one 16 x 32 tile of two 8-row boxes: 0, 1 or 2 boxes loaded (the second one
// partly past the edge: zero fill); the rows of the boxes not loaded keep their poison.
TEST(TmaAtom, LoadFirstBoxesOnlyLeavesTheRestUntouched) {
  CUTE_DSL_REQUIRE_GPU(90);
  using Atom = TmaLoadAtom<float, TwoRowBoxes, 1>;
  static_assert(Atom::Math::boxes_per_cta == 2 && Atom::Math::box_extents().crd[1] == 8);
  constexpr int bc = 32, n = 32 * 16;
  SmallRagged t(3 * n);
  ASSERT_NO_FATAL_FAILURE(upload_and_poison(t));
  const Matrix& m = t.m;
  Atom tma{};
  ASSERT_NO_FATAL_FAILURE(build_load_atom(tma, t.da.get(), m, TwoRowBoxes{}));
  atom_first_boxes_kernel<<<3, 128>>>(tma, m.rows, m.cols, t.dout.get());
  CUTE_DSL_TEST_LAUNCHED();
  ASSERT_NO_FATAL_FAILURE(expect_tile_copies(t, bc, 3, [](int boxes) { return 8 * boxes; }, "boxes"));
}

// 13 x 28 floats: the second CTA's half of the 16 x 32 tile is partly past the edge (zero fill).
template <bool EvictFirst>
void check_multicast_pair() {
  CUTE_DSL_REQUIRE_GPU(90);
  constexpr int bc = tile_cols<3>, n = bc * kRows;
  SmallRagged t(2 * n);
  ASSERT_NO_FATAL_FAILURE(upload_and_poison(t));
  const Matrix& m = t.m;
  using Atom = TmaLoadAtom<float, TileLayout<3>, 2>;
  static_assert(Atom::Math::box_extents().crd[1] == kRows / 2);
  Atom tma{};
  ASSERT_NO_FATAL_FAILURE(build_load_atom(tma, t.da.get(), m, tile_layout<3>(), _2{}));
  CUTE_DSL_TEST_CUDA(tma_test::launch_cluster_pair(atom_multicast_kernel<Atom, EvictFirst>, tma, m.rows, m.cols, t.dout.get()));
  CUTE_DSL_TEST_LAUNCHED();
  ASSERT_NO_FATAL_FAILURE(expect_tile_copies(t, bc, 2, [](int) { return kRows; }, "CTA"));
}
TEST(TmaAtom, MulticastTwoCtaClusterSwizzle128BRagged) { check_multicast_pair<false>(); }
TEST(TmaAtom, MulticastWithL2EvictFirstPolicy) { check_multicast_pair<true>(); }
