// Launches the fused GEMM + reduce-scatter (epilogue/reduce_scatter.hpp) on one rank: the GEMM
// on `stream` with all but `comm_ctas` SMs, then the reducer CTAs (reduce_scatter_pull.hpp)
// beside it on a side stream forked before the GEMM, joined back into `stream`. Every rank calls
// it with the same shape, variant and epoch. Host code, nvcc only.
//
// Reducer CTAs (tree.comm_ctas = 0): 16 with several ranks, 8 for one (a local copy). A rank pulls
// (world - 1) M N / world^2 elements over NVLink; one reducer CTA pulled ~10-13 GB/s on an H100
// (2026-11-26) while the GEMM lost 16 / 132 = 12% of its SMs. The count is fixed, not modelled
// yet (docs/design/distributed.md).
#pragma once

#include "cute_dsl/config.hpp"

#if CUTE_DSL_HOST_ONLY_CODE && defined(__CUDACC__)

#include <cuda_runtime.h>

#include <atomic>
#include <mutex>
#include <string>

#include "cute_dsl/epilogue/reduce_scatter.hpp"
#include "cute_dsl/kernels/gemm_sm90_launch.hpp"
#include "cute_dsl/kernels/reduce_scatter_pull.hpp"

namespace cute_dsl::kernels {

// The GEMM's own arguments: its D is this rank's partial product in the window (M x N), whatever
// args.d says (the launch writes `out` through the reducers, never args.d).
template <class TA, class T, class Child>
GemmSm90Arguments<TA, T> gemm_sm90_reduce_scatter_gemm_arguments(const GemmSm90Arguments<TA, T>& args,
                                                                  const epilogue::ReduceScatter<T, Child>& rs) {
  GemmSm90Arguments<TA, T> x = args;
  x.d = rs.partial(rs.window.rank), x.ldd = rs.layout.n, x.batch_stride_d = (long long)rs.layout.m * rs.layout.n;
  return x;
}

// Empty when the fused GEMM + reduce-scatter can run these arguments; otherwise the rule broken.
template <class TA, class T, class Child>
std::string gemm_sm90_reduce_scatter_unsupported(const GemmSm90Arguments<TA, T>& args, const epilogue::ReduceScatter<T, Child>& rs) {
  const dist::ReduceScatterLayout& l = rs.layout;
  if (args.shape.m != l.m || args.shape.n != l.n)
    return "gemm_sm90_reduce_scatter: the layout's M x N must be the GEMM's";
  if (args.shape.l != 1) return "gemm_sm90_reduce_scatter: one batch (L = 1)";
  if (l.world < 1 || l.world > dist::kMaxRanks || rs.window.world != l.world || rs.window.rank < 0 || rs.window.rank >= l.world)
    return "gemm_sm90_reduce_scatter: rank / world out of range (world <= " + std::to_string(dist::kMaxRanks) + ")";
  if (l.element_bytes != int(sizeof(T))) return "gemm_sm90_reduce_scatter: the layout's element size must be sizeof(D)";
  if (rs.epoch == 0) return "gemm_sm90_reduce_scatter: epochs count from 1";
  if (l.owners().rows(rs.window.rank) > 0 && (rs.out == nullptr || rs.ldo < l.n))
    return "gemm_sm90_reduce_scatter: out must hold this rank's rows (ldo >= N)";
  for (int s = 0; s < l.world; ++s)
    if (rs.window.base[s] == nullptr) return "gemm_sm90_reduce_scatter: the window has no mapping of rank " + std::to_string(s);
  return gemm_sm90_fused_unsupported(gemm_sm90_reduce_scatter_gemm_arguments(args, rs));
}

// comm_stream: where the reducer CTAs run; null: one side stream per device, made once (then
// concurrent callers on one device, e.g. several simulated ranks, must each pass their own).
// @pre tree built by epilogue::reduce_scatter with this rank's window; see the header comment
template <GmmaMajor MajorA, GmmaMajor MajorB, int TileN, int Stages, int ClusterM, class TA, class T, class Child>
cudaError_t gemm_sm90_reduce_scatter(const GemmSm90Arguments<TA, T>& args, epilogue::ReduceScatter<T, Child> tree,
                                     cudaStream_t stream = nullptr, cudaStream_t comm_stream = nullptr) {
  if (!gemm_sm90_reduce_scatter_unsupported(args, tree).empty()) return cudaErrorInvalidValue;
  int device = 0, sms = 0;
  if (cudaError_t err = cudaGetDevice(&device); err != cudaSuccess) return err;
  if (cudaError_t err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device); err != cudaSuccess) return err;
  const int budget = tree.max_ctas > 0 && tree.max_ctas < sms ? tree.max_ctas : sms;  // SMs this rank may use
  int comm = tree.comm_ctas > 0 ? tree.comm_ctas : tree.layout.world > 1 ? 16 : 8;
  if (comm > budget / 2) comm = budget / 2 > 0 ? budget / 2 : 1;
  tree.max_ctas = budget - comm > 0 ? budget - comm : 1;

  // The side stream and its fork / join events: the device's, made once, or the caller's stream
  // with events of this call.
  static std::mutex lock;
  static cudaStream_t sides[detail::kCachedDevices];
  static cudaEvent_t forks[detail::kCachedDevices], joins[detail::kCachedDevices];
  cudaStream_t side = comm_stream;
  cudaEvent_t fork = nullptr, join = nullptr;
  const bool own_events = comm_stream != nullptr;
  if (own_events) {
    if (cudaError_t err = cudaEventCreateWithFlags(&fork, cudaEventDisableTiming); err != cudaSuccess) return err;
    if (cudaError_t err = cudaEventCreateWithFlags(&join, cudaEventDisableTiming); err != cudaSuccess) return err;
  } else {
    if (!detail::device_is_cached(device)) return cudaErrorInvalidDevice;
    std::lock_guard<std::mutex> guard(lock);
    if (sides[device] == nullptr) {
      if (cudaError_t err = cudaStreamCreateWithFlags(&sides[device], cudaStreamNonBlocking); err != cudaSuccess) return err;
      if (cudaError_t err = cudaEventCreateWithFlags(&forks[device], cudaEventDisableTiming); err != cudaSuccess) return err;
      if (cudaError_t err = cudaEventCreateWithFlags(&joins[device], cudaEventDisableTiming); err != cudaSuccess) return err;
    }
    side = sides[device], fork = forks[device], join = joins[device];
  }
  // Both kernels loaded BEFORE either runs: under lazy module loading (CUDA's default) the first
  // launch of a kernel waits for the kernels already running, and the reducer spins until the
  // GEMMs publish -- launching the reducer, then loading the GEMM, deadlocked (H100, 2026-11-26).
  static std::atomic<bool> loaded[detail::kCachedDevices];
  if (!detail::device_is_cached(device) || !loaded[device].load(std::memory_order_acquire)) {
    cudaFuncAttributes attributes{};
    for (auto* reducer : {reduce_scatter_pull_kernel<2, T, Child>, reduce_scatter_pull_kernel<4, T, Child>,
                          reduce_scatter_pull_kernel<8, T, Child>})
      if (cudaError_t e = cudaFuncGetAttributes(&attributes, reducer); e != cudaSuccess) return e;
    if (cudaError_t e = cudaFuncGetAttributes(&attributes, gemm_sm90_fused_kernel<TA, T, TileN, Stages, ClusterM, false, MajorA, MajorB,
                                                                                  gemm_sm90_impl::kTileM, true,
                                                                                  epilogue::ReduceScatter<T, Child>>);
        e != cudaSuccess)
      return e;
    if (detail::device_is_cached(device)) loaded[device].store(true, std::memory_order_release);
  }
  // The GEMM is issued first: its CTAs (clusters of ClusterM neighbouring SMs) take their places
  // before the reducer's single CTAs fill what is left. Reducers first broke cluster placement
  // (a GPC with a reducer on it has fewer SM pairs) and left GEMM clusters for a second wave:
  // fused 2.8x the GEMM with 16 reducers, 3.2x with 32 (H100 x2, 8192^3, 2026-11-26).
  cudaError_t err = cudaEventRecord(fork, stream);
  if (err == cudaSuccess)
    err = gemm_sm90_fused_variant<MajorA, MajorB, TileN, Stages, ClusterM>(gemm_sm90_reduce_scatter_gemm_arguments(args, tree), tree, stream);
  if (err == cudaSuccess) err = cudaStreamWaitEvent(side, fork);
  if (err == cudaSuccess) {
    const int world = tree.layout.world;
    if (world <= 2) reduce_scatter_pull_kernel<2, T, Child><<<comm, kReduceScatterPullThreads, 0, side>>>(tree);
    else if (world <= 4) reduce_scatter_pull_kernel<4, T, Child><<<comm, kReduceScatterPullThreads, 0, side>>>(tree);
    else reduce_scatter_pull_kernel<8, T, Child><<<comm, kReduceScatterPullThreads, 0, side>>>(tree);
    err = cudaGetLastError();
  }
  if (cudaError_t e = cudaEventRecord(join, side); err == cudaSuccess) err = e;
  if (cudaError_t e = cudaStreamWaitEvent(stream, join); err == cudaSuccess) err = e;
  if (own_events) cudaEventDestroy(fork), cudaEventDestroy(join);
  return err;
}

}  // namespace cute_dsl::kernels

#endif  // CUTE_DSL_HOST_ONLY_CODE && __CUDACC__
