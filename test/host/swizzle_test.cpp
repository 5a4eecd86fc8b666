// layout/swizzle.hpp: Swizzle<B,M,S> against the bit formula written out bit by bit, over whole
// domains, for positive, zero and negative shifts; static offsets give static results.
#include "cute_dsl/layout/swizzle.hpp"

#include <gtest/gtest.h>

namespace {
using namespace cute_dsl;

// Reference: bit (M + b + max(S,0)) of x flips bit (M + b - min(S,0)), for b in [0, B).
constexpr long long reference(long long x, int B, int M, int S) {
  long long y = x;
  for (int b = 0; b < B; ++b) {
    int src = M + b + (S > 0 ? S : 0);
    int dst = M + b - (S < 0 ? S : 0);
    if ((x >> src) & 1) y ^= (1LL << dst);
  }
  return y;
}

template <int B, int M, int S>
constexpr bool matches_formula_and_is_bijective() {
  Swizzle<B, M, S> sw{};
  constexpr int span = 1 << (M + B + (S < 0 ? -S : S));
  bool seen[span] = {};
  for (int x = 0; x < span; ++x) {
    int y = sw(x);
    if (y != reference(x, B, M, S)) return false;
    if (y < 0 || y >= span || seen[y]) return false;
    seen[y] = true;
    if (sw(y) != x) return false;  // an involution: the same bits flip back
    if (sw(x + 3 * span) != y + 3 * span) return false;  // higher bits untouched
  }
  return size(sw) == span;
}

static_assert(matches_formula_and_is_bijective<0, 0, 0>());
static_assert(matches_formula_and_is_bijective<1, 0, 1>());
static_assert(matches_formula_and_is_bijective<2, 1, 3>());
static_assert(matches_formula_and_is_bijective<3, 3, 3>());
static_assert(matches_formula_and_is_bijective<3, 4, 3>());
static_assert(matches_formula_and_is_bijective<2, 0, -2>());
static_assert(matches_formula_and_is_bijective<2, 2, -3>());
static_assert(matches_formula_and_is_bijective<1, 2, 4>());

constexpr bool test_static_and_masks() {
  using Sw = Swizzle<3, 4, 3>;
  static_assert(Sw::yyy_msk == 0b1110000000 && Sw::zzz_msk == 0b0001110000 && Sw::swizzle_code == 0b1111110000);
  static_assert(Swizzle<2, 1, -3>::yyy_msk == 0b0000110 && Swizzle<2, 1, -3>::zzz_msk == 0b0110000);
  static_assert(is_same_v<decltype(Sw{}(C<128>{})), C<(128 ^ 16)>>);
  static_assert(is_same_v<decltype(Sw{}(_0{})), C<0>>);
  static_assert(is_same_v<decltype(Sw{}(5L)), long>);
  static_assert(is_static_v<Sw> && is_swizzle_v<Sw> && !is_swizzle_v<int>);
  static_assert(is_same_v<decltype(Sw{} == Swizzle<3, 4, 3>{}), true_type>);
  static_assert(is_same_v<decltype(Sw{} == Swizzle<3, 3, 3>{}), false_type>);
  return Sw{}(128 + 7) == (128 ^ 16) + 7;
}
static_assert(test_static_and_masks());

TEST(Swizzle, FormulaOverWholeDomains) {
  EXPECT_TRUE((matches_formula_and_is_bijective<3, 4, 3>()));
  EXPECT_TRUE((matches_formula_and_is_bijective<2, 2, -3>()));
  // run time, a larger one
  Swizzle<3, 4, 5> sw;
  for (long long x = 0; x < (1 << 14); ++x) ASSERT_EQ(sw(x), reference(x, 3, 4, 5)) << x;
}
TEST(Swizzle, StaticAndMasks) { EXPECT_TRUE(test_static_and_masks()); }
}  // namespace
