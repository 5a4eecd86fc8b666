// wgmma shared-memory descriptors: bit fields against hand-computed values for every swizzle mode
// and both major-nesses, the canonical atoms' types, and encode/decode/advance.
#include <gtest/gtest.h>

#include <cstdint>

#include "cute_dsl/arch/sm90/gmma_desc.hpp"
#include "cute_dsl/layout/algebra.hpp"

using namespace cute_dsl;

namespace {
struct Bf16 { std::uint16_t bits; };  // only the size matters
struct Tf32 { std::uint32_t bits; };

// The atom tiled over a block, atoms along MN first (what TMA writes and G's kernel uses).
template <class Atom, class Tiles>
constexpr auto tiled(Atom const& atom, Tiles const& tiles) {
  return composition(atom.layout_a(), blocked_product(atom.layout_b(), make_layout(tiles)));
}
}  // namespace

TEST(GmmaLayout, CanonicalAtoms) {
  // 2-byte elements: 16-byte chunks are 8 elements, so the swizzle's M is 3 (CuTe's Sw<3,4,3>
  // acts on byte addresses; ours on element offsets).
  static_assert(is_same_v<GmmaLayoutKSw128Atom<Bf16>,
                          ComposedLayout<Swizzle<3, 3, 3>, C<0>, Layout<Shape<C<8>, C<64>>, Stride<C<64>, C<1>>>>>);
  static_assert(is_same_v<GmmaLayoutKSw64Atom<Bf16>,
                          ComposedLayout<Swizzle<2, 3, 3>, C<0>, Layout<Shape<C<8>, C<32>>, Stride<C<32>, C<1>>>>>);
  static_assert(is_same_v<GmmaLayoutKSw32Atom<Bf16>,
                          ComposedLayout<Swizzle<1, 3, 3>, C<0>, Layout<Shape<C<8>, C<16>>, Stride<C<16>, C<1>>>>>);
  static_assert(is_same_v<GmmaLayoutKInterleaveAtom<Bf16>,
                          ComposedLayout<Swizzle<0, 3, 3>, C<0>, Layout<Shape<C<8>, C<8>>, Stride<C<8>, C<1>>>>>);
  static_assert(is_same_v<GmmaLayoutMNSw128Atom<Bf16>,
                          ComposedLayout<Swizzle<3, 3, 3>, C<0>, Layout<Shape<C<64>, C<8>>, Stride<C<1>, C<64>>>>>);
  static_assert(is_same_v<GmmaLayoutKSw128Atom<Tf32>,
                          ComposedLayout<Swizzle<3, 2, 3>, C<0>, Layout<Shape<C<8>, C<32>>, Stride<C<32>, C<1>>>>>);
  // Row 1 of the 128B atom: chunk c of the row lands at chunk c ^ 1 (16-byte granules XOR row).
  constexpr auto atom = GmmaLayoutKSw128Atom<Bf16>{};
  static_assert(atom(make_coord(1, 0)) == 64 + 8 && atom(make_coord(1, 8)) == 64 && atom(make_coord(7, 63)) == 7 * 64 + (63 ^ 56));
}

TEST(GmmaDesc, FieldsEncodeAndDecode) {
  GmmaDescriptor d{0x12340u, 0x100u, 0x400u, 5u, GmmaLayoutType::sw64};
  std::uint64_t bits = d.encode();
  // start 0x12340 >> 4 = 0x1234 (bits 0-13), LBO 0x10, SBO 0x40, base 5 at bit 49, type 2 at 62.
  EXPECT_EQ(bits, 0x1234ull | (0x10ull << 16) | (0x40ull << 32) | (5ull << 49) | (2ull << 62));
  auto back = GmmaDescriptor::decode(bits);
  EXPECT_EQ(back.start_address, 0x12340u);
  EXPECT_EQ(back.leading_byte_offset, 0x100u);
  EXPECT_EQ(back.stride_byte_offset, 0x400u);
  EXPECT_EQ(back.base_offset, 5u);
  EXPECT_EQ(back.layout_type, GmmaLayoutType::sw64);
  // The start address keeps 18 bits (shared memory is < 256 KiB): bit 18 and up are dropped.
  EXPECT_EQ(GmmaDescriptor{0x40010u}.encode(), 0x1ull);
  // Advancing moves the start-address field only: +32 bytes = +2.
  EXPECT_EQ(gmma_desc_advance(bits, 32), bits + 2);
}

// K-major, 128B swizzle, bf16, a 64 x 64 block at 0x400: SBO = 8 rows x 128 B = 1024 (64 encoded),
// LBO unused (encoded 1), type 1.
TEST(GmmaDesc, KMajorSw128) {
  constexpr auto block = tiled(GmmaLayoutKSw128Atom<Bf16>{}, make_shape(Int<8>{}, Int<1>{}));
  constexpr std::uint64_t bits = make_gmma_desc<GmmaMajor::K, Bf16>(0x400u, block);
  static_assert(bits == 0x4000004000010040ull);
}
// K-major, 64B swizzle, bf16 (8 x 32 atoms), 64 x 32 block at 0x800: SBO = 8 x 64 B = 512 (32).
TEST(GmmaDesc, KMajorSw64) {
  constexpr auto block = tiled(GmmaLayoutKSw64Atom<Bf16>{}, make_shape(Int<8>{}, Int<1>{}));
  static_assert(make_gmma_desc<GmmaMajor::K, Bf16>(0x800u, block) == 0x8000002000010080ull);
}
// K-major, 32B swizzle, bf16 (8 x 16 atoms), 64 x 16 block at 0: SBO = 8 x 32 B = 256 (16), type 3.
TEST(GmmaDesc, KMajorSw32) {
  constexpr auto block = tiled(GmmaLayoutKSw32Atom<Bf16>{}, make_shape(Int<8>{}, Int<1>{}));
  static_assert(make_gmma_desc<GmmaMajor::K, Bf16>(0u, block) == 0xC000001000010000ull);
}
// K-major interleave (core matrices 8 x 16 B), 64 x 16 block: M neighbours 128 B apart (SBO 8),
// the two K core matrices 8 x 128 B = 1024 B apart (LBO 64), type 0.
TEST(GmmaDesc, KMajorInterleave) {
  constexpr auto block = tiled(GmmaLayoutKInterleaveAtom<Bf16>{}, make_shape(Int<8>{}, Int<2>{}));
  static_assert(make_gmma_desc<GmmaMajor::K, Bf16>(0u, block) == ((64ull << 16) | (8ull << 32)));
  // A plain layout is the interleave mode too.
  static_assert(make_gmma_desc<GmmaMajor::K, Bf16>(0u, block.layout_b()) == ((64ull << 16) | (8ull << 32)));
}
// MN-major, 128B swizzle, bf16 (64 x 8 atoms), a 128 x 16 block: the next 64 MN elements are an
// atom (1024 B) further: LBO 1024 (64); the second 8-deep K group two atoms further: SBO 2048 (128).
TEST(GmmaDesc, MNMajorSw128) {
  constexpr auto block = tiled(GmmaLayoutMNSw128Atom<Bf16>{}, make_shape(Int<2>{}, Int<2>{}));
  static_assert(make_gmma_desc<GmmaMajor::MN, Bf16>(0u, block) == ((64ull << 16) | (128ull << 32) | (1ull << 62)));
}
// MN-major, 64B swizzle (32 x 8 atoms, 512 B), a 64 x 16 block: LBO 512 (32), SBO 1024 (64), type 2.
TEST(GmmaDesc, MNMajorSw64) {
  constexpr auto block = tiled(GmmaLayoutMNSw64Atom<Bf16>{}, make_shape(Int<2>{}, Int<2>{}));
  static_assert(make_gmma_desc<GmmaMajor::MN, Bf16>(0u, block) == ((32ull << 16) | (64ull << 32) | (2ull << 62)));
}
// MN-major, 32B swizzle (16 x 8 atoms, 256 B), a 64 x 16 block: LBO 256 (16), SBO 4 x 256 = 1024 (64), type 3.
TEST(GmmaDesc, MNMajorSw32) {
  constexpr auto block = tiled(GmmaLayoutMNSw32Atom<Bf16>{}, make_shape(Int<4>{}, Int<2>{}));
  static_assert(make_gmma_desc<GmmaMajor::MN, Bf16>(0u, block) == ((16ull << 16) | (64ull << 32) | (3ull << 62)));
}
// MN-major interleave (8 x 8 core matrices of 128 B), a 64 x 16 block: MN neighbours 128 B apart
// (SBO 8), the K groups 8 x 128 B apart (LBO 64).
TEST(GmmaDesc, MNMajorInterleave) {
  constexpr auto block = tiled(GmmaLayoutMNInterleaveAtom<Bf16>{}, make_shape(Int<8>{}, Int<2>{}));
  static_assert(make_gmma_desc<GmmaMajor::MN, Bf16>(0u, block) == ((64ull << 16) | (8ull << 32)));
}
// A composed layout's offset (a slice further into the block) moves the start address.
TEST(GmmaDesc, OffsetMovesStart) {
  constexpr auto block = tiled(GmmaLayoutKSw128Atom<Bf16>{}, make_shape(Int<8>{}, Int<1>{}));
  constexpr auto moved = make_composed_layout(block.layout_a(), Int<16>{}, block.layout_b());
  static_assert(make_gmma_desc<GmmaMajor::K, Bf16>(0x400u, moved) ==
                gmma_desc_advance(make_gmma_desc<GmmaMajor::K, Bf16>(0x400u, block), 32));
}
