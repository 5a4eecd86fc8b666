// Tensors: construction, element access, slicing (static layouts stay static), owning register
// tensors, fragments, identity tensors, recast.
#include "tensor_layer.hpp"

#include <gtest/gtest.h>

using namespace cute_dsl;

namespace {

using S48 = tuple<Int<4>, Int<8>>;

// ---- construction and access --------------------------------------------------------------------

constexpr bool views() {
  int a[32] = {};
  for (int i = 0; i < 32; ++i) a[i] = i;
  auto col = make_tensor(make_gmem_ptr(a), make_shape(Int<4>{}, Int<8>{}));                      // (4,8):(1,4)
  auto row = make_tensor(a, make_shape(Int<4>{}, Int<8>{}), make_stride(Int<8>{}, Int<1>{}));  // (4,8):(8,1)
  auto lay = make_tensor(make_smem_ptr(a), make_layout(make_shape(4, 8), LayoutRight{}));       // dynamic
  bool ok = col(1, 2) == 9 && col(make_coord(1, 2)) == 9 && col[9] == 9 && col(Int<9>{}) == 9;
  ok = ok && row(1, 2) == 10 && row[1] == 8;  // 1-D index 1 is coordinate (1,0)
  ok = ok && lay(3, 7) == 31 && lay.size() == 32;
  col(0, 1) = -1;  // writes through
  return ok && a[4] == -1;
}
static_assert(views());
TEST(Tensor, ViewsReadAndWriteThroughTheirLayout) { EXPECT_TRUE(views()); }

static_assert(Tensor<ViewEngine<float*>, Layout<S48>>::rank == 2);
static_assert(is_tensor_v<decltype(make_tensor((float*)nullptr, make_shape(3)))>);
static_assert(!is_tensor_v<Layout<S48>>);

TEST(Tensor, Observers) {
  float a[64];
  auto t = make_tensor(make_gmem_ptr(a), make_shape(Int<4>{}, make_shape(Int<2>{}, 8)));
  static_assert(is_same_v<decltype(size<0>(t)), Int<4>>);
  static_assert(decltype(rank(t))::value == 2 && decltype(depth(t))::value == 2);
  EXPECT_EQ(int(size(t)), 64);
  EXPECT_EQ(int(size<1>(t)), 16);
  EXPECT_EQ(int(cosize(t)), 64);
  EXPECT_EQ(int(get<1>(stride<1>(t))), 8);
  EXPECT_EQ(layout<1>(t), make_layout(make_shape(Int<2>{}, 8), make_stride(Int<4>{}, Int<8>{})));
  EXPECT_EQ(t.data().get(), a);
}

// ---- slicing -----------------------------------------------------------------------------------

TEST(Tensor, SlicingKeepsStaticLayoutsStaticAndMovesThePointer) {
  float a[32];
  auto t = make_tensor(make_gmem_ptr(a), make_shape(Int<4>{}, Int<8>{}));
  auto c3 = t(_, Int<3>{});
  static_assert(is_same_v<decltype(c3.layout()), Layout<tuple<Int<4>>, tuple<Int<1>>>>);
  static_assert(is_static_v<decltype(c3.layout())> && is_gmem_v<decltype(c3.data())>);
  EXPECT_EQ(c3.data().get(), a + 12);
  auto r2 = t(2, _);  // a run-time coordinate: same static layout, run-time pointer offset
  static_assert(is_same_v<decltype(r2.layout()), Layout<tuple<Int<8>>, tuple<Int<4>>>>);
  EXPECT_EQ(r2.data().get(), a + 2);
  for (int j = 0; j < 8; ++j) EXPECT_EQ(&r2(j), &a[2 + 4 * j]);
  // nested: (4,(2,4)) sliced at (_, (1,_)) keeps the nesting of the open modes
  auto n = make_tensor(a, make_shape(Int<4>{}, make_shape(Int<2>{}, Int<4>{})));
  auto s = n(_, make_coord(1, _));
  EXPECT_EQ(s.data(), a + 4);
  EXPECT_EQ(&s(3, make_coord(2)), &a[3 + 4 + 16]);
}

TEST(Tensor, SlicingAComposedLayoutKeepsTheIteratorAndFoldsTheOffset) {
  float a[64];
  auto sw = composition(Swizzle<2, 0, 3>{}, make_layout(make_shape(Int<8>{}, Int<8>{}), LayoutRight{}));
  auto t = make_tensor(make_smem_ptr(a), sw);
  auto r = t(3, _);
  EXPECT_EQ(r.data().get(), a);  // the swizzle must see the full offset
  for (int j = 0; j < 8; ++j) EXPECT_EQ(&r(j), &t(3, j));
}

// ---- owning tensors and fragments ---------------------------------------------------------------

constexpr bool owning() {
  auto r = make_tensor<int>(make_shape(Int<2>{}, Int<3>{}));
  for (int i = 0; i < 6; ++i) r(i) = 10 * i;
  auto copy = r;  // owning: a copy has its own storage
  copy(0) = 7;
  auto col1 = r(_, 1);  // a view of r's registers
  col1(1) = 99;
  return r(0) == 0 && copy(0) == 7 && r(1, 1) == 99 && copy(1, 1) == 30;
}
static_assert(owning());
TEST(Tensor, OwningTensorsHoldTheirElements) { EXPECT_TRUE(owning()); }

static_assert(sizeof(decltype(make_tensor<float>(make_shape(Int<4>{}, Int<8>{})))) == 32 * sizeof(float));
static_assert(is_rmem_v<decltype(make_tensor<float>(Layout<S48>{}).data())>);
// Register fragments are read as 32-bit / 128-bit words (mma operands, vector copies): aligned to them.
static_assert(alignof(ArrayEngine<short, 8>) == 16 && alignof(ArrayEngine<char, 12>) == 4 && alignof(ArrayEngine<char, 3>) == 1);
static_assert(alignof(ArrayEngine<float, 2>) == 8 && alignof(ArrayEngine<double, 3>) == 8 && sizeof(ArrayEngine<char, 12>) == 12);
static_assert(alignof(decltype(make_tensor<float>(make_shape(Int<4>{}, Int<8>{})))) == 16);
// A strided static layout owns cosize elements.
static_assert(sizeof(decltype(make_tensor<char>(make_layout(Int<4>{}, Int<3>{})))) == 10);

TEST(Tensor, FragmentLikeIsCompactWithTheSameShapeAndStrideOrder) {
  float a[256];
  auto t = make_tensor(make_gmem_ptr(a), make_shape(Int<4>{}, Int<8>{}), make_stride(Int<64>{}, Int<2>{}));
  auto f = make_fragment_like(t);
  static_assert(is_same_v<decltype(f.layout()), Layout<S48, tuple<Int<1>, Int<4>>>>);
  static_assert(is_same_v<decltype(f)::value_type, float>);
  auto b = make_fragment_like<bool>(t.layout());
  static_assert(is_same_v<decltype(b)::value_type, bool> && decltype(size(b))::value == 32);
  auto h = make_fragment_like<short>(t);
  static_assert(is_same_v<decltype(h)::value_type, short>);
  // a partition of a row-major tile keeps its row-major order: modes 1.. packed by stride
  auto tv = make_tensor(a, make_layout(make_shape(Int<2>{}, Int<3>{}, Int<4>{}), make_stride(Int<1>{}, Int<64>{}, Int<8>{})));
  static_assert(is_same_v<decltype(make_fragment_like(tv).layout()),
                          Layout<tuple<Int<2>, Int<3>, Int<4>>, tuple<Int<1>, Int<8>, Int<2>>>>);
  // nested modes are ordered leaf by leaf
  static_assert(make_fragment_layout(make_layout(make_shape(Int<2>{}, make_shape(Int<3>{}, Int<4>{})),
                                                 make_stride(Int<100>{}, make_stride(Int<40>{}, Int<1>{})))) ==
                make_layout(make_shape(Int<2>{}, make_shape(Int<3>{}, Int<4>{})), make_stride(Int<1>{}, make_stride(Int<8>{}, Int<2>{}))));
  // run-time strides: column-major
  auto dyn = make_tensor(a, make_shape(Int<2>{}, Int<3>{}), make_stride(Int<1>{}, 7));
  static_assert(is_same_v<decltype(make_fragment_like(dyn).layout()), Layout<tuple<Int<2>, Int<3>>, tuple<Int<1>, Int<2>>>>);
  // a swizzled layout: its shape
  auto sw = composition(Swizzle<1, 0, 2>{}, make_layout(make_shape(Int<4>{}, Int<4>{})));
  static_assert(is_same_v<decltype(make_fragment_like<int>(sw).layout()), Layout<tuple<Int<4>, Int<4>>, tuple<Int<1>, Int<4>>>>);
}

// ---- identity tensors ----------------------------------------------------------------------------

TEST(Tensor, IdentityTensorYieldsItsCoordinates) {
  auto id = make_identity_tensor(make_shape(5, 7));
  for (int j = 0; j < 7; ++j)
    for (int i = 0; i < 5; ++i) EXPECT_EQ(id(i, j), make_coord(i, j));
  EXPECT_EQ(id(13), make_coord(3, 2));  // 1-D index, colexicographic
  auto nested = make_identity_tensor(make_shape(Int<2>{}, make_shape(Int<3>{}, Int<4>{})));
  EXPECT_EQ(nested(1, make_coord(2, 3)), make_coord(1, make_coord(2, 3)));
  auto col = nested(_, make_coord(1, 2));  // sliced like any tensor
  EXPECT_EQ(col(1), make_coord(1, make_coord(1, 2)));
}

TEST(Tensor, IdentityTilesPastTheEdgeGiveExactCoordinates) {
  // 10 x 6 cut into 4 x 4 tiles: tile (2,1) covers rows 8..11, columns 4..7; rows 10, 11 and
  // columns 6, 7 lie outside and must read as such (no wrap-around).
  auto id = make_identity_tensor(make_shape(10, 6));
  auto tile = local_tile(id, make_tile(Int<4>{}, Int<4>{}), make_coord(2, 1));
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(tile(i, j), make_coord(8 + i, 4 + j));
      EXPECT_EQ(bool(elem_less(tile(i, j), make_shape(10, 6))), 8 + i < 10 && 4 + j < 6);
    }
}

// ---- recast ----------------------------------------------------------------------------------------

static_assert(recast_layout<float, double>(make_layout(Int<8>{})) == make_layout(Int<4>{}, Int<1>{}));
static_assert(recast_layout<double, float>(make_layout(Int<4>{})) == make_layout(Int<8>{}, Int<1>{}));
// (4,8):(8,1) of 16-bit elements read as 32-bit: the unit-stride mode halves, the other stride too.
static_assert(recast_layout<short, int>(make_layout(make_shape(Int<4>{}, Int<8>{}), LayoutRight{})) ==
              make_layout(make_shape(Int<4>{}, Int<4>{}), make_stride(Int<4>{}, Int<1>{})));
static_assert(recast_layout<int, short>(make_layout(make_shape(Int<4>{}, Int<4>{}), make_stride(Int<4>{}, Int<1>{}))) ==
              make_layout(make_shape(Int<4>{}, Int<8>{}), make_stride(Int<8>{}, Int<1>{})));
// 3-byte vs 2-byte: through the gcd (down by 3, up by 2)
static_assert(upcast<2>(downcast<3>(make_layout(Int<4>{}))) == make_layout(Int<6>{}, Int<1>{}));
// broadcast modes (stride 0) are kept
static_assert(upcast<4>(make_layout(make_shape(Int<8>{}, Int<3>{}), make_stride(Int<1>{}, Int<0>{}))) ==
              make_layout(make_shape(Int<2>{}, Int<3>{}), make_stride(Int<1>{}, Int<0>{})));

TEST(Tensor, RecastViewsTheSameBytes) {
  alignas(16) float a[16];
  for (int i = 0; i < 16; ++i) a[i] = float(i);
  auto t = make_tensor(make_smem_ptr(a), make_shape(Int<4>{}, Int<4>{}));
  auto d = recast<double>(t);
  static_assert(is_smem_v<decltype(d.data())> && is_same_v<decltype(d.layout()), Layout<tuple<Int<2>, Int<4>>, tuple<Int<1>, Int<2>>>>);
  EXPECT_EQ(static_cast<void*>(&d(1, 2)), static_cast<void*>(&a[10]));
  // run-time strides are divided at run time
  auto dyn = make_tensor(a, make_shape(Int<4>{}, 2), make_stride(Int<1>{}, 8));
  auto dd = recast<double>(dyn);
  EXPECT_EQ(int(stride<1>(dd)), 4);
  EXPECT_EQ(static_cast<void*>(&dd(1, 1)), static_cast<void*>(&a[10]));
  // an owning tensor's registers
  auto r = make_tensor<unsigned short>(make_shape(Int<8>{}));
  auto r32 = recast<unsigned int>(r);
  static_assert(decltype(size(r32))::value == 4 && is_rmem_v<decltype(r32.data())>);
}

}  // namespace
