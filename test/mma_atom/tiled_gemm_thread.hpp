// One thread's share of D = A * B^T + C through a TiledMMA: partition the (M x K), (N x K) and
// (M x N) tensors, copy to register fragments, gemm over the K blocks, copy D back. The GPU
// kernel of mma_sync_gpu_test.cu runs it per thread; tiled_mma_test.cpp runs the scalar-FMA case
// on the host thread by thread, so both sides execute the same code.
#pragma once

#include "cute_dsl/atom/tiled_mma.hpp"

namespace mma_test {

template <class Mma, class GA, class GB, class GC, class GD>
CUTE_DSL_HOST_DEVICE void tiled_gemm_thread(Mma const& mma, int tid, GA const& gA, GB const& gB, GC const& gC, GD const& gD) {
  auto thr = mma.get_slice(tid);
  auto tA = thr.partition_A(gA);
  auto tB = thr.partition_B(gB);
  auto tC = thr.partition_C(gC);
  auto tD = thr.partition_C(gD);
  auto rA = thr.partition_fragment_A(gA);
  auto rB = thr.partition_fragment_B(gB);
  auto rC = thr.partition_fragment_C(gC);
  auto rD = thr.partition_fragment_C(gD);
  for (int i = 0; i < int(size(rA)); ++i) rA(i) = tA(i);
  for (int i = 0; i < int(size(rB)); ++i) rB(i) = tB(i);
  for (int i = 0; i < int(size(rC)); ++i) rC(i) = tC(i);
  gemm(mma, rD, rA, rB, rC);
  for (int i = 0; i < int(size(rD)); ++i) tD(i) = rD(i);
}

}  // namespace mma_test
