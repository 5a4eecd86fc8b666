// TiledMMA on the host: tile sizes, thread coordinates, and partition_C of a 2x2 tiling of
// mma.m16n8k16 against a table computed by hand from the PTX figure; A/B partitions and a
// permutation checked element by element against the atom's layouts; the scalar-FMA GEMM end to end.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "cute_dsl/atom/tiled_mma.hpp"
#include "tiled_gemm_thread.hpp"

using namespace cute_dsl;

namespace {
auto mma2x2() {
  return make_tiled_mma(MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>{}, make_layout(make_shape(Int<2>{}, Int<2>{}, Int<1>{})));
}
}  // namespace

TEST(TiledMma, SizesAndSlices) {
  auto mma = mma2x2();
  static_assert(decltype(size(mma))::value == 128);
  static_assert(decltype(mma)::tile_size<0>() == 32 && decltype(mma)::tile_size<1>() == 16 &&
                decltype(mma)::tile_size<2>() == 16);
  auto s = mma.get_slice(101);  // warp 3 = atom (1, 1) of the column-major 2x2 atom layout; lane 5
  EXPECT_EQ(s.thr_v, 5);
  EXPECT_EQ(s.thr_m, 1);
  EXPECT_EQ(s.thr_n, 1);
  EXPECT_EQ(s.thr_k, 0);
}

// C is 32 x 16 column-major (offset = row + 32 col). Warp w runs atom (w % 2, w / 2); lane l has
// groupID g = l/4 and q = l%4, values c0..c3 at (g, 2q), (g, 2q+1), (g+8, 2q), (g+8, 2q+1).
TEST(TiledMma, PartitionC2x2Table) {
  auto mma = mma2x2();
  std::vector<float> c(32 * 16);
  auto tC = make_tensor(c.data(), make_layout(make_shape(Int<32>{}, Int<16>{})));
  struct Row { int thread; int offsets[4]; };
  const Row table[] = {
      {0, {0, 32, 8, 40}},          // (0,0) (0,1) (8,0) (8,1)
      {1, {64, 96, 72, 104}},       // q = 1: columns 2, 3
      {4, {1, 33, 9, 41}},          // g = 1: rows 1, 9
      {37, {81, 113, 89, 121}},     // warp 1 = atom (1,0): rows 17, 25; lane 5: columns 2, 3
      {64, {256, 288, 264, 296}},   // warp 2 = atom (0,1): columns 8, 9
      {127, {471, 503, 479, 511}},  // warp 3 = atom (1,1), lane 31: rows 23, 31; columns 14, 15
  };
  for (auto const& row : table) {
    auto part = mma.get_slice(row.thread).partition_C(tC);
    static_assert(decltype(size(part))::value == 4);
    for (int v = 0; v < 4; ++v) EXPECT_EQ(&part(v) - c.data(), row.offsets[v]) << "thread " << row.thread << " value " << v;
  }
}

// A bigger C: every element owned by exactly one (thread, value, rest) and the rest modes step
// by whole tiles (32 rows, 16 columns).
TEST(TiledMma, PartitionCCoversTileOnce) {
  auto mma = mma2x2();
  std::vector<float> c(64 * 32);
  auto tC = make_tensor(c.data(), make_layout(make_shape(Int<64>{}, Int<32>{})));
  std::set<long> seen;
  for (int t = 0; t < 128; ++t) {
    auto part = mma.get_slice(t).partition_C(tC);
    ASSERT_EQ(int(size<1>(part)), 2);
    ASSERT_EQ(int(size<2>(part)), 2);
    for (int v = 0; v < 4; ++v)
      for (int m = 0; m < 2; ++m)
        for (int n = 0; n < 2; ++n) {
          long off = &part(v, m, n) - c.data();
          EXPECT_EQ(off, (&part(v, 0, 0) - c.data()) + 32 * m + 64 * 16 * n);
          EXPECT_TRUE(seen.insert(off).second);
        }
  }
  EXPECT_EQ(seen.size(), 64u * 32u);
}

// A (M x K) and B (N x K) of the 2x2 tiling: thread t's value v sits where the atom's layout
// says, shifted by its atom's M (N) position; the two atoms along N (M) share A (B).
TEST(TiledMma, PartitionAB) {
  auto mma = mma2x2();
  using Tr = MMA_Traits<SM80_16x8x16_F32F16F16F32_TN>;
  std::vector<float> a(32 * 16), b(16 * 16);
  auto tA = make_tensor(a.data(), make_layout(make_shape(Int<32>{}, Int<16>{})));
  auto tB = make_tensor(b.data(), make_layout(make_shape(Int<16>{}, Int<16>{})));
  for (int t = 0; t < 128; ++t) {
    int warp = t / 32, lane = t % 32, am = warp % 2, an = warp / 2;
    auto pa = mma.get_slice(t).partition_A(tA);
    auto pb = mma.get_slice(t).partition_B(tB);
    for (int v = 0; v < 8; ++v) {
      int atom = int(Tr::ALayout{}(make_coord(lane, v)));  // m + 16 k
      EXPECT_EQ(&pa(v) - a.data(), (atom % 16 + 16 * am) + 32 * (atom / 16));
    }
    for (int v = 0; v < 4; ++v) {
      int atom = int(Tr::BLayout{}(make_coord(lane, v)));  // n + 8 k
      EXPECT_EQ(&pb(v) - b.data(), (atom % 8 + 8 * an) + 16 * (atom / 8));
    }
  }
}

// A permutation of N: (8,2):(2,1) interleaves the two atoms' columns, so atom 0 owns the even
// columns and atom 1 the odd ones.
TEST(TiledMma, PermutationN) {
  auto mma = make_tiled_mma(MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>{}, make_layout(make_shape(Int<1>{}, Int<2>{}, Int<1>{})),
                            make_tile(Underscore{}, make_layout(make_shape(Int<8>{}, Int<2>{}), make_stride(Int<2>{}, Int<1>{})),
                                      Underscore{}));
  static_assert(decltype(mma)::tile_size<1>() == 16);
  std::vector<float> c(16 * 16);
  auto tC = make_tensor(c.data(), make_layout(make_shape(Int<16>{}, Int<16>{})));
  for (int t : {0, 5, 32, 63}) {
    auto part = mma.get_slice(t).partition_C(tC);
    for (int v = 0; v < 4; ++v) {
      long off = &part(v) - c.data();
      int col = int(off / 16);
      EXPECT_EQ(col % 2, t / 32) << "thread " << t;
    }
  }
}

// Fragments: shapes follow the partitions, element types the atom's.
TEST(TiledMma, Fragments) {
  auto mma = mma2x2();
  std::vector<float> c(64 * 32);
  auto tC = make_tensor(c.data(), make_layout(make_shape(Int<64>{}, Int<32>{})));
  auto frag = mma.get_slice(0).partition_fragment_C(tC);
  static_assert(is_same_v<typename decltype(frag)::value_type, float>);
  static_assert(decltype(size(frag))::value == 16);
  EXPECT_EQ(&frag(1, 0, 0) - &frag(0, 0, 0), 1);  // the V mode is contiguous (one atom's registers)
}

// The GPU test Fma.UniversalFmaTiled16x16 run on the host, thread by thread: partition, copy to
// registers, gemm over the K blocks, copy back, against a double reference. (Its GPU failure was
// device-only, nvcc's device pass dropping run-time slice offsets; mma_sync_gpu_test.cu now
// checks that at compile time in device code.)
TEST(TiledMma, UniversalFmaGemmOnHost) {
  constexpr int M = 16, N = 16, K = 8;
  auto mma = make_tiled_mma(MMA_Atom<UniversalFMA<float>>{}, make_layout(make_shape(Int<16>{}, Int<16>{}, Int<1>{})));
  std::vector<float> a(M * K), b(N * K), c(M * N), d(M * N, -1.f);
  for (int i = 0; i < M * K; ++i) a[i] = float((i * 7) % 13) - 6.f;
  for (int i = 0; i < N * K; ++i) b[i] = float((i * 5) % 11) - 5.f;
  for (int i = 0; i < M * N; ++i) c[i] = float(i % 9);
  auto gA = make_tensor(a.data(), make_layout(make_shape(Int<M>{}, Int<K>{}), make_stride(Int<K>{}, Int<1>{})));
  auto gB = make_tensor(b.data(), make_layout(make_shape(Int<N>{}, Int<K>{}), make_stride(Int<K>{}, Int<1>{})));
  auto gC = make_tensor(c.data(), make_layout(make_shape(Int<M>{}, Int<N>{}), make_stride(Int<N>{}, Int<1>{})));
  auto gD = make_tensor(d.data(), make_layout(make_shape(Int<M>{}, Int<N>{}), make_stride(Int<N>{}, Int<1>{})));
  for (int t = 0; t < int(size(mma)); ++t) mma_test::tiled_gemm_thread(mma, t, gA, gB, gC, gD);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double ref = c[m * N + n];
      for (int k = 0; k < K; ++k) ref += double(a[m * K + k]) * double(b[n * K + k]);
      EXPECT_EQ(double(d[m * N + n]), ref) << "D(" << m << ", " << n << ")";  // small integers: exact
    }
}
