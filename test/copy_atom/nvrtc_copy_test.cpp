// The copy atoms in a JIT-compiled kernel: NVRTC compiles TiledCopy with cp.async, ldmatrix and
// stmatrix, and the TMA wrappers, and the PTX holds the instructions (no GPU needed).
#include <gtest/gtest.h>

#include <string>

#include "nvrtc_compile.hpp"

namespace {
const char* kSource = R"(
#include "cute_dsl/atom/copy_traits_sm75.hpp"
#include "cute_dsl/atom/copy_traits_sm80.hpp"
#include "cute_dsl/atom/copy_traits_sm90.hpp"
#include "cute_dsl/atom/tiled_copy.hpp"
#include "cute_dsl/arch/sm90/tma_copy.hpp"
#include "cute_dsl/layout/swizzle.hpp"
using namespace cute_dsl;
using MmaATV = Layout<tuple<tuple<_4, _8>, tuple<_2, _2, _2>>, tuple<tuple<_32, _1>, tuple<_16, _8, _128>>>;
extern "C" __global__ void copies(const unsigned short* in, unsigned short* out, const void* map) {
  __shared__ alignas(128) unsigned short a[256];
  __shared__ alignas(8) unsigned long long bar;
  auto sw = composition(Swizzle<1, 3, 3>{}, make_layout(make_shape(_16{}, _16{}), make_stride(_16{}, _1{})));
  auto sa = make_tensor(make_smem_ptr(a), sw);
  auto g = make_tensor(make_gmem_ptr(in), make_layout(make_shape(_16{}, _16{}), make_stride(_16{}, _1{})));
  auto cp = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, unsigned short>{},
                            make_layout(make_shape(_16{}, _2{}), make_stride(_2{}, _1{})), make_layout(make_shape(_1{}, _8{})));
  copy(cp, cp.get_slice(threadIdx.x).partition_S(g), cp.get_slice(threadIdx.x).partition_D(sa));
  auto zf = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint128_t>, unsigned short>{},
                            make_layout(make_shape(_16{}, _2{}), make_stride(_2{}, _1{})), make_layout(make_shape(_1{}, _8{})));
  auto pred = make_tensor<bool>(make_shape(_8{}));
  for (int i = 0; i < 8; ++i) pred(i) = threadIdx.x < 16;
  copy_if(zf, pred, zf.get_slice(threadIdx.x).partition_S(g), zf.get_slice(threadIdx.x).partition_D(sa));
  cp_async_fence();
  cp_async_wait<0>();
  __syncthreads();
  auto ld = make_tiled_copy_impl(Copy_Atom<SM75_U32x4_LDSM_N, unsigned short>{}, MmaATV{}, make_tile(_16{}, _16{}));
  auto st = make_tiled_copy_impl(Copy_Atom<SM90_U32x4_STSM_N, unsigned short>{}, MmaATV{}, make_tile(_16{}, _16{}));
  auto frag = make_tensor<unsigned short>(make_shape(_8{}));
  copy(ld, ld.get_slice(threadIdx.x).partition_S(sa), frag);
  __syncthreads();
  copy(st, frag, st.get_slice(threadIdx.x).partition_D(sa));
  if (threadIdx.x == 0) {
    SM90_TMA_LOAD::copy(map, smem_address(&bar), a, 0, 0);
    tma_store_fence();
    SM90_TMA_STORE::copy(map, a, 0, 0);
    tma_store_arrive();
    tma_store_wait<0>();
  }
  __syncthreads();
  out[threadIdx.x] = a[threadIdx.x];
}
)";
}  // namespace

TEST(Nvrtc, CopyAtomsCompileToTheirInstructions) {
  const auto options = cute_dsl_test::nvrtc_default_options(cute_dsl_test::kNvrtcArch, /*virtual_arch=*/true);
  const auto result = cute_dsl_test::nvrtc_compile(kSource, "copy_atoms.cu", options, /*want_ptx=*/true);
  ASSERT_TRUE(result.ok) << result.log;
  for (const char* instr : {"cp.async.cg.shared.global", "cp.async.ca.shared.global", "cp.async.commit_group", "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
                            "stmatrix.sync.aligned.m8n8.x4.shared.b16", "cp.async.bulk.tensor.2d.shared::cluster.global",
                            "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group", "cp.async.bulk.wait_group.read 0"})
    EXPECT_NE(result.ptx.find(instr), std::string::npos) << instr << " missing from the PTX";
}
