// The TMA atoms' box and partition math (host): per-CTA boxes with and without multicast, where
// each CTA's slice starts in shared memory (a multiple of the swizzle period), the box origins of
// global tiles taken from identity tensors, and the descriptor spec the host builder encodes.
#include "cute_dsl/atom/make_tma_atom.hpp"
#include "cute_dsl/tensor/identity_tensor.hpp"
#include "cute_dsl/tensor/tiling.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace cute_dsl;

namespace {

// bf16-sized elements, K-major 128-byte rows: (64, 128) swizzled, as a wgmma operand tile.
using SmemSw128 = decltype(composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_64{}, _128{}))));
using Math1 = TmaBoxMath<SmemSw128, 1>;
using Math2 = TmaBoxMath<SmemSw128, 2>;
static_assert(Math1::rank == 2 && Math1::tile_elements == 64 * 128 && Math1::box_elements == 64 * 128);
static_assert(Math2::box_extents().crd[0] == 64 && Math2::box_extents().crd[1] == 64);
static_assert(Math2::slice_smem_offset(1) == 64 * 64 && Math2::slice_last_mode_offset(1) == 64);
// 64*64 two-byte elements = 8 KiB: a multiple of the 1 KiB period of the 128-byte swizzle.
static_assert(Math2::box_elements % (1 << (3 + 3 + 3)) == 0);
static_assert(is_same_v<decltype(Math2::box_layout()),
                        decltype(composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_64{}, _64{}))))>);
static_assert(TmaLoadAtom<short, SmemSw128, 2>::transaction_bytes == 64 * 128 * 2);
static_assert(alignof(TmaLoadAtom<short, SmemSw128, 2>) == 64 && sizeof(TmaDescriptor) == 128);

TEST(TmaAtom, PartitionOfAGlobalTileIsItsBoxOrigin) {
  auto coords = make_identity_tensor(make_shape(1000, 3000));  // (K, M) of a K-major operand
  auto tile = local_tile(coords, make_shape(_64{}, _128{}), make_coord(3, 5));
  TmaLoadAtom<short, SmemSw128, 1> one{};
  auto b = one.get_slice(0).partition_S(tile);
  EXPECT_EQ(b.crd[0], 3 * 64);
  EXPECT_EQ(b.crd[1], 5 * 128);
  TmaLoadAtom<short, SmemSw128, 2> two{};
  for (int r = 0; r < 2; ++r) {
    auto br = two.get_slice(r).partition_S(tile);
    EXPECT_EQ(br.crd[0], 3 * 64) << r;
    EXPECT_EQ(br.crd[1], 5 * 128 + 64 * r) << r;  // each CTA loads its half of the rows
  }
}

TEST(TmaAtom, PartitionOfTheSharedTileIsTheSliceOfThisCta) {
  static short smem[64 * 128];
  auto s = make_tensor(make_smem_ptr(smem), SmemSw128{});
  TmaLoadAtom<short, SmemSw128, 2> two{};
  for (int r = 0; r < 2; ++r) {
    auto sb = two.get_slice(r).partition_D(s);
    EXPECT_EQ(&sb(0), smem + 64 * 64 * r);
    // The slice's own (swizzled) layout names the same elements as the tile's lower/upper half.
    for (int row = 0; row < 64; ++row)
      for (int k = 0; k < 64; ++k) ASSERT_EQ(&sb(k, row), &s(k, row + 64 * r)) << r << " " << row << " " << k;
  }
  TmaStoreAtom<short, SmemSw128> st{};
  auto coords = make_identity_tensor(make_shape(640, 256));
  auto b = st.get_slice().partition_D(local_tile(coords, make_shape(_64{}, _128{}), make_coord(9, 1)));
  EXPECT_EQ(b.crd[0], 576);
  EXPECT_EQ(b.crd[1], 128);
  EXPECT_EQ(&st.get_slice().partition_S(s)(0), smem);
}

#if defined(CUTE_DSL_HAVE_TMA_DESCRIPTOR)
TEST(TmaAtom, DescriptorSpecHasThePerCtaBoxAndTheSwizzle) {
  static short g[16];
  auto spec = tma_atom_spec(g, make_layout(make_shape(1000, 3000), make_stride(_1{}, 1008)), SmemSw128{}, _2{});
  EXPECT_EQ(spec.shape, (std::vector<std::uint64_t>{1000, 3000}));
  EXPECT_EQ(spec.strides_bytes, (std::vector<std::uint64_t>{1008 * 2}));
  EXPECT_EQ(spec.box, (std::vector<std::uint32_t>{64, 64}));
  EXPECT_EQ(spec.swizzle, tma::SwizzleMode::bytes128);
  EXPECT_EQ(spec.element_bytes, 2);
  auto plain = tma_atom_spec(g, make_layout(make_shape(40, 7, 3), make_stride(_1{}, 48, 48 * 7)),
                             make_layout(make_shape(_8{}, _4{}, _2{})));
  EXPECT_EQ(plain.box, (std::vector<std::uint32_t>{8, 4, 2}));
  EXPECT_EQ(plain.strides_bytes, (std::vector<std::uint64_t>{96, 96 * 7}));
  EXPECT_EQ(plain.swizzle, tma::SwizzleMode::none);
  EXPECT_THROW(tma_atom_spec(g, make_layout(make_shape(40, 7), make_stride(7, _1{})), make_layout(make_shape(_8{}, _4{}))),
               tma::TmaDescriptorError);
}
#endif

}  // namespace

// A tile of several boxes: the MN-major operand of the Hopper GEMM, (M, K) with M in 64-row
// boxes of one 128-byte swizzle row each, ((64, R), 64):((1, 4096), 64). Each box is 64 x 64;
// the R boxes follow each other in shared memory (4096 elements) and step 64 rows in the tensor.
template <int R>
using SmemMnBoxes = decltype(composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(make_shape(_64{}, Int<R>{}), _64{}, _1{}),
                                                                          make_stride(make_stride(_1{}, _4096{}), _64{}, _0{}))));
static_assert(TmaBoxMath<SmemMnBoxes<4>, 1>::boxes_per_cta == 4 && TmaBoxMath<SmemMnBoxes<4>, 1>::box_elements == 4096);
static_assert(TmaBoxMath<SmemMnBoxes<4>, 1>::box_extents().crd[0] == 64 && TmaBoxMath<SmemMnBoxes<4>, 1>::box_extents().crd[1] == 64);
static_assert(TmaBoxMath<SmemMnBoxes<4>, 1>::tile().crd[0] == 256 && TmaBoxMath<SmemMnBoxes<4>, 1>::step_mode() == 0);
// Multicast over 2 CTAs splits the boxes, not a box: CTA 1 loads boxes 2 and 3.
static_assert(TmaBoxMath<SmemMnBoxes<4>, 2>::boxes_per_cta == 2 && TmaBoxMath<SmemMnBoxes<4>, 2>::slice_smem_offset(1) == 2 * 4096);
static_assert(TmaBoxMath<SmemMnBoxes<4>, 2>::slice_last_mode_offset(1) == 128 && !TmaBoxMath<SmemMnBoxes<4>, 2>::slices_last_mode);
static_assert(TmaLoadAtom<short, SmemMnBoxes<4>, 2>::transaction_bytes == 256 * 64 * 2);
static_assert(TmaBoxMath<SmemMnBoxes<2>, 1>::box_smem_offset(1) == 4096 && TmaBoxMath<SmemMnBoxes<2>, 1>::box_coord_offset(1) == 64);

// A K-major tile whose rows repeat a box of 32: (64 K, (32, R) rows):(1, (64, 2048)). A ragged last
// row block loads only its first boxes (copy(call, box, dst, boxes)); the barrier expects their bytes.
template <int R>
using SmemKRowBoxes = decltype(composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_64{}, make_shape(_32{}, Int<R>{}), _1{}),
                                                                           make_stride(_1{}, make_stride(_64{}, _2048{}), _0{}))));
static_assert(TmaBoxMath<SmemKRowBoxes<4>, 1>::boxes_per_cta == 4 && TmaBoxMath<SmemKRowBoxes<4>, 1>::box_elements == 2048);
static_assert(TmaBoxMath<SmemKRowBoxes<4>, 1>::box_extents().crd[0] == 64 && TmaBoxMath<SmemKRowBoxes<4>, 1>::box_extents().crd[1] == 32);
static_assert(TmaBoxMath<SmemKRowBoxes<4>, 1>::step_mode() == 1 && TmaBoxMath<SmemKRowBoxes<4>, 1>::box_coord_offset(3) == 96);
static_assert(TmaLoadAtom<short, SmemKRowBoxes<4>>::transaction_bytes == 128 * 64 * 2);
static_assert(TmaLoadAtom<short, SmemKRowBoxes<4>>::transaction_bytes_of(1) == 32 * 64 * 2);
static_assert(TmaLoadAtom<short, SmemKRowBoxes<4>>::transaction_bytes_of(4) == TmaLoadAtom<short, SmemKRowBoxes<4>>::transaction_bytes);
static_assert(TmaLoadAtom<short, SmemKRowBoxes<4>>::transaction_bytes_of(0) == 0);

TEST(TmaAtom, SeveralBoxesPerTileFromACoordinateOrigin) {
  TmaLoadAtom<short, SmemMnBoxes<4>, 2> atom{};
  for (int r = 0; r < 2; ++r) {
    auto b = atom.get_slice(r).partition_S(TmaBox<3>{{512, 128, 3}});  // (M, K, batch) of the tile's first element
    EXPECT_EQ(b.crd[0], 512 + 128 * r) << r;                           // the CTA's first box
    EXPECT_EQ(b.crd[1], 128) << r;
    EXPECT_EQ(b.crd[2], 3) << r;
  }
  std::vector<short> smem(256 * 64);
  auto s = make_tensor(make_smem_ptr(smem.data()), SmemMnBoxes<4>{});
  EXPECT_EQ(&atom.get_slice(1).partition_D(s)(0), smem.data() + 2 * 4096);
}
