// Every copy atom's thread/value layouts against the PTX ISA fragment figures
// (matrix_fragment_reference.hpp holds the figures' tables and the data numbering).
#include <gtest/gtest.h>

#include "cute_dsl/atom/copy_atom.hpp"
#include "cute_dsl/atom/copy_traits_sm75.hpp"
#include "cute_dsl/atom/copy_traits_sm80.hpp"
#include "cute_dsl/atom/copy_traits_sm90.hpp"
#include "matrix_fragment_reference.hpp"

using namespace cute_dsl;
using half_bits = unsigned short;

namespace {

using namespace copy_atom_test;

template <class L>
void expect_layout(L const& l, int threads, int values, int (*expected)(int, int), const char* what) {
  ASSERT_EQ(int(size<0>(l)), threads) << what;
  ASSERT_EQ(int(size<1>(l)), values) << what;
  for (int t = 0; t < threads; ++t)
    for (int v = 0; v < values; ++v) EXPECT_EQ(int(l(t, v)), expected(t, v)) << what << " thread " << t << " value " << v;
}

template <class Op, int N, bool Trans, bool Store>
void check_matrix_atom(const char* name) {
  using A = Copy_Atom<Op, half_bits>;
  static_assert(A::NumThr == 32);
  static_assert(is_static_v<typename A::ValLayoutSrc> && is_static_v<typename A::ValLayoutDst>);
  auto rows = +[](int t, int v) { return row_side(N, t, v); };
  auto frags = +[](int t, int v) { return fragment_side(Trans, t, v); };
  if constexpr (!Store) {
    static_assert(A::NumValSrc == 8 && A::NumValDst == 2 * N);
    expect_layout(typename A::ValLayoutSrc{}, 32, 8, rows, name);
    expect_layout(typename A::ValLayoutDst{}, 32, 2 * N, frags, name);
    static_assert(is_same_v<typename A::ValLayoutRef, typename A::ValLayoutDst>);
  } else {
    static_assert(A::NumValSrc == 2 * N && A::NumValDst == 8);
    expect_layout(typename A::ValLayoutSrc{}, 32, 2 * N, frags, name);
    expect_layout(typename A::ValLayoutDst{}, 32, 8, rows, name);
    static_assert(is_same_v<typename A::ValLayoutRef, typename A::ValLayoutSrc>);
  }
}

}  // namespace

TEST(LdmatrixTraits, MatchThePtxFigures) {
  check_matrix_atom<SM75_U32x1_LDSM_N, 1, false, false>("SM75_U32x1_LDSM_N");
  check_matrix_atom<SM75_U32x2_LDSM_N, 2, false, false>("SM75_U32x2_LDSM_N");
  check_matrix_atom<SM75_U32x4_LDSM_N, 4, false, false>("SM75_U32x4_LDSM_N");
  check_matrix_atom<SM75_U16x2_LDSM_T, 1, true, false>("SM75_U16x2_LDSM_T");
  check_matrix_atom<SM75_U16x4_LDSM_T, 2, true, false>("SM75_U16x4_LDSM_T");
  check_matrix_atom<SM75_U16x8_LDSM_T, 4, true, false>("SM75_U16x8_LDSM_T");
}

TEST(StmatrixTraits, MatchThePtxFigures) {
  check_matrix_atom<SM90_U32x1_STSM_N, 1, false, true>("SM90_U32x1_STSM_N");
  check_matrix_atom<SM90_U32x2_STSM_N, 2, false, true>("SM90_U32x2_STSM_N");
  check_matrix_atom<SM90_U32x4_STSM_N, 4, false, true>("SM90_U32x4_STSM_N");
  check_matrix_atom<SM90_U16x2_STSM_T, 1, true, true>("SM90_U16x2_STSM_T");
  check_matrix_atom<SM90_U16x4_STSM_T, 2, true, true>("SM90_U16x4_STSM_T");
  check_matrix_atom<SM90_U16x8_STSM_T, 4, true, true>("SM90_U16x8_STSM_T");
}

// In bits, as the traits store them: ldmatrix x1's destination is 32 contiguous bits per thread.
TEST(LdmatrixTraits, BitLayouts) {
  using Tr = Copy_Traits<SM75_U32x1_LDSM_N>;
  for (int t = 0; t < 32; ++t) {
    EXPECT_EQ(int(typename Tr::SrcLayout{}(t, 0)), 128 * (t % 8));
    for (int b = 0; b < 32; ++b) EXPECT_EQ(int(typename Tr::DstLayout{}(t, b)), 32 * t + b);
  }
}

// One thread, its bytes in order: (1 thread, sizeof(S)/sizeof(T) values) -> value offset.
template <class Op, class T, int Values>
void check_one_thread_atom() {
  using A = Copy_Atom<Op, T>;
  static_assert(A::NumThr == 1 && A::NumValSrc == Values && A::NumValDst == Values);
  for (int v = 0; v < Values; ++v) {
    EXPECT_EQ(int(typename A::ValLayoutSrc{}(0, v)), v);
    EXPECT_EQ(int(typename A::ValLayoutDst{}(0, v)), v);
  }
}

TEST(UniversalCopyTraits, EveryWidth) {
  check_one_thread_atom<UniversalCopy<unsigned char>, unsigned char, 1>();
  check_one_thread_atom<UniversalCopy<unsigned short>, unsigned char, 2>();
  check_one_thread_atom<UniversalCopy<unsigned>, float, 1>();
  check_one_thread_atom<UniversalCopy<unsigned long long>, float, 2>();
  check_one_thread_atom<UniversalCopy<uint128_t>, float, 4>();
  check_one_thread_atom<UniversalCopy<uint128_t>, half_bits, 8>();
}

TEST(CpAsyncTraits, EveryWidth) {
  check_one_thread_atom<SM80_CP_ASYNC_CACHEALWAYS<unsigned>, float, 1>();
  check_one_thread_atom<SM80_CP_ASYNC_CACHEALWAYS<unsigned long long>, float, 2>();
  check_one_thread_atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, float, 4>();
  check_one_thread_atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_bits, 8>();
}

// UniversalCopy also runs on the host: the atom moves bytes unchanged.
TEST(UniversalCopy, HostCopy) {
  uint128_t a{0x0123456789abcdefULL, 0xfedcba9876543210ULL}, b{};
  UniversalCopy<uint128_t>::copy(a, b);
  EXPECT_EQ(b.lo, a.lo);
  EXPECT_EQ(b.hi, a.hi);
  float f = 1.5f;
  unsigned u = 0;
  UniversalCopy<float, unsigned>::copy(f, u);
  EXPECT_EQ(u, 0x3fc00000u);
}
