// Fused all-gather + GEMM across the GPUs of one host, against GEMM alone, NCCL's all-gather alone
// and NCCL's all-gather followed by the GEMM, in one run, interleaved.
//
//   dist_gemm_ag [--world P] [--iters N] [--shape MxNxK]... [--json FILE]
//
// Column-parallel layer: rank r holds rows [r M/P, (r+1) M/P) of A (M x K) and B_r (N/P x K, its
// columns of the output); it computes D_r = A B_r^T (M x N/P) over the whole gathered A. bf16 in and
// out, f32 accumulation. One process per GPU (fork, NCCL communicator). Each timed op starts with a
// barrier across ranks; its time is the slowest rank's; the figure is the median over interleaved
// rounds (dist_bench_util.hpp).
// Correctness: the fused output against NCCL's all-gather then the GEMM of the same variant, bit
// for bit (the only claim: the same tiles, summed in the same order), and how many elements differ
// from the heuristic's GEMM (another variant may round differently).
#include <cuda_bf16.h>

#include <cute_dsl/epilogue/all_gather.hpp>
#include <cute_dsl/epilogue/epilogue.hpp>
#include <cute_dsl/kernels/gemm_sm90_all_gather.hpp>

#include <cstdio>
#include <cstring>
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
using dist_bench::check;
using dist_bench::Shape;
using T = __nv_bfloat16;

struct Result {
  double gemm_us, ag_us, ag_then_gemm_us, fused_us;
  double gemm_same_variant_us;  // the GEMM alone in the fused op's variant
  double fused_kernel_alone_us;  // the fused op's kernel alone (every piece already there: nothing waits)
  long long differ_same_variant, differ_heuristic, checked;
};

long long differing(T const* x, T const* y, long long n) {
  std::vector<T> a(n), b(n);
  check(cudaMemcpy(a.data(), x, sizeof(T) * n, cudaMemcpyDeviceToHost), "download");
  check(cudaMemcpy(b.data(), y, sizeof(T) * n, cudaMemcpyDeviceToHost), "download");
  long long count = 0;
  for (long long i = 0; i < n; ++i) count += std::memcmp(&a[i], &b[i], sizeof(T)) != 0;
  return count;
}

Result run_shape(dist::NcclSession& session, Shape s, int iters) {
  const int rank = session.rank(), world = session.world();
  if (s.m % world != 0 || s.n % world != 0)
    throw std::runtime_error("dist_gemm_ag: M and N must be multiples of the ranks (NCCL's all-gather splits evenly)");
  const int np = s.n / world;
  cudaStream_t stream;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  const long long mk = (long long)s.m * s.k, shard = mk / world, mn = (long long)s.m * np;
  T *gathered, *b, *d, *d_same, *d_fused;
  check(cudaMalloc(&gathered, sizeof(T) * mk), "cudaMalloc A");
  check(cudaMalloc(&b, sizeof(T) * (long long)np * s.k), "cudaMalloc B");
  check(cudaMalloc(&d, sizeof(T) * mn), "cudaMalloc D");
  check(cudaMalloc(&d_same, sizeof(T) * mn), "cudaMalloc D");
  check(cudaMalloc(&d_fused, sizeof(T) * mn), "cudaMalloc D");
  T* my_shard = gathered + rank * shard;  // NCCL's in-place all-gather
  dist_bench::fill_random<<<1024, 256, 0, stream>>>(my_shard, shard, 1000u + 2 * rank);
  dist_bench::fill_random<<<1024, 256, 0, stream>>>(b, (long long)np * s.k, 1001u + 2 * rank);

  const dist::AllGatherLayout layout{s.m, s.k, world, int(sizeof(T))};
  dist::SymmetricBuffer window(session, std::size_t(layout.bytes()));
  unsigned epoch = 0;
  {
    auto tree = ep::all_gather_a<T>(window.view(), layout, 1u, ep::acc());
    check(cudaMemcpyAsync(tree.shard(rank), my_shard, sizeof(T) * shard, cudaMemcpyDeviceToDevice, stream), "shard into the window");
  }
  check(cudaStreamSynchronize(stream), "fill");

  kn::GemmSm90Arguments<T, T> args{};
  args.shape = {s.m, np, s.k, 1};
  args.a = gathered, args.lda = s.k, args.batch_stride_a = mk;
  args.b = b, args.ldb = s.k, args.batch_stride_b = (long long)np * s.k;
  args.d = d, args.ldd = np, args.batch_stride_d = mn;

  auto gemm = [&] { check(kn::gemm_sm90_majors<GmmaMajor::K, GmmaMajor::K>(args, stream, {}), "gemm"); };
  auto gemm_same_variant = [&] {
    kn::GemmSm90Arguments<T, T> x = args;
    x.d = d_same;
    check(kn::gemm_sm90_majors<GmmaMajor::K, GmmaMajor::K>(x, stream, {256, 4, 2}), "gemm 256x4x2");
  };
  auto all_gather = [&] { check(ncclAllGather(my_shard, gathered, size_t(shard), ncclBfloat16, session.comm(), stream), "ncclAllGather"); };
  auto fused = [&] {
    auto tree = ep::all_gather_a<T>(window.view(), layout, ++epoch, ep::acc());
    kn::GemmSm90Arguments<T, T> x = args;
    x.d = d_fused;
    check(kn::gemm_sm90_all_gather<GmmaMajor::K, GmmaMajor::K, 256, 4, 2>(x, tree, stream), "fused all-gather + gemm");
  };
  // The fused op's kernel alone, to see what waiting for the pieces adds: the last launch's epoch
  // again, so every piece is already there and no tile waits.
  auto fused_kernel_alone = [&] {
    auto tree = kn::gemm_sm90_all_gather_tree<2>(ep::all_gather_a<T>(window.view(), layout, epoch, ep::acc()));
    kn::GemmSm90Arguments<T, T> x = args;
    x.d = d_fused;
    check(kn::gemm_sm90_fused_variant<GmmaMajor::K, GmmaMajor::K, 256, 4, 2>(kn::gemm_sm90_all_gather_gemm_arguments(x, tree), tree, stream),
          "fused kernel alone");
  };
  fused();  // an epoch for fused_kernel_alone from the start
  dist_bench::SlowestRankTimer time_once(session, stream);
  const std::vector<double> us = dist_bench::interleaved_medians(
      time_once, {gemm, gemm_same_variant, all_gather, [&] { all_gather(), gemm(); }, fused, fused_kernel_alone}, iters);
  Result r{};
  r.gemm_us = us[0], r.gemm_same_variant_us = us[1], r.ag_us = us[2], r.ag_then_gemm_us = us[3], r.fused_us = us[4];
  r.fused_kernel_alone_us = us[5];

  // A full fused launch last, then NCCL's all-gather and both GEMMs on its result.
  fused();
  all_gather(), gemm(), gemm_same_variant();
  check(cudaStreamSynchronize(stream), "sync");
  r.differ_same_variant = differing(d_fused, d_same, mn);
  r.differ_heuristic = differing(d_fused, d, mn);
  r.checked = mn;
  session.barrier(stream);
  check(cudaStreamSynchronize(stream), "sync");
  cudaFree(gathered), cudaFree(b), cudaFree(d), cudaFree(d_same), cudaFree(d_fused);
  cudaStreamDestroy(stream);
  return r;
}

}  // namespace

// Default shapes: 8192^3, and an MLP up-projection: 16384 tokens x 8192 hidden -> 28672, split along N.
int main(int argc, char** argv) {
  return dist_bench::run_benchmark(argc, argv, {{8192, 8192, 8192}, {16384, 28672, 8192}},
                                   [](dist::NcclSession& session, Shape s, int iters) {
    const int w = session.world();
    const Result r = run_shape(session, s, iters);
    const double tflops = 2.0 * s.m * (double(s.n) / w) * s.k / 1e6;  // per GPU, / us -> TFLOP/s
    const double best_alone = r.gemm_us > r.ag_us ? r.gemm_us : r.ag_us;
    char line[1024];
    std::snprintf(line, sizeof line,
                  "{\"world\": %d, \"m\": %d, \"n\": %d, \"k\": %d, \"gemm_us\": %.1f, \"all_gather_us\": %.1f, "
                  "\"all_gather_then_gemm_us\": %.1f, \"fused_us\": %.1f, \"fused_over_max_alone\": %.3f, "
                  "\"speedup_over_sequential\": %.3f, \"gemm_tflops_per_gpu\": %.1f, \"gemm_fused_variant_us\": %.1f, "
                  "\"fused_kernel_alone_us\": %.1f, \"elements_differing_same_variant\": %lld, "
                  "\"elements_differing_heuristic_gemm\": %lld, \"elements_checked\": %lld}",
                  w, s.m, s.n, s.k, r.gemm_us, r.ag_us, r.ag_then_gemm_us, r.fused_us, r.fused_us / best_alone,
                  r.ag_then_gemm_us / r.fused_us, tflops / r.gemm_us, r.gemm_same_variant_us, r.fused_kernel_alone_us,
                  r.differ_same_variant, r.differ_heuristic, r.checked);
    dist_bench::ShapeReport report{line, ""};
    if (r.differ_same_variant != 0)
      report.error = std::to_string(r.differ_same_variant) + " of " + std::to_string(r.checked) +
                     " elements differ from NCCL's all-gather then the same GEMM variant";
    return report;
  });
}
