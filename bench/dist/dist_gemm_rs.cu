// Fused GEMM + reduce-scatter across the GPUs of one host, against GEMM alone, NCCL's
// reduce-scatter alone and GEMM followed by NCCL's reduce-scatter, in one run, interleaved.
//
//   dist_gemm_rs [--world P] [--iters N] [--shape MxNxK]... [--json FILE]
//
// Row-parallel layer: rank r holds A_r (M x K/P) and B_r (N x K/P); the output M x N = sum of the
// ranks' A_r B_r^T is reduce-scattered along M (rank r: rows [r M/P, (r+1) M/P)). bf16 in and out,
// f32 accumulation. One process per GPU (fork, NCCL communicator). Each timed op starts with a
// barrier across ranks; its time is the slowest rank's (CUDA events on each rank's stream, max
// over ranks through NCCL); the figure is the median over rounds (every round times each op
// once, in rotating order).
// Correctness: the fused output and GEMM-then-NCCL's, each against the exact-order-free reference
// (NCCL's reduce-scatter in f32 of the same bf16 partials), as max |error| / max |reference|; the
// fused one must stay within one bf16 rounding (2^-8); and how many elements differ from NCCL's.
#include <cuda_bf16.h>

#include <cute_dsl/epilogue/epilogue.hpp>
#include <cute_dsl/epilogue/reduce_scatter.hpp>
#include <cute_dsl/kernels/gemm_sm90_reduce_scatter.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "dist_bench_util.hpp"
#include "gemm_sm90_instances.hpp"

namespace {

namespace ep = cute_dsl::epilogue;
namespace dist = cute_dsl::dist;
namespace kn = cute_dsl::kernels;
using cute_dsl::GmmaMajor;
using T = __nv_bfloat16;

using dist_bench::check;
using dist_bench::Shape;

__global__ void widen(T const* in, float* out, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    out[i] = float(in[i]);
}

struct Result {
  double gemm_us, rs_us, gemm_then_rs_us, fused_us;
  double gemm_same_variant_us;  // the GEMM alone in the fused op's variant
  double fused_gemm_part_us;  // the fused op's kernel alone (its peers' chunks already there: no transfer, no wait)
  double fused_err, nccl_err;  // max |x - reference| / max |reference|
  long long differ, checked;
};

Result run_shape(dist::NcclSession& session, Shape s, int iters) {
  const int rank = session.rank(), world = session.world();
  if (s.m % world != 0 || s.k % world != 0)
    throw std::runtime_error("dist_gemm_rs: M and K must be multiples of the ranks (NCCL's reduce-scatter splits evenly)");
  const int kp = s.k / world;
  cudaStream_t stream;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  T *a, *b, *d, *rs_out, *out;
  const long long mn = (long long)s.m * s.n, shard = mn / world;
  check(cudaMalloc(&a, sizeof(T) * (long long)s.m * kp), "cudaMalloc A");
  check(cudaMalloc(&b, sizeof(T) * (long long)s.n * kp), "cudaMalloc B");
  check(cudaMalloc(&d, sizeof(T) * mn), "cudaMalloc D");
  check(cudaMalloc(&rs_out, sizeof(T) * shard), "cudaMalloc rs_out");
  check(cudaMalloc(&out, sizeof(T) * shard), "cudaMalloc out");
  dist_bench::fill_random<<<1024, 256, 0, stream>>>(a, (long long)s.m * kp, 1000u + 2 * rank);
  dist_bench::fill_random<<<1024, 256, 0, stream>>>(b, (long long)s.n * kp, 1001u + 2 * rank);
  check(cudaStreamSynchronize(stream), "fill");

  const dist::ReduceScatterLayout layout{s.m, s.n, world, int(sizeof(T))};
  dist::SymmetricBuffer window(session, std::size_t(layout.bytes()));
  unsigned epoch = 0;

  kn::GemmSm90Arguments<T, T> args{};
  args.shape = {s.m, s.n, kp, 1};
  args.a = a, args.lda = kp, args.batch_stride_a = (long long)s.m * kp;
  args.b = b, args.ldb = kp, args.batch_stride_b = (long long)s.n * kp;
  args.d = d, args.ldd = s.n, args.batch_stride_d = mn;

  auto gemm = [&] { check(kn::gemm_sm90_majors<GmmaMajor::K, GmmaMajor::K>(args, stream, {}), "gemm"); };
  // The variant the fused op runs (the heuristic may pick another for the GEMM alone).
  auto gemm_same_variant = [&] { check(kn::gemm_sm90_majors<GmmaMajor::K, GmmaMajor::K>(args, stream, {256, 4, 2}), "gemm 256x4x2"); };
  auto reduce_scatter = [&] {
    check(ncclReduceScatter(d, rs_out, size_t(shard), ncclBfloat16, ncclSum, session.comm(), stream), "ncclReduceScatter");
  };
  auto fused = [&] {
    auto tree = ep::reduce_scatter(window.view(), layout, out, s.n, ++epoch, ep::acc());
    kn::GemmSm90Arguments<T, T> x = args;
    x.d = out;
    check(kn::gemm_sm90_reduce_scatter<GmmaMajor::K, GmmaMajor::K, 256, 4, 2>(x, tree, stream), "fused gemm + reduce-scatter");
  };

  dist_bench::SlowestRankTimer time_once(session, stream);
  // The fused op's kernel alone, to see what the transfers add: the last fused launch's epoch
  // again, so every peer's chunk is already there (arrived >= epoch) and nothing waits or moves.
  auto fused_kernel_alone = [&] {
    auto tree = kn::gemm_sm90_reduce_scatter_tree<256, 2>(ep::reduce_scatter(window.view(), layout, out, s.n, epoch, ep::acc()));
    check(kn::gemm_sm90_fused_variant<GmmaMajor::K, GmmaMajor::K, 256, 4, 2>(kn::gemm_sm90_reduce_scatter_gemm_arguments(args, tree), tree,
                                                                             stream),
          "fused kernel alone");
  };
  fused();  // an epoch for fused_kernel_alone from the start
  const std::vector<double> us = dist_bench::interleaved_medians(
      time_once, {gemm, gemm_same_variant, reduce_scatter, [&] { gemm(), reduce_scatter(); }, fused, fused_kernel_alone}, iters);
  Result r{};
  r.gemm_us = us[0];
  r.gemm_same_variant_us = us[1];
  r.rs_us = us[2];
  r.gemm_then_rs_us = us[3];
  r.fused_us = us[4];
  r.fused_gemm_part_us = us[5];
  // Run the fused op once more so `out` is this epoch's result of a full launch.
  fused();
  check(cudaStreamSynchronize(stream), "sync");

  // The last fused output and GEMM then NCCL's reduce-scatter, against the f32 reference.
  gemm(), reduce_scatter();
  float *wide, *ref;
  check(cudaMalloc(&wide, sizeof(float) * mn), "cudaMalloc");
  check(cudaMalloc(&ref, sizeof(float) * shard), "cudaMalloc");
  widen<<<1024, 256, 0, stream>>>(d, wide, mn);
  check(ncclReduceScatter(wide, ref, size_t(shard), ncclFloat32, ncclSum, session.comm(), stream), "ncclReduceScatter f32");
  check(cudaStreamSynchronize(stream), "sync");
  std::vector<T> nccl(shard), got(shard);
  std::vector<float> exact(shard);
  check(cudaMemcpy(nccl.data(), rs_out, sizeof(T) * shard, cudaMemcpyDeviceToHost), "download");
  check(cudaMemcpy(got.data(), out, sizeof(T) * shard, cudaMemcpyDeviceToHost), "download");
  check(cudaMemcpy(exact.data(), ref, sizeof(float) * shard, cudaMemcpyDeviceToHost), "download");
  cudaFree(wide), cudaFree(ref);
  double scale = 0, fused_err = 0, nccl_err = 0;
  for (float x : exact) scale = std::max(scale, std::abs(double(x)));
  for (long long i = 0; i < shard; ++i) {
    if (std::memcmp(&nccl[i], &got[i], sizeof(T)) != 0) ++r.differ;
    const double f = std::abs(double(float(got[i])) - exact[i]), n = std::abs(double(float(nccl[i])) - exact[i]);
    fused_err = std::isnan(f) || f > fused_err ? (std::isnan(f) ? INFINITY : f) : fused_err;
    nccl_err = std::max(nccl_err, n);
  }
  r.fused_err = scale > 0 ? fused_err / scale : fused_err;
  r.nccl_err = scale > 0 ? nccl_err / scale : nccl_err;
  r.checked = shard;
  session.barrier(stream);
  cudaFree(a), cudaFree(b), cudaFree(d), cudaFree(rs_out), cudaFree(out);
  cudaStreamDestroy(stream);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  return dist_bench::run_benchmark(argc, argv, {{8192, 8192, 8192}, {16384, 8192, 28672}},
                                   [](dist::NcclSession& session, Shape s, int iters) {
    const int w = session.world();
    const Result r = run_shape(session, s, iters);
    const double tflops = 2.0 * s.m * s.n * (double)s.k / w / 1e6;  // per GPU, / us -> TFLOP/s
    const double best_alone = std::max(r.gemm_us, r.rs_us);
    char line[1024];
    std::snprintf(line, sizeof line,
                  "{\"world\": %d, \"m\": %d, \"n\": %d, \"k\": %d, \"gemm_us\": %.1f, \"reduce_scatter_us\": %.1f, "
                  "\"gemm_then_reduce_scatter_us\": %.1f, \"fused_us\": %.1f, \"fused_over_max_alone\": %.3f, "
                  "\"speedup_over_sequential\": %.3f, \"gemm_tflops_per_gpu\": %.1f, \"gemm_fused_variant_us\": %.1f, \"fused_kernel_alone_us\": %.1f, \"fused_err\": %.2e, "
                  "\"nccl_err\": %.2e, \"elements_differing_from_nccl\": %lld, \"elements_checked\": %lld}",
                  w, s.m, s.n, s.k, r.gemm_us, r.rs_us, r.gemm_then_rs_us, r.fused_us, r.fused_us / best_alone,
                  r.gemm_then_rs_us / r.fused_us, tflops / r.gemm_us, r.gemm_same_variant_us, r.fused_gemm_part_us, r.fused_err, r.nccl_err, r.differ, r.checked);
    // Every rank checks its own shard.
    dist_bench::ShapeReport report{line, ""};
    if (!(r.fused_err <= 1.0 / 256)) {
      char why[256];
      std::snprintf(why, sizeof why, "fused result off the f32 reference by %.3e of its largest value (NCCL's: %.3e)", r.fused_err, r.nccl_err);
      report.error = why;
    }
    return report;
  });
}
