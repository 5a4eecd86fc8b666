// make_tiled_copy / partition_S / partition_D / retile against hand tables, on plain, run-time
// strided and swizzled tensors. Offsets are read back as addresses relative to the buffer.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "cute_dsl/atom/tiled_copy.hpp"
#include "cute_dsl/atom/copy_traits_sm75.hpp"
#include "cute_dsl/atom/copy_traits_sm80.hpp"
#include "cute_dsl/atom/copy_traits_sm90.hpp"
#include "cute_dsl/layout/swizzle.hpp"

using namespace cute_dsl;
using half_bits = unsigned short;

namespace {

template <class Tensor_, class T>
std::vector<long> offsets(Tensor_ const& t, T const* base) {
  std::vector<long> out;
  for (int i = 0; i < int(size(t)); ++i) out.push_back(long(&t(i) - base));
  return out;
}

// 32 threads as a 4x8 column-major grid, 2 floats each along M (one 8-byte UniversalCopy):
// the tile is 8x8 and thread t = (t%4, t/4) holds rows 2*(t%4), 2*(t%4)+1 of column t/4.
auto universal_8x8() {
  return make_tiled_copy(Copy_Atom<UniversalCopy<unsigned long long>, float>{}, make_layout(make_shape(_4{}, _8{})),
                         make_layout(make_shape(_2{}, _1{})));
}

}  // namespace

TEST(TiledCopy, UniversalTileAndLayoutTV) {
  auto tc = universal_8x8();
  using TC = decltype(tc);
  static_assert(TC::NumThr == 32 && TC::NumVal == 2);
  static_assert(is_same_v<typename TC::Tiler, tuple<_8, _8>>);
  for (int t = 0; t < 32; ++t)
    for (int v = 0; v < 2; ++v) EXPECT_EQ(int(typename TC::LayoutTV{}(t, v)), (2 * (t % 4) + v) + 8 * (t / 4));
}

// A static 16x16 column-major tensor: 2x2 tiles of 8x8; thread t's values in tile (i, j) are
// at 8*i + 128*j + (2*(t%4) + v) + 16*(t/4).
TEST(TiledCopy, PartitionStaticTensor) {
  auto tc = universal_8x8();
  float buf[256];
  auto s = make_tensor(make_smem_ptr(buf), make_layout(make_shape(_16{}, _16{})));
  const std::vector<std::vector<long>> table = {
      /* t=0  */ {0, 1, 8, 9, 128, 129, 136, 137},
      /* t=1  */ {2, 3, 10, 11, 130, 131, 138, 139},
      /* t=4  */ {16, 17, 24, 25, 144, 145, 152, 153},
      /* t=31 */ {118, 119, 126, 127, 246, 247, 254, 255}};
  const int threads[] = {0, 1, 4, 31};
  for (int k = 0; k < 4; ++k) {
    auto p = tc.get_slice(threads[k]).partition_S(s);
    static_assert(is_static_v<decltype(p.layout())>, "a static tensor partitions into a static layout");
    static_assert(decltype(rank(p.layout()))::value == 3, "(CPY, CPY_M, CPY_N)");
    EXPECT_EQ(offsets(p, buf), table[k]) << "thread " << threads[k];
    EXPECT_EQ(offsets(tc.get_thread_slice(threads[k]).partition_D(s), buf), table[k]);
  }
}

// The same with a run-time leading dimension (a global matrix): same offsets for ld = 16.
TEST(TiledCopy, PartitionRunTimeStride) {
  auto tc = universal_8x8();
  std::vector<float> buf(16 * 20);
  for (int ld : {16, 20}) {
    auto g = make_tensor(make_gmem_ptr(buf.data()), make_layout(make_shape(16, 16), make_stride(_1{}, ld)));
    for (int t = 0; t < 32; ++t) {
      auto p = tc.get_slice(t).partition_S(g);
      static_assert(is_static_v<decltype(layout<0>(p.layout()))>, "the CPY mode stays static under run-time strides");
      std::vector<long> expected;
      for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 2; ++i)
          for (int v = 0; v < 2; ++v) expected.push_back(8 * i + 2 * (t % 4) + v + long(ld) * (8 * j + t / 4));
      EXPECT_EQ(offsets(p, buf.data()), expected) << "thread " << t << " ld " << ld;
    }
  }
}

// A swizzled destination: the partition's offsets are the swizzle of the plain ones.
TEST(TiledCopy, PartitionSwizzledTensor) {
  auto tc = universal_8x8();
  float buf[256];
  auto plain = make_tensor(make_smem_ptr(buf), make_layout(make_shape(_16{}, _16{})));
  auto swz = make_tensor(make_smem_ptr(buf), composition(Swizzle<2, 1, 4>{}, make_layout(make_shape(_16{}, _16{}))));
  for (int t = 0; t < 32; ++t) {
    auto p = offsets(tc.get_slice(t).partition_D(plain), buf);
    auto q = offsets(tc.get_slice(t).partition_D(swz), buf);
    ASSERT_EQ(p.size(), q.size());
    for (std::size_t i = 0; i < p.size(); ++i) EXPECT_EQ(q[i], (Swizzle<2, 1, 4>::apply_value(p[i]))) << "thread " << t;
  }
}

// Every thread's copy together moves every element exactly once (host run of UniversalCopy).
TEST(TiledCopy, HostCopyCoversTheTensor) {
  auto tc = universal_8x8();
  float src[256], dst[256];
  for (int i = 0; i < 256; ++i) { src[i] = float(i) * 0.5f + 3.f; dst[i] = -1.f; }
  auto s = make_tensor(make_gmem_ptr(src), make_layout(make_shape(16, 16), make_stride(_1{}, 16)));
  auto d = make_tensor(make_smem_ptr(dst), composition(Swizzle<2, 1, 4>{}, make_layout(make_shape(_16{}, _16{}))));
  for (int t = 0; t < 32; ++t) {
    auto thr = tc.get_slice(t);
    copy(tc, thr.partition_S(s), thr.partition_D(d));
  }
  for (int j = 0; j < 16; ++j)
    for (int i = 0; i < 16; ++i) EXPECT_EQ(d(i, j), s(i, j)) << i << "," << j;
}

// ldmatrix x4 feeding an mma.m16n8k16 A fragment: a 16x16 tile of 16-bit elements, thread t
// holding (row t/4 + 8*(v/2 % 2), col 2*(t%4) + v%2 + 8*(v/4)). The source partition must then
// give thread t row (t%8) + 8*((t/8)%2), columns 8*(t/16) .. +7 (matrix t/8's row t%8).
TEST(TiledCopy, LdmatrixX4ForMmaA) {
  using TV = Layout<tuple<tuple<_4, _8>, tuple<_2, _2, _2>>, tuple<tuple<_32, _1>, tuple<_16, _8, _128>>>;
  auto tc = make_tiled_copy_impl(Copy_Atom<SM75_U32x4_LDSM_N, half_bits>{}, TV{}, make_tile(_16{}, _16{}));
  half_bits buf[256];
  auto s = make_tensor(make_smem_ptr(buf), make_layout(make_shape(_16{}, _16{}), make_stride(_16{}, _1{})));  // row-major
  auto frag_tile = make_tensor(make_rmem_ptr(buf), make_layout(make_shape(_16{}, _16{})));                  // col-major
  for (int t = 0; t < 32; ++t) {
    auto src = offsets(tc.get_slice(t).partition_S(s), buf);
    ASSERT_EQ(src.size(), 8u);
    const int row = t % 8 + 8 * ((t / 8) % 2), col = 8 * (t / 16);
    for (int v = 0; v < 8; ++v) EXPECT_EQ(src[v], 16 * row + col + v) << "thread " << t;
    auto dst = offsets(tc.get_slice(t).partition_D(frag_tile), buf);
    ASSERT_EQ(dst.size(), 8u);
    for (int v = 0; v < 8; ++v) {
      const int m = t / 4 + 8 * ((v / 2) % 2), n = 2 * (t % 4) + v % 2 + 8 * (v / 4);
      EXPECT_EQ(dst[v], m + 16 * n) << "thread " << t << " value " << v;
    }
  }
}

// ldmatrix x1 through make_tiled_copy: 8x4 threads (row t/4, column pair t%4), 2 values each.
TEST(TiledCopy, LdmatrixX1FromThreadAndValueLayouts) {
  auto tc = make_tiled_copy(Copy_Atom<SM75_U32x1_LDSM_N, half_bits>{}, make_layout(make_shape(_8{}, _4{}), make_stride(_4{}, _1{})),
                            make_layout(make_shape(_1{}, _2{})));
  half_bits buf[64];
  auto s = make_tensor(make_smem_ptr(buf), make_layout(make_shape(_8{}, _8{}), make_stride(_8{}, _1{})));
  for (int t = 0; t < 32; ++t) {
    auto src = offsets(tc.get_slice(t).partition_S(s), buf);
    for (int v = 0; v < 8; ++v) EXPECT_EQ(src[v], 8 * (t % 8) + v) << "thread " << t;  // row t%8
    auto dst = offsets(tc.get_slice(t).partition_D(s), buf);
    EXPECT_EQ(dst, (std::vector<long>{8 * (t / 4) + 2 * (t % 4), 8 * (t / 4) + 2 * (t % 4) + 1})) << "thread " << t;
  }
}

// stmatrix x4 is the inverse: partition_D gives the rows, partition_S the fragment.
TEST(TiledCopy, StmatrixX4RowsOnTheDestination) {
  using TV = Layout<tuple<tuple<_4, _8>, tuple<_2, _2, _2>>, tuple<tuple<_32, _1>, tuple<_16, _8, _128>>>;
  auto tc = make_tiled_copy_impl(Copy_Atom<SM90_U32x4_STSM_N, half_bits>{}, TV{}, make_tile(_16{}, _16{}));
  half_bits buf[256];
  auto s = make_tensor(make_smem_ptr(buf), make_layout(make_shape(_16{}, _16{}), make_stride(_16{}, _1{})));
  for (int t = 0; t < 32; ++t) {
    auto dst = offsets(tc.get_slice(t).partition_D(s), buf);
    const int row = t % 8 + 8 * ((t / 8) % 2), col = 8 * (t / 16);
    for (int v = 0; v < 8; ++v) EXPECT_EQ(dst[v], 16 * row + col + v) << "thread " << t;
  }
}

// retile: a register fragment of 8 values in (2,2,2) order is seen as (CPY = (8 values of one
// ldmatrix x4, 1), ...) without moving anything.
TEST(TiledCopy, RetileKeepsTheOrder) {
  using TV = Layout<tuple<tuple<_4, _8>, tuple<_2, _2, _2>>, tuple<tuple<_32, _1>, tuple<_16, _8, _128>>>;
  auto tc = make_tiled_copy_impl(Copy_Atom<SM75_U32x4_LDSM_N, half_bits>{}, TV{}, make_tile(_16{}, _16{}));
  auto frag = make_tensor<half_bits>(make_shape(make_shape(_2{}, _2{}, _2{}), _2{}));
  auto r = tc.get_slice(0).retile_D(frag);
  static_assert(decltype(size<0, 0>(r.layout()))::value == 8, "mode 0 holds whole atoms");
  for (int i = 0; i < 16; ++i) EXPECT_EQ(&r(i), &frag(i));
}

// Row-major threads (8x16, 4 consecutive floats each along a row): a 64x64 row-major source, static
// or with run-time extents, into a swizzled row-major destination.
TEST(TiledCopy, RowMajorThreadsStaticAndRunTimeSource) {
  auto tc = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{}, make_layout(make_shape(_8{}, _16{}), make_stride(_16{}, _1{})),
                            make_layout(make_shape(_1{}, _4{})));
  static_assert(is_same_v<typename decltype(tc)::Tiler, tuple<_8, _64>>);
  std::vector<float> src(64 * 64), dst(64 * 64);
  for (int i = 0; i < 64 * 64; ++i) src[i] = float(i) + 0.25f;
  auto d = make_tensor(make_smem_ptr(dst.data()),
                       composition(Swizzle<3, 2, 3>{}, make_layout(make_shape(_64{}, _64{}), make_stride(_64{}, _1{}))));
  auto s_static = make_tensor(make_gmem_ptr(src.data()), make_layout(make_shape(_64{}, _64{}), make_stride(_64{}, _1{})));
  const int m = 64, n = 64;
  auto s_dynamic = make_tensor(make_gmem_ptr(src.data()), make_layout(make_shape(m, n), make_stride(n, _1{})));
  // Thread 3 holds columns 12..15 of rows 0, 8, ..., 56.
  EXPECT_EQ(offsets(tc.get_slice(3).partition_S(s_static), src.data()), offsets(tc.get_slice(3).partition_S(s_dynamic), src.data()));
  EXPECT_EQ(&tc.get_slice(3).partition_S(s_static)(4) - src.data(), 8 * 64 + 12);
  for (int pass = 0; pass < 2; ++pass) {
    std::fill(dst.begin(), dst.end(), -1.f);
    for (int t = 0; t < 128; ++t) {
      auto thr = tc.get_slice(t);
      if (pass == 0) copy(tc, thr.partition_S(s_static), thr.partition_D(d));
      else copy(tc, thr.partition_S(s_dynamic), thr.partition_D(d));
    }
    for (int i = 0; i < 64; ++i)
      for (int j = 0; j < 64; ++j) ASSERT_EQ(d(i, j), s_static(i, j)) << "pass " << pass << " (" << i << "," << j << ")";
  }
}

// copy_if: groups whose predicate is false are skipped (UniversalCopy has no zero-fill form).
// The predicate is the partition of a bool tensor shaped like the source: columns < 5 of 16.
TEST(TiledCopy, CopyIfSkipsMaskedGroups) {
  auto tc = universal_8x8();
  float src[256], dst[256];
  bool in_bounds[256];
  for (int i = 0; i < 256; ++i) {
    src[i] = float(i) + 1.f;
    dst[i] = -1.f;
    in_bounds[i] = (i / 16) < 5;  // column-major 16x16: column = i / 16
  }
  auto layout = make_layout(make_shape(_16{}, _16{}));
  auto s = make_tensor(make_gmem_ptr(src), layout);
  auto d = make_tensor(make_smem_ptr(dst), layout);
  auto p = make_tensor(make_rmem_ptr(in_bounds), layout);
  for (int t = 0; t < 32; ++t) {
    auto thr = tc.get_slice(t);
    copy_if(tc, thr.partition_S(p), thr.partition_S(s), thr.partition_D(d));
  }
  for (int i = 0; i < 256; ++i) EXPECT_EQ(dst[i], in_bounds[i] ? src[i] : -1.f) << i;
}
