// The algorithms on tensors: copy, copy_if, fill, clear, axpby, gemm (FMA and the atom hook),
// reduce, cooperative_copy (threads simulated one after another).
#include "tensor_layer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using namespace cute_dsl;

namespace {

constexpr bool copy_fill_clear() {
  int a[12] = {}, b[12] = {};
  for (int i = 0; i < 12; ++i) a[i] = i;
  auto A = make_tensor(a, make_shape(Int<3>{}, Int<4>{}));
  auto B = make_tensor(b, make_shape(Int<3>{}, Int<4>{}), make_stride(Int<4>{}, Int<1>{}));  // transposed storage
  copy(A, B);
  bool ok = true;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) ok = ok && B(i, j) == A(i, j) && b[4 * i + j] == a[i + 3 * j];
  auto r = make_tensor<int>(make_shape(Int<3>{}, Int<4>{}));
  fill(r, 5);
  ok = ok && r(2, 3) == 5;
  clear(r);
  ok = ok && r(1, 1) == 0;
  fill(A(_, 1), -1);  // a temporary view is fine as destination
  return ok && a[3] == -1 && a[5] == -1 && a[6] == 6;
}
static_assert(copy_fill_clear());
TEST(Algorithm, CopyFillClear) { EXPECT_TRUE(copy_fill_clear()); }

TEST(Algorithm, CopyIfWithTensorAndFunctorPredicates) {
  int a[8] = {0, 1, 2, 3, 4, 5, 6, 7}, b[8] = {};
  auto A = make_tensor(a, make_shape(Int<8>{}));
  auto B = make_tensor(b, make_shape(Int<8>{}));
  auto p = make_tensor<bool>(make_shape(Int<8>{}));
  for (int i = 0; i < 8; ++i) p(i) = i % 3 == 0;
  copy_if(p, A, B);
  EXPECT_EQ((std::vector<int>(b, b + 8)), (std::vector<int>{0, 0, 0, 3, 0, 0, 6, 0}));
  struct Below5 { constexpr bool operator()(int i) const { return i < 5; } };
  copy_if(Below5{}, A, B);
  EXPECT_EQ((std::vector<int>(b, b + 8)), (std::vector<int>{0, 1, 2, 3, 4, 0, 6, 0}));
}

TEST(Algorithm, AxpbyAndZeroBetaDoesNotReadY) {
  float x[4] = {1, 2, 3, 4}, y[4] = {10, 20, 30, 40};
  auto X = make_tensor(x, make_shape(Int<4>{}));
  auto Y = make_tensor(y, make_shape(Int<4>{}));
  axpby(2.f, X, 0.5f, Y);
  EXPECT_EQ((std::vector<float>(y, y + 4)), (std::vector<float>{7, 14, 21, 28}));
  const float nan = __builtin_nanf("");
  for (auto& v : y) v = nan;
  axpby(3.f, X, 0.f, Y);  // run-time zero
  EXPECT_EQ((std::vector<float>(y, y + 4)), (std::vector<float>{3, 6, 9, 12}));
  for (auto& v : y) v = nan;
  axpby(1.f, X, Int<0>{}, Y);  // static zero
  EXPECT_EQ((std::vector<float>(y, y + 4)), (std::vector<float>{1, 2, 3, 4}));
}

// ---- gemm -----------------------------------------------------------------------------------------

TEST(Algorithm, GemmMatchesTheNaiveLoop) {
  constexpr int M = 3, N = 5, K = 4;
  auto A = make_tensor<int>(make_shape(Int<M>{}, Int<K>{}));
  auto Bt = make_tensor<int>(make_layout(make_shape(Int<N>{}, Int<K>{}), LayoutRight{}));  // K-contiguous B
  auto C = make_tensor<int>(make_shape(Int<M>{}, Int<N>{}));
  for (int i = 0; i < M * K; ++i) A(i) = i * 7 % 11 - 5;
  for (int i = 0; i < N * K; ++i) Bt(i) = i * 5 % 13 - 6;
  for (int i = 0; i < M * N; ++i) C(i) = i;
  int want[M][N];
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      want[m][n] = C(m, n);
      for (int k = 0; k < K; ++k) want[m][n] += A(m, k) * Bt(n, k);
    }
  gemm(A, Bt, C);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) EXPECT_EQ(C(m, n), want[m][n]) << m << "," << n;
}

TEST(Algorithm, GemmOuterProduct) {
  auto a = make_tensor<int>(make_shape(Int<2>{}));
  auto b = make_tensor<int>(make_shape(Int<3>{}));
  auto c = make_tensor<int>(make_shape(Int<2>{}, Int<3>{}));
  a(0) = 1; a(1) = 2; b(0) = 3; b(1) = 4; b(2) = 5;
  clear(c);
  gemm(a, b, c);
  EXPECT_EQ(c(1, 2), 10);
  EXPECT_EQ(c(0, 1), 4);
}

// A stand-in MMA atom: V = 2 values per fragment, D(v) = A(v) * B(v) + C(v), and a call log.
struct FakeAtom {
  std::vector<int>* log;
  template <class TD, class TA, class TB, class TC>
  void call(TD&& D, TA const& A, TB const& B, TC const& C) const {
    static_assert(remove_cvref_t<TD>::rank == 1 && TA::rank == 1, "the hook passes the V modes only");
    for (int v = 0; v < 2; ++v) D(v) = A(v) * B(v) + C(v);
    log->push_back(A(0));  // one entry per call
  }
};

TEST(Algorithm, GemmDispatchesToAnAtomPerFragment) {
  // (V,M,K) = (2,3,2), (V,N,K) = (2,2,2), (V,M,N) = (2,3,2)
  auto A = make_tensor<int>(make_shape(Int<2>{}, Int<3>{}, Int<2>{}));
  auto B = make_tensor<int>(make_shape(Int<2>{}, Int<2>{}, Int<2>{}));
  auto C = make_tensor<int>(make_shape(Int<2>{}, Int<3>{}, Int<2>{}));
  for (int i = 0; i < int(size(A)); ++i) A(i) = i + 1;
  for (int i = 0; i < int(size(B)); ++i) B(i) = 2 * i - 3;
  for (int i = 0; i < int(size(C)); ++i) C(i) = i;
  int want[2][3][2];
  for (int v = 0; v < 2; ++v)
    for (int m = 0; m < 3; ++m)
      for (int n = 0; n < 2; ++n) {
        want[v][m][n] = C(v, m, n);
        for (int k = 0; k < 2; ++k) want[v][m][n] += A(v, m, k) * B(v, n, k);
      }
  std::vector<int> log;
  gemm(FakeAtom{&log}, A, B, C);
  EXPECT_EQ(log.size(), 2u * 3u * 2u);  // K * M * N calls
  for (int v = 0; v < 2; ++v)
    for (int m = 0; m < 3; ++m)
      for (int n = 0; n < 2; ++n) EXPECT_EQ(C(v, m, n), want[v][m][n]);
}

// ---- reduce -----------------------------------------------------------------------------------------

TEST(Algorithm, ReduceWholeTensorAndAlongAMode) {
  int a[12];
  for (int i = 0; i < 12; ++i) a[i] = (i * 7) % 12 - 3;  // a permutation of -3..8
  auto t = make_tensor(a, make_shape(Int<3>{}, Int<4>{}));
  EXPECT_EQ(reduce_sum(t), 30);  // -3 + ... + 8
  EXPECT_EQ(reduce_max(t), 8);
  EXPECT_EQ(reduce(t, 100, [](int acc, int) { return acc + 1; }), 112);  // init, then once per element
  auto rows = make_tensor<int>(make_shape(Int<3>{}));
  auto cols = make_tensor<int>(make_shape(Int<4>{}));
  reduce_sum<1>(t, rows);
  reduce_max<0>(t, cols);
  for (int i = 0; i < 3; ++i) {
    int s = 0;
    for (int j = 0; j < 4; ++j) s += t(i, j);
    EXPECT_EQ(rows(i), s);
  }
  for (int j = 0; j < 4; ++j) {
    int mx = t(0, j);
    for (int i = 1; i < 3; ++i) mx = t(i, j) > mx ? t(i, j) : mx;
    EXPECT_EQ(cols(j), mx);
  }
  // rank 3, the middle mode: out indexes (mode 0, mode 2) colexicographically
  int b[24];
  for (int i = 0; i < 24; ++i) b[i] = i;
  auto u = make_tensor(b, make_shape(Int<2>{}, Int<3>{}, Int<4>{}));
  auto out = make_tensor<int>(make_shape(Int<2>{}, Int<4>{}));
  reduce_sum<1>(u, out);
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 4; ++k) EXPECT_EQ(out(i, k), u(i, 0, k) + u(i, 1, k) + u(i, 2, k));
}

// ---- cooperative_copy ----------------------------------------------------------------------------

// The vector width chosen for two layouts of float (elements per access).
template <class LS, class LD>
constexpr int float_vector = detail::common_vector_elements<float, 16, LS, LD>();

using Col8x8 = Layout<tuple<Int<8>, Int<8>>, tuple<Int<1>, Int<8>>>;
using Row8x8 = Layout<tuple<Int<8>, Int<8>>, tuple<Int<8>, Int<1>>>;
using Pad8x8 = Layout<tuple<Int<8>, Int<8>>, tuple<Int<1>, Int<10>>>;  // column stride 10: 8-byte aligned columns
using Odd8x8 = Layout<tuple<Int<8>, Int<8>>, tuple<Int<1>, Int<9>>>;
static_assert(float_vector<Col8x8, Col8x8> == 4, "contiguous: 16-byte vectors");
static_assert(float_vector<Col8x8, Row8x8> == 1, "transposed: no common vector");
static_assert(float_vector<Col8x8, Pad8x8> == 2, "columns 10 floats apart: 8-byte vectors");
static_assert(float_vector<Odd8x8, Col8x8> == 1, "columns 9 floats apart: no vector");
static_assert(detail::common_vector_elements<float, 8, Col8x8, Col8x8>() == 2, "MaxVecBytes caps the width");
static_assert(detail::common_vector_elements<double, 16, Col8x8, Col8x8>() == 2);

template <int Threads, class LS, class LD>
void check_cooperative_copy(std::size_t src_offset) {
  alignas(16) float src[96], dst[96];
  for (int i = 0; i < 96; ++i) { src[i] = float(i); dst[i] = -1.f; }
  auto S = make_tensor(make_smem_ptr(src + src_offset), LS{});
  auto D = make_tensor(make_smem_ptr(dst), LD{});
  for (int t = 0; t < Threads; ++t) cooperative_copy<Threads>(t, S, D);
  for (int i = 0; i < int(size(S)); ++i) EXPECT_EQ(D(i), S(i)) << i;
}

TEST(Algorithm, CooperativeCopyVectorisedAndFallback) {
  check_cooperative_copy<16, Col8x8, Col8x8>(0);  // vector path
  check_cooperative_copy<16, Col8x8, Col8x8>(1);  // misaligned source: element path at run time
  check_cooperative_copy<7, Col8x8, Row8x8>(0);   // transposed: element path; 7 threads do not divide 64
  check_cooperative_copy<32, Pad8x8, Col8x8>(0);  // 8-byte vectors
  // run-time strides with a static unit-stride run: a vector candidate, decided at run time
  using DynCol = decltype(make_layout(make_shape(Int<8>{}, 8), make_stride(Int<1>{}, 8)));
  static_assert(float_vector<DynCol, Col8x8> == 4);
  EXPECT_TRUE(detail::rest_strides_allow(make_layout(make_shape(Int<8>{}, 4), make_stride(Int<1>{}, 12)), 4));
  EXPECT_FALSE(detail::rest_strides_allow(make_layout(make_shape(Int<8>{}, 4), make_stride(Int<1>{}, 10)), 4));
  for (int ld : {8, 10, 12}) {  // vectors for 8 and 12, elements for 10
    alignas(16) float s[8 * 12], d[8 * 12];
    for (int i = 0; i < 96; ++i) { s[i] = float(i); d[i] = -1.f; }
    auto S = make_tensor(make_gmem_ptr(s), make_shape(Int<8>{}, 8), make_stride(Int<1>{}, ld));
    auto D = make_tensor(make_smem_ptr(d), Col8x8{});
    for (int t = 0; t < 8; ++t) cooperative_copy<8>(t, S, D);
    for (int j = 0; j < 8; ++j)
      for (int i = 0; i < 8; ++i) EXPECT_EQ(D(i, j), s[i + ld * j]) << "ld " << ld;
  }
  // run-time layouts without a static unit-stride run: element path
  alignas(16) float src[64], dst[64];
  for (int i = 0; i < 64; ++i) { src[i] = float(i); dst[i] = 0.f; }
  auto S = make_tensor(src, make_shape(8, 8));
  auto D = make_tensor(dst, make_shape(8, 8));
  for (int t = 0; t < 5; ++t) cooperative_copy<5>(t, S, D);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(dst[i], src[i]);
}

}  // namespace
