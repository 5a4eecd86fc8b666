// local_tile / local_partition on tensors against hand tables, static and run-time shapes.
#include "tensor_layer.hpp"

#include <gtest/gtest.h>

using namespace cute_dsl;

namespace {

TEST(Tiling, LocalTileOfARuntimeMatrixIsStaticAndOffset) {
  // 100 x 90 column-major, tile 32 x 16, tile (2, 3): rows 64.., columns 48..
  static float a[100 * 90];
  const int M = 100, N = 90;
  auto t = make_tensor(make_gmem_ptr(a), make_shape(M, N));
  auto tile = local_tile(t, make_tile(Int<32>{}, Int<16>{}), make_coord(2, 3));
  static_assert(is_same_v<decltype(shape(tile)), tuple<Int<32>, Int<16>>>, "a static tiler gives a static tile shape");
  EXPECT_EQ(tile.data().get(), a + 64 + 48 * M);
  EXPECT_EQ(int(stride<1>(tile)), M);
  for (int j = 0; j < 16; ++j)
    for (int i = 0; i < 32; ++i) ASSERT_EQ(&tile(i, j), &t(64 + i, 48 + j));
}

TEST(Tiling, LocalTileWithAnUnderscoreKeepsTheTileIndex) {
  // A (M,K) operand: row of tiles m, every k tile: (BM, BK, k_tiles), as a GEMM mainloop walks it.
  static float a[64 * 40];
  auto A = make_tensor(a, make_shape(64, 40));
  auto gA = local_tile(A, make_tile(Int<16>{}, Int<8>{}), make_coord(2, _));
  static_assert(decltype(rank(gA))::value == 3);
  EXPECT_EQ(int(size<2>(gA)), 5);
  for (int k = 0; k < 5; ++k)
    for (int j = 0; j < 8; ++j)
      for (int i = 0; i < 16; ++i) ASSERT_EQ(&gA(i, j, k), &A(32 + i, 8 * k + j));
}

TEST(Tiling, LocalTileWithAProjection) {
  // (M,N,K) tiler (16, 32, 8) projected to A's (M,K) modes by Step<_1, X, _1>.
  static float a[64 * 40];
  auto A = make_tensor(a, make_shape(64, 40));
  auto cta_tiler = make_shape(Int<16>{}, Int<32>{}, Int<8>{});
  auto gA = local_tile(A, cta_tiler, make_coord(1, 7, _), Step<_1, X, _1>{});
  static_assert(is_same_v<decltype(take<0, 2>(shape(gA))), tuple<Int<16>, Int<8>>>);
  EXPECT_EQ(int(size<2>(gA)), 5);
  EXPECT_EQ(&gA(3, 4, 2), &A(16 + 3, 16 + 4));
}

// Thread layout (4,2) column-major over an 8 x 4 tile: thread t sits at (t % 4, t / 4) and owns
// rows {r, r+4}, columns {c, c+2}. The table: for each thread, its elements' (row, col) in
// partition order (0,0), (1,0), (0,1), (1,1).
TEST(Tiling, LocalPartitionAgainstAHandTable) {
  int a[32];
  for (int i = 0; i < 32; ++i) a[i] = i;  // value = row + 8 * col
  auto t = make_tensor(a, make_shape(Int<8>{}, Int<4>{}));
  auto thr = make_layout(make_shape(Int<4>{}, Int<2>{}));
  const int table[8][4] = {
      {0, 4, 16, 20}, {1, 5, 17, 21}, {2, 6, 18, 22}, {3, 7, 19, 23},
      {8, 12, 24, 28}, {9, 13, 25, 29}, {10, 14, 26, 30}, {11, 15, 27, 31}};
  for (int tid = 0; tid < 8; ++tid) {
    auto p = local_partition(t, thr, tid);
    static_assert(is_same_v<decltype(shape(p)), tuple<Int<2>, Int<2>>>);
    for (int v = 0; v < 4; ++v) EXPECT_EQ(p(v), table[tid][v]) << "thread " << tid << " value " << v;
  }
}

TEST(Tiling, LocalPartitionWithARowMajorThreadLayout) {
  // (2,4):(4,1): thread t is at (t / 4, t % 4); with an 4 x 8 tensor each thread gets 2 x 2.
  int a[32];
  for (int i = 0; i < 32; ++i) a[i] = i;
  auto t = make_tensor(a, make_shape(Int<4>{}, Int<8>{}));
  auto thr = make_layout(make_shape(Int<2>{}, Int<4>{}), LayoutRight{});
  for (int tid = 0; tid < 8; ++tid) {
    auto p = local_partition(t, thr, tid);
    const int r = tid / 4, c = tid % 4;
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i) EXPECT_EQ(p(i, j), t(r + 2 * i, c + 4 * j));
  }
}

TEST(Tiling, LocalPartitionWithAProjection) {
  // An (M,N) = (8,4) thread grid; the A operand (M,K) is shared along N: Step<_1, X>.
  int a[16 * 4];
  for (int i = 0; i < 64; ++i) a[i] = i;
  auto A = make_tensor(a, make_shape(Int<16>{}, Int<4>{}));
  auto thr = make_layout(make_shape(Int<8>{}, Int<4>{}));
  for (int tid = 0; tid < 32; ++tid) {
    auto p = local_partition(A, thr, tid, Step<_1, X>{});
    static_assert(is_same_v<decltype(shape(p)), tuple<Int<2>, Int<4>>>);
    for (int k = 0; k < 4; ++k)
      for (int i = 0; i < 2; ++i) EXPECT_EQ(p(i, k), A(tid % 8 + 8 * i, k));
  }
}

TEST(Tiling, OuterPartition) {
  int a[32];
  for (int i = 0; i < 32; ++i) a[i] = i;
  auto t = make_tensor(a, make_shape(Int<8>{}, Int<4>{}));
  auto p = outer_partition(t, make_tile(Int<4>{}, Int<2>{}), make_coord(3, 1));
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 2; ++i) EXPECT_EQ(p(i, j), t(3 + 4 * i, 1 + 2 * j));
}

// Predication of a ragged tile: identity tensor, tiled and partitioned like the data, and copy_if.
TEST(Tiling, CopyIfOnARaggedTileTouchesOnlyTheInside) {
  const int M = 10, N = 7;
  int src[M * N], dst[M * N];
  for (int i = 0; i < M * N; ++i) { src[i] = i; dst[i] = -1; }
  auto S = make_tensor(src, make_shape(M, N));
  auto D = make_tensor(dst, make_shape(M, N));
  auto I = make_identity_tensor(make_shape(M, N));
  auto tiler = make_tile(Int<4>{}, Int<4>{});
  auto thr = make_layout(make_shape(Int<2>{}, Int<2>{}));
  for (int bm = 0; bm < 3; ++bm)
    for (int bn = 0; bn < 2; ++bn)
      for (int tid = 0; tid < 4; ++tid) {
        auto blk = make_coord(bm, bn);
        auto tS = local_partition(local_tile(S, tiler, blk), thr, tid);
        auto tD = local_partition(local_tile(D, tiler, blk), thr, tid);
        auto tI = local_partition(local_tile(I, tiler, blk), thr, tid);
        auto pred = make_fragment_like<bool>(tS.layout());
        for (int i = 0; i < int(size(pred)); ++i) pred(i) = elem_less(tI(i), shape(S));
        // Reading outside would be out of bounds too: copy through a register fragment, both ways predicated.
        auto r = make_fragment_like(tS);
        copy_if(pred, tS, r);
        copy_if(pred, r, tD);
      }
  for (int i = 0; i < M * N; ++i) EXPECT_EQ(dst[i], i);
}

}  // namespace
