// The local_tile case, with run-time M and N: the tile stays static, the tile grid is run-time,
// and every element lands where the plain column-major layout puts it.
#include "test_support.hpp"

namespace {

using namespace static_algebra_test;
using namespace cute_dsl;

template <class T> constexpr bool is_static_value = is_C_v<remove_cvref_t<T>>;

TEST(LocalTile, LogicalDivideKeepsTheStaticTile) {
  for (int m : {1, 100, 128, 1000}) {
    for (int n : {1, 64, 65, 500}) {
      const auto mn = make_layout(make_shape(m, n), make_stride(_1{}, m));
      const auto d = logical_divide(mn, make_tile(_128{}, _64{}));
      // ((_128, ceil(M/128)), (_64, ceil(N/64))) : ((_1, _128), (M, _64*M))
      static_assert(is_static_value<decltype(get<0, 0>(d.shape()))> && is_static_value<decltype(get<0, 0>(d.stride()))>);
      static_assert(is_static_value<decltype(get<0, 1>(d.stride()))> && is_static_value<decltype(get<1, 0>(d.shape()))>);
      static_assert(decltype(get<0, 0>(d.shape()))::value == 128 && decltype(get<1, 0>(d.shape()))::value == 64);
      EXPECT_EQ(int(get<0, 1>(d.shape())), (m + 127) / 128);
      EXPECT_EQ(int(get<1, 1>(d.shape())), (n + 63) / 64);
      EXPECT_EQ(int(get<1, 0>(d.stride())), m);
      EXPECT_EQ(int(get<1, 1>(d.stride())), 64 * m);
      // the same function as the tree's answer (which is CuTe's static one)
      const auto t = tree::logical_divide(to_tree(mn), detail::value_tiler(make_tile(_128{}, _64{})));
      ASSERT_TRUE(t.ok());
      EXPECT_TRUE(same_function(to_tree(d), t.value)) << text(to_tree(d)) << " vs " << text(t.value);
    }
  }
}

TEST(LocalTile, EveryTileElementIsTheRightOffset) {
  const int m = 300, n = 130;
  const auto mn = make_layout(make_shape(m, n));
  for (int tm = 0; tm < (m + 127) / 128; ++tm) {
    for (int tn = 0; tn < (n + 63) / 64; ++tn) {
      const auto [tile, offset] = local_tile(mn, make_tile(_128{}, _64{}), make_coord(tm, tn));
      static_assert(is_static_value<decltype(size(tile))>, "the tile's size is static");
      static_assert(decltype(size(tile))::value == 128 * 64);
      for (int i = 0; i < 128; i += 7)
        for (int j = 0; j < 64; j += 5)
          EXPECT_EQ(int(offset) + int(tile(make_coord(i, j))), (tm * 128 + i) + (tn * 64 + j) * m);
    }
  }
}

TEST(LocalTile, ZippedAndTiledDivideRegroup) {
  const auto mn = make_layout(make_shape(256, 96), make_stride(_1{}, 256));
  const auto z = zipped_divide(mn, make_tile(_128{}, _32{}));
  const auto t = tiled_divide(mn, make_tile(_128{}, _32{}));
  static_assert(rank_v<decltype(z.shape())> == 2 && rank_v<decltype(t.shape())> == 3);
  EXPECT_EQ(int(size<1>(z)), 2 * 3);
  // (tile, rest) enumerates the same offsets as the layout itself, tile by tile
  for (int r = 0; r < int(size<1>(z)); ++r)
    for (int i = 0; i < 128 * 32; i += 31)
      EXPECT_EQ(int(z(make_coord(i, r))), int(mn(make_coord(i % 128 + (r % 2) * 128, i / 128 + (r / 2) * 32))));
}

TEST(LocalTile, LocalPartitionGivesEachThreadItsElements) {
  const auto mn = make_layout(make_shape(_8{}, _8{}));
  const auto threads = make_layout(make_shape(_2{}, _4{}));
  std::vector<int> owner(64, -1);
  for (int t = 0; t < 8; ++t) {
    const auto [part, offset] = local_partition(mn, threads, t);
    static_assert(is_static_v<decltype(part)>);
    for (int i = 0; i < int(size(part)); ++i) {
      const int o = int(offset) + int(part(i));
      ASSERT_GE(o, 0);
      ASSERT_LT(o, 64);
      EXPECT_EQ(owner[o], -1) << "offset " << o << " owned twice";
      owner[o] = t;
      EXPECT_EQ(o % 2, t % 2);          // thread (t%2, t/2) owns rows = t%2 mod 2
      EXPECT_EQ((o / 8) % 4, t / 2);    // and columns = t/2 mod 4
    }
  }
  for (int o : owner) EXPECT_GE(o, 0);
}

}  // namespace
