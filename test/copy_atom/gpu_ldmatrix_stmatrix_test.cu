// ldmatrix x1/x2/x4 (+.trans) and stmatrix x1/x2/x4 (+.trans) against the PTX ISA fragment
// figures (matrix_fragment_reference.hpp), per register and per element, on random 16-bit data
// with poisoned outputs; then an ldmatrix -> stmatrix round trip through TiledCopy on a swizzled
// shared tile (an mma.m16n8k16 A operand). SASS: LDSM.16.M88.{1,2,4}[.MT88] and STSM.16.M88.*.
#include <vector>

#include "cute_dsl/atom/copy_traits_sm75.hpp"
#include "cute_dsl/atom/copy_traits_sm90.hpp"
#include "cute_dsl/atom/tiled_copy.hpp"
#include "cute_dsl/layout/swizzle.hpp"
#include "gpu_test.cuh"
#include "matrix_fragment_reference.hpp"

using namespace cute_dsl;
using half_bits = unsigned short;

namespace {

// Thread t's row: row t%8 of matrix t/8 (threads past 8N repeat the first 8N).
template <int N>
__device__ half_bits* my_row(half_bits* smem) {
  const int u = int(threadIdx.x) % (8 * N);
  return smem + 64 * (u / 8) + 8 * (u % 8);
}

template <class Op, int N>
__global__ void ldmatrix_kernel(half_bits const* in, unsigned* out) {
  __shared__ alignas(16) half_bits smem[256];
  for (int i = threadIdx.x; i < 64 * N; i += 32) smem[i] = in[i];
  __syncthreads();
  unsigned r[4] = {0, 0, 0, 0};
  auto const& row = *reinterpret_cast<uint128_t const*>(my_row<N>(smem));
  if constexpr (N == 1) Op::copy(row, r[0]);
  else if constexpr (N == 2) Op::copy(row, r[0], r[1]);
  else Op::copy(row, r[0], r[1], r[2], r[3]);
  for (int i = 0; i < N; ++i) out[threadIdx.x * N + i] = r[i];
}

template <class Op, int N>
__global__ void stmatrix_kernel(unsigned const* in, half_bits* out) {
  __shared__ alignas(16) half_bits smem[256];
  unsigned r[4];
  for (int i = 0; i < N; ++i) r[i] = in[threadIdx.x * N + i];
  auto& row = *reinterpret_cast<uint128_t*>(my_row<N>(smem));
  if constexpr (N == 1) Op::copy(r[0], row);
  else if constexpr (N == 2) Op::copy(r[0], r[1], row);
  else Op::copy(r[0], r[1], r[2], r[3], row);
  __syncwarp();
  for (int i = threadIdx.x; i < 64 * N; i += 32) out[i] = smem[i];
}

std::vector<half_bits> random_halves(std::size_t n, std::uint32_t seed) {
  auto v = cute_dsl_test::random_vector<double>(n, seed, 0.0, 65536.0);
  std::vector<half_bits> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<half_bits>(v[i]);
  return h;
}

template <class Op, int N, bool Trans>
void check_ldmatrix() {
  CUTE_DSL_REQUIRE_GPU(75);
  const std::uint32_t seed = cute_dsl_test::test_seed();
  auto data = random_halves(64 * N, seed);
  cute_dsl_test::DeviceBuffer<half_bits> din(data.size());
  cute_dsl_test::DeviceBuffer<unsigned> dout(32 * N);
  ASSERT_TRUE(din.ok() && dout.ok());
  CUTE_DSL_TEST_CUDA(din.upload(data));
  CUTE_DSL_TEST_CUDA(dout.poison());
  ldmatrix_kernel<Op, N><<<1, 32>>>(din.get(), dout.get());
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<unsigned> out;
  CUTE_DSL_TEST_CUDA(dout.download(out));
  for (int t = 0; t < 32; ++t)
    for (int i = 0; i < N; ++i) {
      const unsigned lo = data[copy_atom_test::fragment_side(Trans, t, 2 * i)];
      const unsigned hi = data[copy_atom_test::fragment_side(Trans, t, 2 * i + 1)];
      ASSERT_EQ(out[t * N + i], lo | (hi << 16)) << "thread " << t << " register " << i << " seed " << seed;
    }
}

template <class Op, int N, bool Trans>
void check_stmatrix() {
  CUTE_DSL_REQUIRE_GPU(90);
  const std::uint32_t seed = cute_dsl_test::test_seed();
  auto halves = random_halves(64 * N, seed);
  std::vector<unsigned> regs(32 * N);
  for (int k = 0; k < 32 * N; ++k) regs[k] = halves[2 * k] | (unsigned(halves[2 * k + 1]) << 16);
  cute_dsl_test::DeviceBuffer<unsigned> din(regs.size());
  cute_dsl_test::DeviceBuffer<half_bits> dout(64 * N);
  ASSERT_TRUE(din.ok() && dout.ok());
  CUTE_DSL_TEST_CUDA(din.upload(regs));
  CUTE_DSL_TEST_CUDA(dout.poison());
  stmatrix_kernel<Op, N><<<1, 32>>>(din.get(), dout.get());
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<half_bits> out;
  CUTE_DSL_TEST_CUDA(dout.download(out));
  for (int t = 0; t < 32; ++t)
    for (int v = 0; v < 2 * N; ++v)
      ASSERT_EQ(out[copy_atom_test::fragment_side(Trans, t, v)], half_bits(regs[t * N + v / 2] >> (16 * (v % 2))))
          << "thread " << t << " value " << v << " seed " << seed;
}

// ---- through TiledCopy ----------------------------------------------------------------------------
// The mma.m16n8k16 A fragment: thread t, value v at (row t/4 + 8*(v/2 % 2), col 2*(t%4) + v%2 + 8*(v/4)).
using MmaATV = Layout<tuple<tuple<_4, _8>, tuple<_2, _2, _2>>, tuple<tuple<_32, _1>, tuple<_16, _8, _128>>>;

__global__ void tiled_ldmatrix_stmatrix_kernel(half_bits const* in, half_bits* frag_out, half_bits* tile_out) {
  __shared__ alignas(128) half_bits a[256];
  __shared__ alignas(128) half_bits b[256];
  // Row-major 16x16, 16-byte chunks XOR-ed by row bit 2: conflict-free and still 16-byte rows.
  auto sw = composition(Swizzle<1, 3, 3>{}, make_layout(make_shape(_16{}, _16{}), make_stride(_16{}, _1{})));
  auto sa = make_tensor(make_smem_ptr(a), sw);
  auto sb = make_tensor(make_smem_ptr(b), sw);
  for (int k = threadIdx.x; k < 256; k += 32) sa(k / 16, k % 16) = in[k];
  __syncthreads();
  auto ld = make_tiled_copy_impl(Copy_Atom<SM75_U32x4_LDSM_N, half_bits>{}, MmaATV{}, make_tile(_16{}, _16{}));
  auto st = make_tiled_copy_impl(Copy_Atom<SM90_U32x4_STSM_N, half_bits>{}, MmaATV{}, make_tile(_16{}, _16{}));
  auto frag = make_tensor<half_bits>(make_shape(_8{}));
  copy(ld, ld.get_slice(threadIdx.x).partition_S(sa), frag);
  for (int v = 0; v < 8; ++v) frag_out[threadIdx.x * 8 + v] = frag(v);
  copy(st, frag, st.get_slice(threadIdx.x).partition_D(sb));
  __syncwarp();
  for (int k = threadIdx.x; k < 256; k += 32) tile_out[k] = sb(k / 16, k % 16);
}

}  // namespace

TEST(Ldmatrix, X1) { check_ldmatrix<SM75_U32x1_LDSM_N, 1, false>(); }
TEST(Ldmatrix, X2) { check_ldmatrix<SM75_U32x2_LDSM_N, 2, false>(); }
TEST(Ldmatrix, X4) { check_ldmatrix<SM75_U32x4_LDSM_N, 4, false>(); }
TEST(Ldmatrix, X1Trans) { check_ldmatrix<SM75_U16x2_LDSM_T, 1, true>(); }
TEST(Ldmatrix, X2Trans) { check_ldmatrix<SM75_U16x4_LDSM_T, 2, true>(); }
TEST(Ldmatrix, X4Trans) { check_ldmatrix<SM75_U16x8_LDSM_T, 4, true>(); }
TEST(Stmatrix, X1) { check_stmatrix<SM90_U32x1_STSM_N, 1, false>(); }
TEST(Stmatrix, X2) { check_stmatrix<SM90_U32x2_STSM_N, 2, false>(); }
TEST(Stmatrix, X4) { check_stmatrix<SM90_U32x4_STSM_N, 4, false>(); }
TEST(Stmatrix, X1Trans) { check_stmatrix<SM90_U16x2_STSM_T, 1, true>(); }
TEST(Stmatrix, X2Trans) { check_stmatrix<SM90_U16x4_STSM_T, 2, true>(); }
TEST(Stmatrix, X4Trans) { check_stmatrix<SM90_U16x8_STSM_T, 4, true>(); }

TEST(TiledCopy, LdmatrixStmatrixRoundTripSwizzled) {
  CUTE_DSL_REQUIRE_GPU(90);
  const std::uint32_t seed = cute_dsl_test::test_seed();
  auto tile = random_halves(256, seed);  // row-major 16x16
  cute_dsl_test::DeviceBuffer<half_bits> din(256), dfrag(256), dtile(256);
  ASSERT_TRUE(din.ok() && dfrag.ok() && dtile.ok());
  CUTE_DSL_TEST_CUDA(din.upload(tile));
  CUTE_DSL_TEST_CUDA(dfrag.poison());
  CUTE_DSL_TEST_CUDA(dtile.poison());
  tiled_ldmatrix_stmatrix_kernel<<<1, 32>>>(din.get(), dfrag.get(), dtile.get());
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<half_bits> frag, back;
  CUTE_DSL_TEST_CUDA(dfrag.download(frag));
  CUTE_DSL_TEST_CUDA(dtile.download(back));
  for (int t = 0; t < 32; ++t)
    for (int v = 0; v < 8; ++v) {
      const int m = t / 4 + 8 * ((v / 2) % 2), n = 2 * (t % 4) + v % 2 + 8 * (v / 4);
      ASSERT_EQ(frag[t * 8 + v], tile[16 * m + n]) << "thread " << t << " value " << v << " seed " << seed;
    }
  for (int k = 0; k < 256; ++k) ASSERT_EQ(back[k], tile[k]) << "element " << k << " seed " << seed;
}
