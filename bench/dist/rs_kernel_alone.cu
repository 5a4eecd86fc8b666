// The fused GEMM + reduce-scatter's KERNEL on one GPU, against the plain GEMM of the same variant:
// what the routing (stores into the window, publishing, the hand-off barrier) and the ring
// sources of own tiles cost the GEMM itself, with no transfer and no wait. No NCCL, one GPU, no
// concurrent kernels, so it runs under ncu and on the one-GPU machines.
//
//   rs_kernel_alone [--world P] [--shape MxNxK] [--iters N] [--once]
//
// Rank 0 of `world`: its window's flags all say epoch 1 (every peer's chunk "arrived"; the peers'
// partials in `received` are zeros, so the output is meaningless -- this is a timing tool; the
// protocol is checked by test/dist), and its fused kernel alone, with the whole GPU, is timed
// against the plain GEMM of the same variant (256 x 4 x 2), K = K / P per rank like dist_gemm_rs.
// CUDA events, medians of interleaved rounds. --once: each kernel once, untimed (for ncu: the
// fused kernel, then the plain one).
#include <cuda_bf16.h>

#include <cute_dsl/epilogue/epilogue.hpp>
#include <cute_dsl/epilogue/reduce_scatter.hpp>
#include <cute_dsl/kernels/gemm_sm90_reduce_scatter.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "dist_fill.hpp"
#include "gemm_sm90_instances.hpp"

namespace {

namespace ep = cute_dsl::epilogue;
namespace dist = cute_dsl::dist;
namespace kn = cute_dsl::kernels;
using cute_dsl::GmmaMajor;
using T = __nv_bfloat16;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

__global__ void fill_words(unsigned* p, long long n, unsigned value) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) p[i] = value;
}

struct Options {
  int world = 2, m = 8192, n = 8192, k = 8192, iters = 20;
  bool once = false;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--world" && has_value) o.world = std::atoi(argv[++i]);
    else if (a == "--iters" && has_value) o.iters = std::atoi(argv[++i]);
    else if (a == "--shape" && has_value && std::sscanf(argv[++i], "%dx%dx%d", &o.m, &o.n, &o.k) == 3) continue;
    else if (a == "--once") o.once = true;
    else throw std::runtime_error("rs_kernel_alone: unknown or incomplete option '" + a + "' (--world P --shape MxNxK --iters N --once)");
  }
  if (o.world < 2 || o.world > dist::kMaxRanks || o.m % o.world != 0 || o.k % o.world != 0 || o.iters < 1)
    throw std::runtime_error("rs_kernel_alone: world in [2, " + std::to_string(dist::kMaxRanks) + "], M and K multiples of it, iters >= 1");
  return o;
}

int run(const Options& o) {
  const int world = o.world, kp = o.k / world;
  const dist::ReduceScatterLayout layout{o.m, o.n, world, int(sizeof(T))};
  const long long mn = (long long)o.m * o.n;
  T *a, *b, *d, *out;
  char* window;
  check(cudaMalloc(&a, sizeof(T) * (long long)o.m * kp), "cudaMalloc A");
  check(cudaMalloc(&b, sizeof(T) * (long long)o.n * kp), "cudaMalloc B");
  check(cudaMalloc(&d, sizeof(T) * mn), "cudaMalloc D");
  check(cudaMalloc(&out, sizeof(T) * mn / world), "cudaMalloc out");
  check(cudaMalloc(&window, std::size_t(layout.bytes())), "cudaMalloc window");
  check(cudaMemset(window, 0, std::size_t(layout.bytes())), "cudaMemset window");
  // Every flag word (done, counters, arrived: the window's first received_offset() bytes) = 1.
  fill_words<<<64, 256>>>(reinterpret_cast<unsigned*>(window), layout.received_offset() / 4, 1u);
  dist_bench::fill_random<<<1024, 256>>>(a, (long long)o.m * kp, 1000u);
  dist_bench::fill_random<<<1024, 256>>>(b, (long long)o.n * kp, 1001u);
  cudaStream_t stream;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream");
  check(cudaDeviceSynchronize(), "fill");
  kn::GemmSm90Arguments<T, T> args{};
  args.shape = {o.m, o.n, kp, 1};
  args.a = a, args.lda = kp, args.batch_stride_a = (long long)o.m * kp;
  args.b = b, args.ldb = kp, args.batch_stride_b = (long long)o.n * kp;
  args.d = d, args.ldd = o.n, args.batch_stride_d = mn;
  dist::SymmetricView view{};
  for (int s = 0; s < world; ++s) view.base[s] = window;  // the kernel touches only its own copy
  view.rank = 0, view.world = world;

  auto plain = [&] { check(kn::gemm_sm90_majors<GmmaMajor::K, GmmaMajor::K>(args, stream, {256, 4, 2}), "plain gemm 256x4x2"); };
  auto fused_alone = [&] {
    auto tree = kn::gemm_sm90_reduce_scatter_tree<256, 2>(ep::reduce_scatter(view, layout, out, o.n, 1u, ep::acc()));
    check(kn::gemm_sm90_fused_variant<GmmaMajor::K, GmmaMajor::K, 256, 4, 2>(kn::gemm_sm90_reduce_scatter_gemm_arguments(args, tree), tree,
                                                                             stream),
          "fused kernel alone");
  };
  if (o.once) {
    fused_alone(), plain();
    check(cudaStreamSynchronize(stream), "sync");
    std::printf("{\"world\": %d, \"m\": %d, \"n\": %d, \"k\": %d, \"once\": true}\n", world, o.m, o.n, o.k);
    return 0;
  }
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "event"), check(cudaEventCreate(&stop), "event");
  const std::vector<std::function<void()>> ops{plain, fused_alone};
  std::vector<std::vector<double>> us(ops.size());
  for (int round = 0; round < o.iters + 3; ++round)
    for (std::size_t j = 0; j < ops.size(); ++j) {
      const std::size_t op = (j + std::size_t(round)) % ops.size();
      check(cudaEventRecord(start, stream), "record");
      ops[op]();
      check(cudaEventRecord(stop, stream), "record");
      check(cudaEventSynchronize(stop), "sync");
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start, stop), "elapsed");
      if (round >= 3) us[op].push_back(ms * 1e3);
    }
  double median[2];
  for (int i = 0; i < 2; ++i) std::sort(us[i].begin(), us[i].end()), median[i] = us[i][us[i].size() / 2];
  std::printf("{\"world\": %d, \"m\": %d, \"n\": %d, \"k\": %d, \"plain_us\": %.1f, \"fused_kernel_alone_us\": %.1f, \"ratio\": %.3f}\n", world,
              o.m, o.n, o.k, median[0], median[1], median[1] / median[0]);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ERROR: %s\n", e.what());
    return 1;
  }
}
