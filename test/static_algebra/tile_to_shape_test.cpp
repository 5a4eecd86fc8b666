// tile_to_shape on template layouts: static answers are types; the wgmma shared-memory atoms tiled
// over (M, K, PIPE) put every element where the hand-written layout says, keep their swizzle and
// fill exactly M*K*PIPE elements; run-time targets give the static answer's function and are
// refused by the same rule.
#include "cute_dsl/layout/algebra.hpp"
#include "cute_dsl/arch/sm90/gmma_layout.hpp"
#include "cute_dsl/util/error.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

namespace {

using namespace cute_dsl;

template <class L, class Expected>
constexpr bool is_exactly = is_same_v<remove_cvref_t<L>, Expected>;

// ---- plain static layouts: exact types ----------------------------------------------------------
using KAtom = Layout<tuple<_8, _64>, tuple<_64, _1>>;
using MNAtom = Layout<tuple<_64, _8>, tuple<_1, _64>>;
static_assert(is_exactly<decltype(tile_to_shape(KAtom{}, make_shape(_128{}, _64{}, _4{}))),
                         Layout<tuple<_128, _64, _4>, tuple<_64, _1, _8192>>>);
static_assert(is_exactly<decltype(tile_to_shape(MNAtom{}, make_shape(_128{}, _64{}, _4{}), make_tuple(_2{}, _1{}, _3{}))),
                         Layout<tuple<tuple<_64, _2>, _64, _4>, tuple<tuple<_1, _4096>, _64, _8192>>>);
// CuTe's documentation example: copies down mode 0 first
static_assert(is_exactly<decltype(tile_to_shape(Layout<tuple<_3, _4>, tuple<_1, _3>>{}, make_shape(_9{}, _12{}))),
                         Layout<tuple<tuple<_3, _3>, tuple<_4, _3>>, tuple<tuple<_1, _12>, tuple<_3, Int<36>>>>>);
// an integer target: an integral result
static_assert(is_exactly<decltype(tile_to_shape(Layout<_8, _1>{}, _64{})), Layout<_64, _1>>);
// Step<> is CuTe's spelling of the order
static_assert(is_exactly<decltype(tile_to_shape(MNAtom{}, Shape<_128, _64, _4>{}, Step<_2, _1, _3>{})),
                         decltype(tile_to_shape(MNAtom{}, make_shape(_128{}, _64{}, _4{}), make_tuple(_2{}, _1{}, _3{})))>);

// ---- the wgmma atoms over (M, K, PIPE) ---------------------------------------------------------------

// The element offset, before the swizzle, that the hand layout gives (m, k, s): atoms of W x 8
// (MN-major) or 8 x W (K-major) elements, copies along K first for MN-major with order (2,1,3)
// and along M first otherwise; stages after everything else.
template <GmmaMajor Major, bool KFirst>
constexpr int hand_offset(int W, int M, int K, int m, int k, int s) {
  const int stage = s * M * K;
  if constexpr (Major == GmmaMajor::K) {
    return (m % 8) * W + k % W + 8 * W * (m / 8) + 8 * W * (M / 8) * (k / W) + stage;
  } else if constexpr (KFirst) {
    return m % W + W * (k % 8) + 8 * W * (k / 8) + 8 * W * (K / 8) * (m / W) + stage;
  } else {
    return m % W + W * (k % 8) + 8 * W * (m / W) + 8 * W * (M / W) * (k / 8) + stage;
  }
}

template <class T, GmmaMajor Major, GmmaLayoutType Type, int M, int K, int Pipe, bool KFirst>
constexpr auto tiled_atom() {
  constexpr auto atom = gmma_smem_atom<T, Major, Type>();
  constexpr auto target = make_shape(Int<M>{}, Int<K>{}, Int<Pipe>{});
  if constexpr (KFirst) return tile_to_shape(atom, target, make_tuple(_2{}, _1{}, _3{}));
  else return tile_to_shape(atom, target);
}

// Every `step`-th element of every mode (step 1: the whole domain) lands at the hand offset,
// swizzled by the atom's own swizzle; the shape is the target's, the cosize M*K*PIPE.
template <class T, GmmaMajor Major, GmmaLayoutType Type, int M, int K, int Pipe, bool KFirst>
constexpr bool atom_tiles(int step) {
  constexpr auto atom = gmma_smem_atom<T, Major, Type>();
  constexpr auto tiled = tiled_atom<T, Major, Type, M, K, Pipe, KFirst>();
  static_assert(is_static_v<remove_cvref_t<decltype(tiled.layout_b())>>, "static in, static out");
  static_assert(is_same_v<remove_cvref_t<decltype(tiled.layout_a())>, remove_cvref_t<decltype(atom.layout_a())>>,
                "the swizzle is kept");
  static_assert(decltype(rank(tiled))::value == 3 && decltype(size<0>(tiled))::value == M &&
                decltype(size<1>(tiled))::value == K && decltype(size<2>(tiled))::value == Pipe);
  static_assert(decltype(cosize(tiled))::value == M * K * Pipe);
  constexpr int W = gmma_swizzle_bytes<Type> / int(sizeof(T));
  for (int m = 0; m < M; m += step)
    for (int k = 0; k < K; k += step)
      for (int s = 0; s < Pipe; ++s) {
        const int want = hand_offset<Major, KFirst>(W, M, K, m, k, s);
        if (tiled.layout_b()(m, k, s) != want) return false;
        if (tiled(m, k, s) != atom.layout_a()(want)) return false;
      }
  return true;
}

template <class T, GmmaMajor Major, GmmaLayoutType Type, bool KFirst>
constexpr bool atom_family(int step) {
  return atom_tiles<T, Major, Type, 64, 64, 2, KFirst>(step) && atom_tiles<T, Major, Type, 128, 64, 4, KFirst>(step) &&
         atom_tiles<T, Major, Type, 256, 64, 8, KFirst>(step) && atom_tiles<T, Major, Type, 128, 128, 3, KFirst>(step);
}

constexpr bool gmma_atoms(int step) {
  using B = std::uint16_t;  // bf16-sized
  constexpr auto K = GmmaMajor::K, MN = GmmaMajor::MN;
  constexpr auto sw128 = GmmaLayoutType::sw128, sw64 = GmmaLayoutType::sw64, sw32 = GmmaLayoutType::sw32,
                 il = GmmaLayoutType::interleave;
  return atom_family<B, K, sw128, false>(step) && atom_family<B, K, sw64, false>(step) &&
         atom_family<B, K, sw32, false>(step) && atom_family<B, K, il, false>(step) &&
         atom_family<B, MN, sw128, true>(step) && atom_family<B, MN, sw64, true>(step) &&
         atom_family<B, MN, sw32, true>(step) && atom_family<B, MN, il, true>(step) &&
         atom_family<B, MN, sw128, false>(step) && atom_family<B, MN, sw32, false>(step) &&
         atom_tiles<float, K, sw128, 128, 32, 4, false>(step) && atom_tiles<std::uint8_t, MN, sw128, 128, 128, 2, true>(step);
}
static_assert(gmma_atoms(31));  // a sample in constant evaluation; the whole domain below

TEST(TileToShape, GmmaAtomsLandWhereTheHandLayoutSays) { EXPECT_TRUE(gmma_atoms(1)); }

// The two layouts the GEMM kernel asks for, spelled as it will.
TEST(TileToShape, KernelLayouts) {
  using T = std::uint16_t;
  constexpr auto a = tile_to_shape(gmma_smem_atom<T, GmmaMajor::K, GmmaLayoutType::sw128>(),
                                   make_shape(Int<128>{}, Int<64>{}, Int<4>{}));
  constexpr auto b = tile_to_shape(gmma_smem_atom<T, GmmaMajor::MN, GmmaLayoutType::sw128>(),
                                   make_shape(Int<128>{}, Int<64>{}, Int<4>{}), make_tuple(Int<2>{}, Int<1>{}, Int<3>{}));
  static_assert(is_exactly<decltype(a.layout_b()), Layout<tuple<_128, _64, _4>, tuple<_64, _1, _8192>>>);
  static_assert(is_exactly<decltype(b.layout_b()), Layout<tuple<tuple<_64, _2>, _64, _4>, tuple<tuple<_1, _4096>, _64, _8192>>>);
  // one 64-MN block of 64 K rows is 8 KiB of contiguous bf16
  static_assert(b.layout_b()(63, 63, 0) == 4095 && b.layout_b()(64, 0, 0) == 4096);
  EXPECT_EQ(int(a(1, 0, 0)), int(Swizzle<3, 3, 3>{}(64)));
}

// ---- run-time targets ------------------------------------------------------------------------------

template <class L1, class L2>
bool same_function(L1 const& a, L2 const& b) {
  if (int(size(a)) != int(size(b))) return false;
  for (int i = 0; i < int(size(a)); ++i)
    if (int(a(i)) != int(b(i))) return false;
  return true;
}

TEST(TileToShape, RunTimeTargetIsTheStaticFunction) {
  EXPECT_TRUE(same_function(tile_to_shape(KAtom{}, make_shape(128, 64, 4)),
                            tile_to_shape(KAtom{}, make_shape(_128{}, _64{}, _4{}))));
  EXPECT_TRUE(same_function(tile_to_shape(MNAtom{}, make_shape(128, _64{}, 3), make_tuple(_2{}, _1{}, _3{})),
                            tile_to_shape(MNAtom{}, make_shape(_128{}, _64{}, _3{}), make_tuple(_2{}, _1{}, _3{}))));
  EXPECT_TRUE(same_function(tile_to_shape(Layout<_8, _1>{}, 64), tile_to_shape(Layout<_8, _1>{}, _64{})));
  // a swizzled atom with a run-time number of stages
  const auto sw = tile_to_shape(gmma_smem_atom<std::uint16_t, GmmaMajor::K, GmmaLayoutType::sw64>(), make_shape(_64{}, _64{}, 5));
  EXPECT_EQ(int(size<2>(sw)), 5);
  EXPECT_EQ(int(cosize(sw)), 64 * 64 * 5);
  EXPECT_EQ(int(sw(9, 33, 4)), int(Swizzle<2, 3, 3>{}(hand_offset<GmmaMajor::K, false>(32, 64, 64, 9, 33, 4))));
}

TEST(TileToShape, RunTimeTargetThatTheBlockDoesNotDivide) {
  const char* text = "tile_to_shape: Tile Divisibility Condition: the target shape must be a multiple of the block's shape "
                     "in every mode";
  try {
    (void)tile_to_shape(KAtom{}, make_shape(100, 64, 4));
    ADD_FAILURE() << "no LayoutError";
  } catch (const LayoutError& e) {
    EXPECT_EQ(e.rule(), tree::Error::tile_divisibility);
    EXPECT_EQ(std::strncmp(e.what(), text, std::strlen(text)), 0) << e.what();
  }
}

}  // namespace
