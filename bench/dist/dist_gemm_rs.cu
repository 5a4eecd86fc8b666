// Fused GEMM + reduce-scatter and GEMM + all-reduce across the GPUs of one host, against GEMM
// alone, NCCL's collective alone and GEMM followed by NCCL's collective, in one run, interleaved.
//
//   dist_gemm_rs [--world P] [--iters N] [--shape MxNxK]... [--json FILE]
//
// Row-parallel layer: rank r holds A_r (M x K/P) and B_r (N x K/P); the output M x N = sum of the
// ranks' A_r B_r^T is reduce-scattered along M (rank r: rows [r M/P, (r+1) M/P)), or all-reduced
// (every rank: all of it). bf16 in and out, f32 accumulation. One process per GPU (fork, NCCL
// communicator). Each timed op starts with a barrier across ranks; its time is the slowest rank's;
// the figure is the median over interleaved rounds (dist_bench_util.hpp).
// Correctness: the fused outputs and GEMM-then-NCCL's, each against the exact-order-free reference
// (NCCL's collective in f32 of the same bf16 partials), as max |error| / max |reference|; the
// fused ones must stay within two bf16 roundings (2^-7: the output's, and the owner's partial,
// which a tile of own rows adds unrounded -- its product accumulates onto the peers' partials --
// where this reference has it rounded); and how many elements differ from NCCL's.
#include <cuda_bf16.h>

#include <cute_dsl/epilogue/epilogue.hpp>
#include <cute_dsl/epilogue/reduce_scatter.hpp>
#include <cute_dsl/kernels/gemm_sm90_reduce_scatter.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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

// One collective's figures: alone, after the GEMM, fused; the fused output and NCCL's against
// the f32 reference (max |x - reference| / max |reference|) and how many elements differ.
struct Collective {
  double alone_us, after_gemm_us, fused_us;
  double fused_err, nccl_err;
  long long differ, checked;
};

struct Result {
  double gemm_us;
  double gemm_same_variant_us;  // the GEMM alone in the fused op's variant
  double fused_kernel_alone_us;  // the fused reduce-scatter's kernel alone (its peers' chunks already there: no transfer, no wait)
  double ar_one_round_us, ar_three_rounds_us;  // the fused all-reduce in one round; in three
  double rs_two_rounds_us, rs_three_rounds_us;  // the fused reduce-scatter in two rounds; in three
  Collective rs, ar;
};

// Fills the error fields of `c`: `got` and `nccl` (bf16) against `exact` (f32), `count` elements.
void compare(T const* got, T const* nccl, float const* exact, long long count, Collective& c) {
  std::vector<T> n(count), g(count);
  std::vector<float> x(count);
  check(cudaMemcpy(n.data(), nccl, sizeof(T) * count, cudaMemcpyDeviceToHost), "download");
  check(cudaMemcpy(g.data(), got, sizeof(T) * count, cudaMemcpyDeviceToHost), "download");
  check(cudaMemcpy(x.data(), exact, sizeof(float) * count, cudaMemcpyDeviceToHost), "download");
  double scale = 0, fused_err = 0, nccl_err = 0;
  for (float v : x) scale = std::max(scale, std::abs(double(v)));
  c.differ = 0;
  for (long long i = 0; i < count; ++i) {
    if (std::memcmp(&n[i], &g[i], sizeof(T)) != 0) ++c.differ;
    const double f = std::abs(double(float(g[i])) - x[i]), e = std::abs(double(float(n[i])) - x[i]);
    fused_err = std::isnan(f) || f > fused_err ? (std::isnan(f) ? INFINITY : f) : fused_err;
    nccl_err = std::max(nccl_err, e);
  }
  c.fused_err = scale > 0 ? fused_err / scale : fused_err;
  c.nccl_err = scale > 0 ? nccl_err / scale : nccl_err;
  c.checked = count;
}

Result run_shape(dist::NcclSession& session, Shape s, int iters) {
  const int rank = session.rank(), world = session.world();
  if (s.m % world != 0 || s.k % world != 0)
    throw std::runtime_error("dist_gemm_rs: M and K must be multiples of the ranks (NCCL's reduce-scatter splits evenly)");
  const int kp = s.k / world;
  cudaStream_t stream;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  T *a, *b, *d, *rs_out, *ar_out, *out;
  const long long mn = (long long)s.m * s.n, shard = mn / world;
  check(cudaMalloc(&a, sizeof(T) * (long long)s.m * kp), "cudaMalloc A");
  check(cudaMalloc(&b, sizeof(T) * (long long)s.n * kp), "cudaMalloc B");
  check(cudaMalloc(&d, sizeof(T) * mn), "cudaMalloc D");
  check(cudaMalloc(&rs_out, sizeof(T) * shard), "cudaMalloc rs_out");
  check(cudaMalloc(&ar_out, sizeof(T) * mn), "cudaMalloc ar_out");
  check(cudaMalloc(&out, sizeof(T) * shard), "cudaMalloc out");
  dist_bench::fill_random<<<1024, 256, 0, stream>>>(a, (long long)s.m * kp, 1000u + 2 * rank);
  dist_bench::fill_random<<<1024, 256, 0, stream>>>(b, (long long)s.n * kp, 1001u + 2 * rank);
  check(cudaStreamSynchronize(stream), "fill");

  // One window per collective (the all-reduce's holds the result as well), each its own epochs.
  // DIST_BENCH_CHUNK_MIB: the chunk size every fused op aims at (default: the schedule's).
  const char* chunk_mib = std::getenv("DIST_BENCH_CHUNK_MIB");
  const long long chunk_bytes = chunk_mib != nullptr ? std::atoll(chunk_mib) << 20 : 0;
  const dist::ReduceScatterLayout layout{s.m, s.n, world, int(sizeof(T)), false, 0, chunk_bytes};
  const dist::ReduceScatterLayout ar_layout{s.m, s.n, world, int(sizeof(T)), true, 0, chunk_bytes};
  dist::SymmetricBuffer window(session, std::size_t(layout.bytes())), ar_window(session, std::size_t(ar_layout.bytes()));
  unsigned epoch = 0, ar_epoch = 0;
  unsigned one_round_epoch = 0;  // the last one-round launch's: its chunks are all there

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
  auto all_reduce = [&] { check(ncclAllReduce(d, ar_out, size_t(mn), ncclBfloat16, ncclSum, session.comm(), stream), "ncclAllReduce"); };
  auto fused = [&] {
    auto tree = ep::reduce_scatter(window.view(), layout, out, s.n, one_round_epoch = ++epoch, ep::acc());
    kn::GemmSm90Arguments<T, T> x = args;
    x.d = out;
    check(kn::gemm_sm90_reduce_scatter<GmmaMajor::K, GmmaMajor::K, 256, 4, 2>(x, tree, stream), "fused gemm + reduce-scatter");
  };
  auto fused_all_reduce = [&] {
    auto tree = ep::all_reduce<T>(ar_window.view(), ar_layout, ++ar_epoch, ep::acc());
    check(kn::gemm_sm90_reduce_scatter<GmmaMajor::K, GmmaMajor::K, 256, 4, 2>(args, tree, stream), "fused gemm + all-reduce");
  };
  // The all-reduce's round count against the model's: one round (every held row reduced, and
  // sent, after the foreign ones) and three (the fewest that spread the sending: a round's held
  // rows come a round late, so two rounds put both held parts last). Same window (its size does not depend on
  // them; epochs keep counting).
  dist::ReduceScatterLayout one_round_layout = ar_layout;
  one_round_layout.rounds = 1;
  auto fused_all_reduce_one_round = [&] {
    auto tree = ep::all_reduce<T>(ar_window.view(), one_round_layout, ++ar_epoch, ep::acc());
    check(kn::gemm_sm90_reduce_scatter<GmmaMajor::K, GmmaMajor::K, 256, 4, 2>(args, tree, stream), "fused gemm + all-reduce, one round");
  };
  dist::ReduceScatterLayout three_rounds_layout = ar_layout;
  three_rounds_layout.rounds = 3;
  auto fused_all_reduce_three_rounds = [&] {
    auto tree = ep::all_reduce<T>(ar_window.view(), three_rounds_layout, ++ar_epoch, ep::acc());
    check(kn::gemm_sm90_reduce_scatter<GmmaMajor::K, GmmaMajor::K, 256, 4, 2>(args, tree, stream), "fused gemm + all-reduce, three rounds");
  };

  // The reduce-scatter's rounds: with one, a rank's held rows wait for every peer's last foreign
  // chunk (its own rows come last in one peer's order); with more, each round's held rows wait
  // only for the previous round's.
  dist::ReduceScatterLayout two_rounds_rs = layout, three_rounds_rs = layout;
  two_rounds_rs.rounds = 2, three_rounds_rs.rounds = 3;
  auto fused_rounds = [&](const dist::ReduceScatterLayout& l, const char* what) {
    auto tree = ep::reduce_scatter(window.view(), l, out, s.n, ++epoch, ep::acc());
    kn::GemmSm90Arguments<T, T> x = args;
    x.d = out;
    check(kn::gemm_sm90_reduce_scatter<GmmaMajor::K, GmmaMajor::K, 256, 4, 2>(x, tree, stream), what);
  };

  dist_bench::SlowestRankTimer time_once(session, stream);
  // The fused op's kernel alone, to see what the transfers add: the last fused launch's epoch
  // again, so every peer's chunk is already there (arrived >= epoch) and nothing waits or moves
  // (the one-round launch's: launches in rounds number their chunks otherwise).
  auto fused_kernel_alone = [&] {
    auto tree = kn::gemm_sm90_reduce_scatter_tree<256, 2>(ep::reduce_scatter(window.view(), layout, out, s.n, one_round_epoch, ep::acc()));
    check(kn::gemm_sm90_fused_variant<GmmaMajor::K, GmmaMajor::K, 256, 4, 2>(kn::gemm_sm90_reduce_scatter_gemm_arguments(args, tree), tree,
                                                                             stream),
          "fused kernel alone");
  };
  fused();  // an epoch for fused_kernel_alone from the start
  const std::vector<double> us = dist_bench::interleaved_medians(
      time_once,
      {gemm, gemm_same_variant, reduce_scatter, [&] { gemm(), reduce_scatter(); }, fused, fused_kernel_alone, all_reduce,
       [&] { gemm(), all_reduce(); }, fused_all_reduce, fused_all_reduce_one_round, fused_all_reduce_three_rounds,
       [&] { fused_rounds(two_rounds_rs, "fused gemm + reduce-scatter, two rounds"); },
       [&] { fused_rounds(three_rounds_rs, "fused gemm + reduce-scatter, three rounds"); }},
      iters);
  Result r{};
  r.gemm_us = us[0], r.gemm_same_variant_us = us[1], r.fused_kernel_alone_us = us[5];
  r.rs.alone_us = us[2], r.rs.after_gemm_us = us[3], r.rs.fused_us = us[4];
  r.ar.alone_us = us[6], r.ar.after_gemm_us = us[7], r.ar.fused_us = us[8];
  r.ar_one_round_us = us[9], r.ar_three_rounds_us = us[10];
  r.rs_two_rounds_us = us[11], r.rs_three_rounds_us = us[12];
  // DIST_BENCH_TRACE=1: each fused op once more with a timeline of its copies (kernels::CommTrace), printed by rank 0.
  if (const char* t = std::getenv("DIST_BENCH_TRACE"); t != nullptr && *t == '1') {
    auto show = [&](const char* op, auto launch) {
      kn::CommTrace trace;
      session.barrier(stream);
      launch(&trace);
      check(cudaStreamSynchronize(stream), "sync");
      kn::CommTrace::Report report;
      check(trace.report(report), "trace report");
      if (rank != 0) return;
      std::printf("rank 0 trace %s %dx%dx%d world %d: GEMM ends at %.0f us\n", op, s.m, s.n, s.k, world, report.gemm_us);
      for (const auto& c : report.copies)
        std::printf("  %-8s peer %d segment %2d %6.2f MiB ready %7.1f done %7.1f us (%5.0f GB/s)\n", c.what, c.peer, c.segment,
                    c.bytes / 1048576.0, c.ready_us, c.done_us, c.bytes / std::max(1e-3, double(c.done_us - c.ready_us)) / 1e3);
    };
    show("reduce-scatter", [&](kn::CommTrace* trace) {
      auto tree = ep::reduce_scatter(window.view(), layout, out, s.n, ++epoch, ep::acc());
      kn::GemmSm90Arguments<T, T> x = args;
      x.d = out;
      check(kn::gemm_sm90_reduce_scatter<GmmaMajor::K, GmmaMajor::K, 256, 4, 2>(x, tree, stream, nullptr, nullptr, trace), "traced");
    });
    for (const dist::ReduceScatterLayout* l : std::vector<const dist::ReduceScatterLayout*>{&ar_layout, &one_round_layout, &three_rounds_layout})
      show(l->rounds == 1 ? "all-reduce, one round" : l->rounds == 3 ? "all-reduce, three rounds" : "all-reduce", [&](kn::CommTrace* trace) {
        auto tree = ep::all_reduce<T>(ar_window.view(), *l, ++ar_epoch, ep::acc());
        check(kn::gemm_sm90_reduce_scatter<GmmaMajor::K, GmmaMajor::K, 256, 4, 2>(args, tree, stream, nullptr, nullptr, trace), "traced");
      });
  }
  // Run the fused ops once more so that their outputs are a full launch's.
  fused(), fused_all_reduce();

  // The fused outputs and GEMM then NCCL's collective, against NCCL's collective in f32 of the
  // same bf16 partials.
  gemm(), reduce_scatter(), all_reduce();
  float *wide, *ref;
  check(cudaMalloc(&wide, sizeof(float) * mn), "cudaMalloc");
  check(cudaMalloc(&ref, sizeof(float) * mn), "cudaMalloc");
  widen<<<1024, 256, 0, stream>>>(d, wide, mn);
  check(ncclReduceScatter(wide, ref, size_t(shard), ncclFloat32, ncclSum, session.comm(), stream), "ncclReduceScatter f32");
  check(cudaStreamSynchronize(stream), "sync");
  compare(out, rs_out, ref, shard, r.rs);
  check(ncclAllReduce(wide, ref, size_t(mn), ncclFloat32, ncclSum, session.comm(), stream), "ncclAllReduce f32");
  check(cudaStreamSynchronize(stream), "sync");
  compare(ep::all_reduce<T>(ar_window.view(), ar_layout, 1u, ep::acc()).result(rank), ar_out, ref, mn, r.ar);
  cudaFree(wide), cudaFree(ref);
  session.barrier(stream);
  check(cudaStreamSynchronize(stream), "sync");
  cudaFree(a), cudaFree(b), cudaFree(d), cudaFree(rs_out), cudaFree(ar_out), cudaFree(out);
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
    char line[2048];
    std::snprintf(line, sizeof line,
                  "{\"world\": %d, \"m\": %d, \"n\": %d, \"k\": %d, \"gemm_us\": %.1f, \"gemm_tflops_per_gpu\": %.1f, "
                  "\"gemm_fused_variant_us\": %.1f, \"fused_kernel_alone_us\": %.1f, "
                  "\"reduce_scatter_us\": %.1f, \"gemm_then_reduce_scatter_us\": %.1f, \"fused_us\": %.1f, \"fused_over_max_alone\": %.3f, "
                  "\"speedup_over_sequential\": %.3f, \"fused_err\": %.2e, \"nccl_err\": %.2e, \"elements_differing_from_nccl\": %lld, "
                  "\"elements_checked\": %lld, "
                  "\"all_reduce_us\": %.1f, \"gemm_then_all_reduce_us\": %.1f, \"fused_all_reduce_us\": %.1f, "
                  "\"all_reduce_fused_over_max_alone\": %.3f, \"all_reduce_speedup_over_sequential\": %.3f, \"all_reduce_fused_err\": %.2e, "
                  "\"all_reduce_nccl_err\": %.2e, \"all_reduce_elements_differing_from_nccl\": %lld, \"all_reduce_elements_checked\": %lld, "
                  "\"fused_all_reduce_one_round_us\": %.1f, \"fused_all_reduce_three_rounds_us\": %.1f, "
                  "\"fused_two_rounds_us\": %.1f, \"fused_three_rounds_us\": %.1f}",
                  w, s.m, s.n, s.k, r.gemm_us, tflops / r.gemm_us, r.gemm_same_variant_us, r.fused_kernel_alone_us, r.rs.alone_us,
                  r.rs.after_gemm_us, r.rs.fused_us, r.rs.fused_us / std::max(r.gemm_us, r.rs.alone_us), r.rs.after_gemm_us / r.rs.fused_us,
                  r.rs.fused_err, r.rs.nccl_err, r.rs.differ, r.rs.checked, r.ar.alone_us, r.ar.after_gemm_us, r.ar.fused_us,
                  r.ar.fused_us / std::max(r.gemm_us, r.ar.alone_us), r.ar.after_gemm_us / r.ar.fused_us, r.ar.fused_err, r.ar.nccl_err,
                  r.ar.differ, r.ar.checked, r.ar_one_round_us, r.ar_three_rounds_us, r.rs_two_rounds_us, r.rs_three_rounds_us);
    // Every rank checks its own rows (reduce-scatter) and its whole result (all-reduce).
    dist_bench::ShapeReport report{line, ""};
    for (const Collective* c : {&r.rs, &r.ar})
      if (!(c->fused_err <= 1.0 / 128)) {
        char why[256];
        std::snprintf(why, sizeof why, "fused %s result off the f32 reference by %.3e of its largest value (NCCL's: %.3e)",
                      c == &r.rs ? "reduce-scatter" : "all-reduce", c->fused_err, c->nccl_err);
        report.error += why;
      }
    return report;
  });
}
