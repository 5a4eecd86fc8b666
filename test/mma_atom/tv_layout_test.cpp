// Every atom's (thread, value) layouts against the PTX ISA's fragment figures. The expected
// positions are written from the figures' text (groupID = lane / 4, threadID_in_group = lane % 4,
// which register holds which row and column), independently of the layouts' strides, and each
// layout is also checked to cover its tile exactly once (registers do not alias).
#include <gtest/gtest.h>

#include <set>

#include "cute_dsl/atom/traits/mma_traits_sm80.hpp"
#include "cute_dsl/atom/traits/mma_traits_sm90.hpp"

using namespace cute_dsl;

namespace {

struct RowCol { int row, col; };

// Compares layout(t, v) with row + rows * col for every thread and value; also checks that no
// two (t, v) name the same element when `injective`.
template <class L, class Expected>
void expect_tv(L const& layout, int threads, int values, int rows, Expected expected, bool injective = true) {
  std::set<int> seen;
  for (int t = 0; t < threads; ++t)
    for (int v = 0; v < values; ++v) {
      RowCol rc = expected(t, v);
      int got = int(layout(make_coord(t, v)));
      ASSERT_EQ(got, rc.row + rows * rc.col) << "thread " << t << " value " << v << " expected (" << rc.row << ", " << rc.col << ")";
      if (injective) {
        EXPECT_TRUE(seen.insert(got).second) << "offset " << got << " held twice (thread " << t << ")";
      }
    }
}

int group(int lane) { return lane / 4; }
int in_group(int lane) { return lane % 4; }

}  // namespace

TEST(TvLayout, UniversalFmaIsOneByOne) {
  using T = MMA_Traits<UniversalFMA<float>>;
  static_assert(size(typename T::ALayout{}) == 1 && size(typename T::CLayout{}) == 1);
  static_assert(size(typename T::ThrID{}) == 1);
}

// m16n8k16 .f16/.bf16: "a0,a1: (groupID, threadID_in_group*2 + i)", a2,a3 row +8, a4..a7 col +8.
TEST(TvLayout, Sm80_16x8x16_A) {
  using T = MMA_Traits<SM80_16x8x16_F32F16F16F32_TN>;
  static_assert(size(typename T::ALayout{}) == 32 * 8);
  expect_tv(typename T::ALayout{}, 32, 8, 16, [](int l, int i) {
    return RowCol{group(l) + ((i == 2 || i == 3 || i == 6 || i == 7) ? 8 : 0), in_group(l) * 2 + (i & 1) + (i >= 4 ? 8 : 0)};
  });
}

// B is K x N: b0,b1 at (row k = threadID_in_group*2 + i, col n = groupID), b2,b3 at k + 8.
TEST(TvLayout, Sm80_16x8x16_B) {
  using T = MMA_Traits<SM80_16x8x16_F32BF16BF16F32_TN>;
  // Offsets are n + 8k: "rows" of the (N, K) tile are n.
  expect_tv(typename T::BLayout{}, 32, 4, 8, [](int l, int i) {
    return RowCol{group(l), in_group(l) * 2 + (i & 1) + (i >= 2 ? 8 : 0)};
  });
}

// C/D: c0,c1 at (groupID, threadID_in_group*2 + i); c2,c3 at row groupID + 8.
TEST(TvLayout, Sm80_16x8_C) {
  using T = MMA_Traits<SM80_16x8x16_F32F16F16F32_TN>;
  expect_tv(typename T::CLayout{}, 32, 4, 16, [](int l, int i) {
    return RowCol{group(l) + (i >= 2 ? 8 : 0), in_group(l) * 2 + (i & 1)};
  });
  static_assert(is_same_v<MMA_Traits<SM80_16x8x8_F32TF32TF32F32_TN>::CLayout, T::CLayout>);
}

// m16n8k8 .tf32: a0 (g, q), a1 (g+8, q), a2 (g, q+4), a3 (g+8, q+4); b0 (k=q, n=g), b1 (k=q+4).
TEST(TvLayout, Sm80_16x8x8_Tf32) {
  using T = MMA_Traits<SM80_16x8x8_F32TF32TF32F32_TN>;
  static_assert(is_same_v<remove_cvref_t<decltype(get<2>(T::Shape_MNK{}))>, Int<8>>);
  expect_tv(typename T::ALayout{}, 32, 4, 16, [](int l, int i) {
    const RowCol table[4] = {{0, 0}, {8, 0}, {0, 4}, {8, 4}};
    return RowCol{group(l) + table[i].row, in_group(l) + table[i].col};
  });
  expect_tv(typename T::BLayout{}, 32, 2, 8, [](int l, int i) { return RowCol{group(l), in_group(l) + 4 * i}; });
}

// wgmma D (64 x N): warp w owns rows 16w..16w+15; per 8-column group j, d[4j+0,1] at
// (16w + groupID, 8j + 2*threadID_in_group + i), d[4j+2,3] at row + 8.
template <int N>
void check_wgmma_c() {
  using T = MMA_Traits<SM90_64xNx16_F32BF16BF16_SS<N>>;
  static_assert(size(typename T::CLayout{}) == 128 * N / 2);
  expect_tv(typename T::CLayout{}, 128, N / 2, 64, [](int t, int i) {
    int w = t / 32, l = t % 32, j = i / 4, r = i % 4;
    return RowCol{16 * w + group(l) + (r >= 2 ? 8 : 0), 8 * j + 2 * in_group(l) + (r & 1)};
  });
}
TEST(TvLayout, Sm90_64xN_C) {
  check_wgmma_c<8>();
  check_wgmma_c<16>();
  check_wgmma_c<64>();
  check_wgmma_c<128>();
  check_wgmma_c<192>();
  check_wgmma_c<256>();
}

// RS A (64 x 16 from registers): mma.m16n8k16's A fragment per warp, rows offset by 16w.
TEST(TvLayout, Sm90_64x16_A_Registers) {
  using T = MMA_Traits<SM90_64xNx16_F32F16F16_RS<64>>;
  expect_tv(typename T::ALayout{}, 128, 8, 64, [](int t, int i) {
    int w = t / 32, l = t % 32;
    return RowCol{16 * w + group(l) + ((i == 2 || i == 3 || i == 6 || i == 7) ? 8 : 0), in_group(l) * 2 + (i & 1) + (i >= 4 ? 8 : 0)};
  });
}

// SS: every thread addresses the whole block through the descriptor (thread stride 0).
TEST(TvLayout, Sm90_Smem_Operands) {
  using T = MMA_Traits<SM90_64xNx16_F32F16F16_SS<32, GmmaMajor::MN, GmmaMajor::MN>>;
  for (int t : {0, 1, 77, 127})
    for (int m = 0; m < 64; ++m)
      for (int k = 0; k < 16; ++k) {
        EXPECT_EQ(int(typename T::ALayout{}(make_coord(t, make_coord(m, k)))), m + 64 * k);
        if (m < 32) {
          EXPECT_EQ(int(typename T::BLayout{}(make_coord(t, make_coord(m, k)))), m + 32 * k);
        }
      }
  static_assert(T::major_a == GmmaMajor::MN && T::major_b == GmmaMajor::MN);
}
