// Every wgmma shape the library wraps, instantiated once so that ptxas checks the operand lists
// (N = 8 .. 256; SS with both majors and negated scales, RS with MN-major B; f16 and bf16).
// Compile-only (test mma_atom.wgmma_all_shapes_compile); the GPU tests run a subset.
#include "cute_dsl/arch/sm90/wgmma.hpp"

using namespace cute_dsl;

template <int N>
__device__ void all_forms(float* out, unsigned long long da, unsigned long long db, unsigned s) {
  float d[N / 2];
  for (int i = 0; i < N / 2; ++i) d[i] = out[i];
  unsigned a[4] = {s, s + 1, s + 2, s + 3};
  warpgroup_arrive();
  SM90_64xNx16_F32F16F16_SS<N>::fma(da, db, d, s);
  SM90_64xNx16_F32BF16BF16_SS<N, GmmaMajor::MN, GmmaMajor::MN, GmmaScale::neg, GmmaScale::neg>::fma(da, db, d, s);
  SM90_64xNx16_F32F16F16_RS<N, GmmaMajor::MN>::fma(a, db, d, s);
  SM90_64xNx16_F32BF16BF16_RS<N>::fma(a, db, d, s);
  warpgroup_commit_batch();
  warpgroup_wait<0>();
  for (int i = 0; i < N / 2; ++i) out[threadIdx.x * (N / 2) + i] = d[i];
}

__global__ void every_wgmma_shape(float* out, unsigned long long da, unsigned long long db, unsigned s) {
  all_forms<8>(out, da, db, s);
  all_forms<16>(out, da, db, s);
  all_forms<24>(out, da, db, s);
  all_forms<32>(out, da, db, s);
  all_forms<40>(out, da, db, s);
  all_forms<48>(out, da, db, s);
  all_forms<56>(out, da, db, s);
  all_forms<64>(out, da, db, s);
  all_forms<72>(out, da, db, s);
  all_forms<80>(out, da, db, s);
  all_forms<88>(out, da, db, s);
  all_forms<96>(out, da, db, s);
  all_forms<104>(out, da, db, s);
  all_forms<112>(out, da, db, s);
  all_forms<120>(out, da, db, s);
  all_forms<128>(out, da, db, s);
  all_forms<136>(out, da, db, s);
  all_forms<144>(out, da, db, s);
  all_forms<152>(out, da, db, s);
  all_forms<160>(out, da, db, s);
  all_forms<168>(out, da, db, s);
  all_forms<176>(out, da, db, s);
  all_forms<184>(out, da, db, s);
  all_forms<192>(out, da, db, s);
  all_forms<200>(out, da, db, s);
  all_forms<208>(out, da, db, s);
  all_forms<216>(out, da, db, s);
  all_forms<224>(out, da, db, s);
  all_forms<232>(out, da, db, s);
  all_forms<240>(out, da, db, s);
  all_forms<248>(out, da, db, s);
  all_forms<256>(out, da, db, s);
}
