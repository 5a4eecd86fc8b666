// UniversalCopy of every width and cp.async (ca 4/8/16 B, cg 16 B, zero-fill on a ragged tile),
// directly and through TiledCopy, on random data with poisoned outputs; every element checked.
// SASS check (done when writing, see docs/03_atoms.md): LDG.E.128/STG.E.128 for 16-byte
// UniversalCopy, LDGSTS.E[.BYPASS].{32,64,128} for cp.async, LDGDEPBAR / DEPBAR for the groups.
#include <cstring>
#include <vector>

#include "cute_dsl/atom/copy_traits_sm80.hpp"
#include "cute_dsl/atom/tiled_copy.hpp"
#include "cute_dsl/layout/swizzle.hpp"
#include "gpu_test.cuh"

using namespace cute_dsl;

namespace {

template <int W>
__global__ void universal_copy_kernel(uint_bytes_t<W> const* src, uint_bytes_t<W>* dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) UniversalCopy<uint_bytes_t<W>>::copy(src[i], dst[i]);
}

std::vector<unsigned char> random_bytes(std::size_t n, std::uint32_t seed) {
  auto v = cute_dsl_test::random_vector<double>(n, seed, 0.0, 256.0);
  std::vector<unsigned char> b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<unsigned char>(v[i]);
  return b;
}

template <int W>
void check_universal_width() {
  const int n = 1000;
  const std::uint32_t seed = cute_dsl_test::test_seed();
  auto host = random_bytes(std::size_t(n) * W, seed);
  cute_dsl_test::DeviceBuffer<unsigned char> src(host.size()), dst(host.size());
  ASSERT_TRUE(src.ok() && dst.ok());
  CUTE_DSL_TEST_CUDA(src.upload(host));
  CUTE_DSL_TEST_CUDA(dst.poison());
  universal_copy_kernel<W><<<(n + 127) / 128, 128>>>(reinterpret_cast<uint_bytes_t<W> const*>(src.get()),
                                                     reinterpret_cast<uint_bytes_t<W>*>(dst.get()), n);
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<unsigned char> out;
  CUTE_DSL_TEST_CUDA(dst.download(out));
  for (std::size_t i = 0; i < host.size(); ++i) ASSERT_EQ(out[i], host[i]) << "width " << W << " byte " << i << " seed " << seed;
}

// ---- cp.async on a ragged tile ------------------------------------------------------------------
// A 32x64 float tile (row-major) of an M x N row-major matrix (N a multiple of 4, pitch N), copied
// in chunks of 4, 8 or 16 bytes: a chunk is copied if it lies wholly in the matrix and zero-filled
// otherwise; the tile is then written out whole, zeros included.
constexpr int kTileRows = 32, kTileCols = 64;

template <int Variant>  // 0: ca 16 B, 1: cg 16 B, 2: ca 8 B, 3: ca 4 B
__global__ void cp_async_tile_kernel(float const* a, int M, int N, float* out) {
  __shared__ alignas(16) float tile[kTileRows * kTileCols];
  constexpr int vec = Variant == 2 ? 2 : Variant == 3 ? 1 : 4;
  const int row0 = blockIdx.y * kTileRows, col0 = blockIdx.x * kTileCols;
  for (int k = threadIdx.x; k < kTileRows * kTileCols / vec; k += blockDim.x) {
    const int r = k / (kTileCols / vec), c = (k % (kTileCols / vec)) * vec;
    const bool valid = row0 + r < M && col0 + c + vec <= N;
    const float* g = valid ? a + std::size_t(row0 + r) * N + col0 + c : a;  // never read when !valid
    float* s = tile + r * kTileCols + c;
    using U = uint_bytes_t<4 * vec>;
    if constexpr (Variant == 1) SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<U>::copy(*reinterpret_cast<U const*>(g), *reinterpret_cast<U*>(s), valid);
    else SM80_CP_ASYNC_CACHEALWAYS_ZFILL<U>::copy(*reinterpret_cast<U const*>(g), *reinterpret_cast<U*>(s), valid);
  }
  cp_async_fence();
  cp_async_wait<0>();
  __syncthreads();
  float* o = out + (std::size_t(blockIdx.y) * gridDim.x + blockIdx.x) * kTileRows * kTileCols;
  for (int k = threadIdx.x; k < kTileRows * kTileCols; k += blockDim.x) o[k] = tile[k];
}

template <int Variant>
void check_cp_async_ragged() {
  CUTE_DSL_REQUIRE_GPU(80);
  const int M = 45, N = 100;  // ragged in both directions: tiles of 32 x 64
  const int tiles_m = (M + kTileRows - 1) / kTileRows, tiles_n = (N + kTileCols - 1) / kTileCols;
  const std::uint32_t seed = cute_dsl_test::test_seed();
  auto a = cute_dsl_test::random_vector<float>(std::size_t(M) * N, seed);
  cute_dsl_test::DeviceBuffer<float> da(a.size()), dout(std::size_t(tiles_m) * tiles_n * kTileRows * kTileCols);
  ASSERT_TRUE(da.ok() && dout.ok());
  CUTE_DSL_TEST_CUDA(da.upload(a));
  CUTE_DSL_TEST_CUDA(dout.poison());
  cp_async_tile_kernel<Variant><<<dim3(tiles_n, tiles_m), 128>>>(da.get(), M, N, dout.get());
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<float> out;
  CUTE_DSL_TEST_CUDA(dout.download(out));
  for (int tm = 0; tm < tiles_m; ++tm)
    for (int tn = 0; tn < tiles_n; ++tn)
      for (int r = 0; r < kTileRows; ++r)
        for (int c = 0; c < kTileCols; ++c) {
          const int gr = tm * kTileRows + r, gc = tn * kTileCols + c;
          const float expected = (gr < M && gc < N) ? a[std::size_t(gr) * N + gc] : 0.f;
          const float got = out[((std::size_t(tm) * tiles_n + tn) * kTileRows + r) * kTileCols + c];
          ASSERT_EQ(std::memcmp(&got, &expected, 4), 0)
              << "variant " << Variant << " element (" << gr << "," << gc << "): " << got << " vs " << expected << " seed " << seed;
        }
}

// ---- TiledCopy: global -> swizzled shared (cp.async) -> global (UniversalCopy 16 B) ---------------
// 128 threads as 16x8 (column-major), 4 floats each along M: a 64x8 tile; the matrix is 128x32
// column-major with a run-time leading dimension.
__global__ void tiled_copy_round_trip_kernel(float const* a, float* b, int ld) {
  __shared__ alignas(128) float smem[128 * 32];
  auto g_in = make_tensor(make_gmem_ptr(a), make_layout(make_shape(_128{}, _32{}), make_stride(_1{}, ld)));
  auto g_out = make_tensor(make_gmem_ptr(b), make_layout(make_shape(_128{}, _32{}), make_stride(_1{}, ld)));
  auto s = make_tensor(make_smem_ptr(smem), composition(Swizzle<3, 2, 3>{}, make_layout(make_shape(_128{}, _32{}))));
  auto load = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, float>{}, make_layout(make_shape(_16{}, _8{})),
                              make_layout(make_shape(_4{}, _1{})));
  auto store = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{}, make_layout(make_shape(_16{}, _8{})),
                               make_layout(make_shape(_4{}, _1{})));
  auto tl = load.get_slice(threadIdx.x);
  copy(load, tl.partition_S(g_in), tl.partition_D(s));
  cp_async_fence();
  cp_async_wait<0>();
  __syncthreads();
  auto ts = store.get_slice(threadIdx.x);
  copy(store, ts.partition_S(s), ts.partition_D(g_out));
}

}  // namespace

TEST(UniversalCopy, Width1) { CUTE_DSL_REQUIRE_GPU(70); check_universal_width<1>(); }
TEST(UniversalCopy, Width2) { CUTE_DSL_REQUIRE_GPU(70); check_universal_width<2>(); }
TEST(UniversalCopy, Width4) { CUTE_DSL_REQUIRE_GPU(70); check_universal_width<4>(); }
TEST(UniversalCopy, Width8) { CUTE_DSL_REQUIRE_GPU(70); check_universal_width<8>(); }
TEST(UniversalCopy, Width16) { CUTE_DSL_REQUIRE_GPU(70); check_universal_width<16>(); }

TEST(CpAsync, CacheAlways16ZeroFillRaggedTile) { check_cp_async_ragged<0>(); }
TEST(CpAsync, CacheGlobal16ZeroFillRaggedTile) { check_cp_async_ragged<1>(); }
TEST(CpAsync, CacheAlways8ZeroFillRaggedTile) { check_cp_async_ragged<2>(); }
TEST(CpAsync, CacheAlways4ZeroFillRaggedTile) { check_cp_async_ragged<3>(); }

TEST(TiledCopy, CpAsyncIntoSwizzledSmemAndBack) {
  CUTE_DSL_REQUIRE_GPU(80);
  const int ld = 132;  // floats: 528 bytes, 16-byte aligned columns
  const std::uint32_t seed = cute_dsl_test::test_seed();
  auto a = cute_dsl_test::random_vector<float>(std::size_t(ld) * 32, seed);
  cute_dsl_test::DeviceBuffer<float> da(a.size()), db(a.size());
  ASSERT_TRUE(da.ok() && db.ok());
  CUTE_DSL_TEST_CUDA(da.upload(a));
  CUTE_DSL_TEST_CUDA(db.poison());
  tiled_copy_round_trip_kernel<<<1, 128>>>(da.get(), db.get(), ld);
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<float> b;
  CUTE_DSL_TEST_CUDA(db.download(b));
  for (int j = 0; j < 32; ++j)
    for (int i = 0; i < ld; ++i) {
      const std::size_t k = std::size_t(j) * ld + i;
      if (i < 128) ASSERT_EQ(b[k], a[k]) << "(" << i << "," << j << ") seed " << seed;
      else ASSERT_TRUE(b[k] != b[k]) << "padding (" << i << "," << j << ") was written";  // still the NaN poison
    }
}
