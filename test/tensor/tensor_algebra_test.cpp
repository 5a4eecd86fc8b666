// The layout algebra on tensors: the same elements through the divided / coalesced / grouped
// layout. Checked element by element against the original tensor.
#include "tensor_layer.hpp"

#include <gtest/gtest.h>

using namespace cute_dsl;

namespace {

struct Matrix8x6 {  // 8 x 6 column-major, element value = its offset
  int a[48];
  Matrix8x6() { for (int i = 0; i < 48; ++i) a[i] = i; }
  auto tensor() { return make_tensor(make_gmem_ptr(a), make_shape(Int<8>{}, Int<6>{})); }
};

TEST(TensorAlgebra, ZippedDivideIndexesTilesThenElements) {
  Matrix8x6 m;
  auto t = m.tensor();
  auto z = zipped_divide(t, make_tile(Int<4>{}, Int<2>{}));  // ((4,2),(2,3))
  static_assert(is_same_v<decltype(shape(z)), tuple<tuple<Int<4>, Int<2>>, tuple<Int<2>, Int<3>>>>);
  for (int tj = 0; tj < 3; ++tj)
    for (int ti = 0; ti < 2; ++ti)
      for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 4; ++i)
          EXPECT_EQ(z(make_coord(i, j), make_coord(ti, tj)), t(4 * ti + i, 2 * tj + j));
}

TEST(TensorAlgebra, LogicalTiledFlatDivideAgreeWithTheLayoutOnes) {
  Matrix8x6 m;
  auto t = m.tensor();
  auto tiler = make_tile(Int<2>{}, Int<3>{});
  EXPECT_EQ(logical_divide(t, tiler).layout(), logical_divide(t.layout(), tiler));
  EXPECT_EQ(tiled_divide(t, tiler).layout(), tiled_divide(t.layout(), tiler));
  EXPECT_EQ(flat_divide(t, tiler).layout(), flat_divide(t.layout(), tiler));
  auto f = flat_divide(t, tiler);  // (2,3,4,2)
  static_assert(decltype(rank(f))::value == 4);
  EXPECT_EQ(f(1, 2, 3, 1), t(2 * 3 + 1, 3 * 1 + 2));
  EXPECT_EQ(f.data(), t.data());
}

TEST(TensorAlgebra, CompositionReordersElements) {
  Matrix8x6 m;
  auto t = m.tensor();
  auto transposed = composition(t, make_layout(make_shape(Int<6>{}, Int<8>{}), make_stride(Int<8>{}, Int<1>{})));
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 8; ++j) EXPECT_EQ(transposed(i, j), t(j, i));
}

TEST(TensorAlgebra, CoalesceKeepsEveryOneDimensionalIndex) {
  int a[64];
  for (int i = 0; i < 64; ++i) a[i] = i;
  auto t = make_tensor(a, make_shape(Int<2>{}, make_shape(Int<4>{}, Int<8>{})), make_stride(Int<1>{}, make_stride(Int<2>{}, Int<8>{})));
  auto c = coalesce(t);
  static_assert(is_same_v<decltype(c.layout()), Layout<Int<64>, Int<1>>>);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(c(i), t(i));
  auto byprofile = coalesce(t, make_tuple(_1{}, _1{}));  // each mode on its own: (2,32):(1,2)
  static_assert(is_same_v<decltype(byprofile.layout()), Layout<tuple<Int<2>, Int<32>>, tuple<Int<1>, Int<2>>>>);
}

TEST(TensorAlgebra, GroupModesAndFlatten) {
  int a[24];
  for (int i = 0; i < 24; ++i) a[i] = i;
  auto t = make_tensor(a, make_shape(Int<2>{}, Int<3>{}, Int<4>{}));
  auto g = group_modes<1, 3>(t);  // (2,(3,4))
  static_assert(is_same_v<decltype(shape(g)), tuple<Int<2>, tuple<Int<3>, Int<4>>>>);
  EXPECT_EQ(g(1, make_coord(2, 3)), t(1, 2, 3));
  EXPECT_EQ(g(1, 5), t(1, 2, 1));  // 5 = 2 + 3*1 inside the grouped mode
  auto f = flatten(g);
  static_assert(is_same_v<decltype(shape(f)), tuple<Int<2>, Int<3>, Int<4>>>);
  static_assert(group_modes<0, 2>(make_layout(make_shape(Int<2>{}, Int<3>{}, Int<4>{}))) ==
                make_layout(make_shape(make_shape(Int<2>{}, Int<3>{}), Int<4>{}), make_stride(make_stride(Int<1>{}, Int<2>{}), Int<6>{})));
}

}  // namespace
