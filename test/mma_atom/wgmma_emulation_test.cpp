// The wgmma path of TiledMMA emulated on the host, with the hardware's addressing written from the
// PTX ISA ("Shared Memory Matrix Layout", "Matrix Descriptor Format", the accumulator and A
// register fragment figures), not from the library: for every configuration the GPU test runs,
// the test's shared-memory block is filled with element IDs, the descriptors TiledMMA builds (the
// same function the kernel calls, at shared address 0) are decoded, and every (MN, K) element of
// every K step that wgmma would read is looked up at the address the PTX canonical layout gives,
// swizzle applied to the address bits. A wrong LBO/SBO, start address, K step or fill shows as a
// wrong ID. Also the RS register fragment of A and the accumulator -> (m, n) map of C.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cute_dsl/atom/tiled_mma.hpp"
#include "cute_dsl/kernels/gemm_sm90_layouts.hpp"
#include "gmma_test_blocks.hpp"

struct __nv_bfloat16 { std::uint16_t bits; };  // only its size and name matter here (the GEMM picks its wgmma by it)

using namespace cute_dsl;

namespace {

struct Elem16 { std::uint16_t id; };  // a 2-byte operand element (f16/bf16): only the size matters

constexpr int kK = 64;  // the block's K (4 wgmma K steps of 16), as in wgmma_gpu_test.cu

// The byte address wgmma reads for element (mn, k) of the (MN x 16) operand a descriptor names
// (PTX ISA canonical layouts, T = 16 bytes, W = swizzle width; then the address swizzle).
unsigned hw_address(GmmaDescriptor const& d, GmmaMajor major, int mn, int k, int elem_bytes) {
  const unsigned w = d.layout_type == GmmaLayoutType::sw128 ? 128u
                     : d.layout_type == GmmaLayoutType::sw64 ? 64u
                     : d.layout_type == GmmaLayoutType::sw32 ? 32u : 16u;
  const unsigned lbo = d.leading_byte_offset, sbo = d.stride_byte_offset;
  unsigned a = d.start_address;
  if (major == GmmaMajor::K) {
    const unsigned kb = unsigned(k * elem_bytes);
    if (w == 16) a += unsigned(mn % 8) * 16 + unsigned(mn / 8) * sbo + kb % 16 + (kb / 16) * lbo;  // ((8,m),(T,2k)):((T,SBO),(1,LBO))
    else a += unsigned(mn % 8) * w + unsigned(mn / 8) * sbo + kb;                                 // ((8,m),(T,2k)):((W,SBO),(1,T))
  } else {
    const unsigned mb = unsigned(mn * elem_bytes);
    if (w == 16) a += mb % 16 + (mb / 16) * sbo + unsigned(k % 8) * 16 + unsigned(k / 8) * lbo;  // ((T,1,m),(8,k)):((1,T,SBO),(T,LBO))
    else a += mb % w + (mb / w) * lbo + unsigned(k % 8) * w + unsigned(k / 8) * sbo;             // ((T,W/T,m),(8,k)):((1,T,LBO),(W,SBO))
  }
  // Swizzle: the 16-byte chunk bits [4, 4+b) XOR the row bits [7, 7+b), b = log2(W / 16).
  const unsigned mask = w / 16 - 1;
  return a ^ (((a >> 7) & mask) << 4);
}

int id_of(int mn, int k) { return mn * kK + k + 1; }

// Operand `which` ("A" or "B", MN rows) of the tiled MMA `mma`: fill the block, build the
// descriptors from thread t's partition, and check every element of every K step.
template <GmmaMajor Major, GmmaLayoutType Type, int MN, class Mma, class Partition>
void check_operand(Mma const& mma, Partition partition, const char* which) {
  constexpr auto block = mma_test::smem_block<Elem16, Major, Type, MN, kK>();
  std::vector<Elem16> smem(std::size_t(decltype(cosize(block))::value));
  for (int mn = 0; mn < MN; ++mn)
    for (int k = 0; k < kK; ++k) smem[std::size_t(block(make_coord(mn, k)))].id = std::uint16_t(id_of(mn, k));
  auto sX = make_tensor(make_smem_ptr(smem.data()), block);
  for (int t : {0, 37, 127}) {
    auto part = partition(mma.get_slice(t), sX);
    auto desc = detail::gmma_descriptor_fragment<Major>(0u, part);  // the block at shared address 0
    ASSERT_EQ(int(size<1>(desc)), 1);
    ASSERT_EQ(int(size<2>(desc)), kK / 16);
    int bad = 0;
    for (int s = 0; s < kK / 16; ++s) {
      auto step = desc(_, _, s);  // the slice gemm() takes for K step s
      const GmmaDescriptor d = GmmaDescriptor::decode(step(0));
      EXPECT_EQ(d.layout_type, Type);
      EXPECT_EQ(d.base_offset, 0u);
      for (int mn = 0; mn < MN; ++mn)
        for (int k = 0; k < 16; ++k) {
          const unsigned addr = hw_address(d, Major, mn, k, 2);
          const bool in = addr % 2 == 0 && addr / 2 < smem.size();
          const int got = in ? smem[addr / 2].id : -1, want = id_of(mn, 16 * s + k);
          if (got != want && bad++ < 4)
            ADD_FAILURE() << which << " thread " << t << " K step " << s << ": (" << mn << ", " << k << ") reads byte "
                          << addr << " holding ID " << got << ", want " << want;
        }
    }
    EXPECT_EQ(bad, 0) << which;
  }
}

template <class Op, int N, GmmaLayoutType TypeA, GmmaLayoutType TypeB = TypeA>
void check_ss() {
  using Tr = MMA_Traits<Op>;
  auto mma = make_tiled_mma(MMA_Atom<Op>{});
  check_operand<Tr::major_a, TypeA, 64>(mma, [](auto const& thr, auto const& s) { return thr.partition_A(s); }, "A");
  check_operand<Tr::major_b, TypeB, N>(mma, [](auto const& thr, auto const& s) { return thr.partition_B(s); }, "B");
}

template <class Op, int N, GmmaLayoutType TypeB>
void check_rs() {
  using Tr = MMA_Traits<Op>;
  auto mma = make_tiled_mma(MMA_Atom<Op>{});
  check_operand<Tr::major_b, TypeB, N>(mma, [](auto const& thr, auto const& s) { return thr.partition_B(s); }, "B");
  // A in registers from a row-major 64 x K global tile: thread t's value i of K step s is the
  // PTX figure's a_i (warp w, g = lane/4, q = lane%4): row 16w + g (+8 for i%4 >= 2), column
  // 16s + 2q + i%2 (+8 for i >= 4).
  std::vector<float> a(64 * kK);
  auto gA = make_tensor(a.data(), make_layout(make_shape(Int<64>{}, Int<kK>{}), make_stride(Int<kK>{}, Int<1>{})));
  for (int t = 0; t < 128; ++t) {
    auto tA = mma.get_slice(t).partition_A(gA);
    ASSERT_EQ(int(size(tA)), 8 * kK / 16);
    const int w = t / 32, g = t % 32 / 4, q = t % 4;
    for (int s = 0; s < kK / 16; ++s) {
      auto step = tA(_, _, s);
      for (int i = 0; i < 8; ++i) {
        const int row = 16 * w + g + (i % 4 >= 2 ? 8 : 0), col = 16 * s + 2 * q + i % 2 + (i >= 4 ? 8 : 0);
        EXPECT_EQ(&step(i) - a.data(), row * kK + col) << "thread " << t << " step " << s << " value " << i;
      }
    }
  }
}

// The accumulator map: thread t's register i of a row-major 64 x N D is (16w + g (+8 for
// i%4 >= 2), 8(i/4) + 2q + i%2), as the raw GPU test writes it.
template <class Op, int N>
void check_c() {
  auto mma = make_tiled_mma(MMA_Atom<Op>{});
  std::vector<float> d(64 * N);
  auto gD = make_tensor(d.data(), make_layout(make_shape(Int<64>{}, Int<N>{}), make_stride(Int<N>{}, Int<1>{})));
  for (int t = 0; t < 128; ++t) {
    auto tC = mma.get_slice(t).partition_C(gD);
    ASSERT_EQ(int(size(tC)), N / 2);
    const int w = t / 32, g = t % 32 / 4, q = t % 4;
    for (int i = 0; i < N / 2; ++i) {
      const int row = 16 * w + g + (i % 4 >= 2 ? 8 : 0), col = 8 * (i / 4) + 2 * q + i % 2;
      EXPECT_EQ(&tC(i) - d.data(), row * N + col) << "thread " << t << " register " << i;
    }
  }
}

using namespace mma_test;  // kSw128, kMN, ...

}  // namespace

// The emulator itself against the known-good hand-written path (G's GEMM, correct on the H200):
// K-major 128B swizzle, SBO 1024, start + 32 bytes per K step, row r's 16-byte chunk c at c ^ r.
TEST(WgmmaEmulation, EmulatorMatchesHandWrittenSw128) {
  for (int s = 0; s < 4; ++s) {
    GmmaDescriptor d{unsigned(32 * s), 16, 1024, 0, kSw128};
    for (int m = 0; m < 64; ++m)
      for (int k = 0; k < 16; ++k) {
        const int kk = 16 * s + k, chunk = (kk / 8) ^ (m % 8);
        EXPECT_EQ(hw_address(d, kKM, m, k, 2), unsigned(m * 128 + chunk * 16 + (kk % 8) * 2));
      }
  }
}

// TiledMMA's descriptors for the GEMM's layout (K-major SW128, 64 x 64 bf16 block) are bit for bit
// the hand-written ones of kernels/gemm_sm90.hpp: {start + 32 s, LBO 16, SBO 1024, SW128}.
TEST(WgmmaEmulation, DescriptorsEqualTheGemmKernels) {
  auto mma = make_tiled_mma(MMA_Atom<SM90_64xNx16_F32BF16BF16_SS<64>>{});
  constexpr auto block = mma_test::smem_block<Elem16, kKM, kSw128, 64, kK>();
  std::vector<Elem16> smem(64 * kK);
  auto sA = make_tensor(make_smem_ptr(smem.data()), block);
  const unsigned base = 0x2400;  // a 1024-byte aligned shared address
  auto desc = detail::gmma_descriptor_fragment<kKM>(base, mma.get_slice(5).partition_A(sA));
  for (int s = 0; s < kK / 16; ++s)
    EXPECT_EQ(desc(0, 0, s), (GmmaDescriptor{base + 32u * unsigned(s), 16, 1024, 0, kSw128}.encode())) << "K step " << s;
}

TEST(WgmmaEmulation, SsKMajorSw128) {
  check_ss<SM90_64xNx16_F32BF16BF16_SS<8>, 8, kSw128>();
  check_ss<SM90_64xNx16_F32BF16BF16_SS<64>, 64, kSw128>();
  check_ss<SM90_64xNx16_F32F16F16_SS<128>, 128, kSw128>();
  check_ss<SM90_64xNx16_F32BF16BF16_SS<256>, 256, kSw128>();
}
TEST(WgmmaEmulation, SsKMajorSw64Sw32Interleave) {
  check_ss<SM90_64xNx16_F32BF16BF16_SS<64>, 64, kSw64>();
  check_ss<SM90_64xNx16_F32F16F16_SS<64>, 64, kSw32>();
  check_ss<SM90_64xNx16_F32F16F16_SS<64>, 64, kInterleave>();
}
TEST(WgmmaEmulation, SsMNMajor) {
  check_ss<SM90_64xNx16_F32BF16BF16_SS<64, kMN, kMN>, 64, kSw128>();
  check_ss<SM90_64xNx16_F32F16F16_SS<128, kMN, kKM>, 128, kSw64, kSw128>();
  check_ss<SM90_64xNx16_F32BF16BF16_SS<64, kMN, kMN>, 64, kInterleave>();
}
TEST(WgmmaEmulation, RsAndAccumulators) {
  check_rs<SM90_64xNx16_F32F16F16_RS<64>, 64, kSw128>();
  check_rs<SM90_64xNx16_F32BF16BF16_RS<256, kMN>, 256, kSw64>();
  check_c<SM90_64xNx16_F32BF16BF16_SS<8>, 8>();
  check_c<SM90_64xNx16_F32BF16BF16_SS<256>, 256>();
}

// The GEMM's rings (kernels/gemm_sm90_layouts.hpp): (rows, K, PIPE) tiles of the 128-byte swizzle
// atom. The descriptor fragment of each consumer thread covers every stage and K step as one
// 64-bit origin plus offsets, and every one decodes to the canonical block the hardware expects:
// K-major {start, LBO unused (16), SBO 1024}, +32 bytes per K step; MN-major {start, LBO 8192
// (next 64 rows), SBO 1024 (next 8 k)}, +2048 bytes per K step; +rows*128 bytes per stage. A's
// wgmma block is 64 rows, one MN-major atom: its LBO is never read, so only B's is compared.
template <GmmaMajor Major>
void check_gemm_ring() {
  constexpr int kRows = 128, kStages = 3;
  using Operand = kernels::GemmSm90Operand<__nv_bfloat16, Major, kRows, kStages>;
  auto mma = kernels::gemm_sm90_tiled_mma<__nv_bfloat16, 128, 128, false, Major, Major>();
  std::vector<Elem16> smem(std::size_t(Operand::Buffer::elements));
  auto ring = make_tensor(make_smem_ptr(smem.data()), typename Operand::Ring{});
  const unsigned base = 0x4000;
  auto check = [&](auto const& desc, unsigned rows0, bool lbo_read, int t) {
    ASSERT_EQ(int(size(desc)), 4 * kStages);
    for (int s = 0; s < kStages; ++s)
      for (int k = 0; k < 4; ++k) {
        const unsigned stage = base + unsigned(s) * kRows * 128;
        const GmmaDescriptor want = Major == GmmaMajor::K
                                        ? GmmaDescriptor{stage + rows0 * 128 + 32u * unsigned(k), 16, 1024, 0, kSw128}
                                        : GmmaDescriptor{stage + rows0 * 128 + 2048u * unsigned(k), 8192, 1024, 0, kSw128};
        GmmaDescriptor got = GmmaDescriptor::decode(desc(0, 0, k, s));
        if (!lbo_read) got.leading_byte_offset = want.leading_byte_offset;
        EXPECT_EQ(got.encode(), want.encode()) << "thread " << t << " stage " << s << " k " << k;
      }
  };
  for (int t : {0, 77, 128, 255}) {  // A: each warpgroup its 64 rows (0..63, 64..127); B: all 128
    check(detail::gmma_descriptor_fragment<Major>(base, mma.get_slice(t).partition_A(ring)), unsigned(t / 128) * 64,
          Major == GmmaMajor::K, t);
    check(detail::gmma_descriptor_fragment<Major>(base, mma.get_slice(t).partition_B(ring)), 0, true, t);
  }
}
TEST(WgmmaEmulation, GemmRingDescriptorsKMajor) { check_gemm_ring<GmmaMajor::K>(); }
TEST(WgmmaEmulation, GemmRingDescriptorsMNMajor) { check_gemm_ring<GmmaMajor::MN>(); }
