// The fused GEMM + reduce-scatter (epilogue/reduce_scatter.hpp) on ONE GPU: `world` simulated
// ranks, each a GEMM (own stream) and its copy-engine transfers (own side stream) with its own
// slice of K, sharing the GPU's SMs (max_ctas = (SMs - 8) / world, so every rank's CTAs are
// resident at once and really wait on each other, with SMs to spare should the driver run a
// same-device copy as a kernel); each rank's "peer memory" is the other ranks' buffers on the
// same GPU. The protocol (tile counters, stream waits, copies, arrival and done flags across
// launches) is the one the multi-GPU run uses; only the mapping differs (NCCL windows there,
// plain allocations here).
//
// Expected result: the plain GEMM of each rank (same variant: the same accumulators) rounded to
// T, summed per row on the host in the node's order (the owner's partial, then the others in rank
// order, in f32), rounded to T -- bit for bit, the way a stored tile is reduced. A 16-bit tile of
// own rows that takes its peers' partials through the operand ring accumulates the owner's
// product onto their sum instead (its partial never rounded to T): such values must lie within
// one rounding of T of the exact sum (the owner's f32 accumulators, from the same GEMM with an f32
// D, plus the peers' T partials). The all-reduce cases (epilogue::all_reduce) run the same
// launches with a second side stream per rank and check every row of every rank's result.
#include <cuda_bf16.h>

#include <cute_dsl/epilogue/epilogue.hpp>
#include <cute_dsl/epilogue/reduce_scatter.hpp>
#include <cute_dsl/kernels/gemm_sm90_reduce_scatter.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <memory>
#include <type_traits>
#include <vector>

#include "gemm_sm90_instances.hpp"
#include "gpu_test.cuh"

namespace {

// Every simulated rank has two streams, and a stream that waits on memory (the copy engine's
// side) blocks whatever shares its hardware queue: with CUDA's default 8 queues, 8 ranks' 16
// streams hung (H100, 2026-11-26). Set before CUDA starts (static initialisation), unless the
// environment says otherwise. One process per GPU, as in the real run, needs 2.
const bool kEnoughHardwareQueues = setenv("CUDA_DEVICE_MAX_CONNECTIONS", "32", 0) == 0;

namespace ep = cute_dsl::epilogue;
namespace dist = cute_dsl::dist;
namespace kn = cute_dsl::kernels;
using cute_dsl::GmmaMajor;
using cute_dsl_test::DeviceBuffer;
using TA = __nv_bfloat16;  // A and B; the output (and the partials) are T

struct Case {
  int m, n, k_per_rank, world, launches;
  int rounds = 0;  // the schedule's (ReduceScatterLayout::rounds): 0 chooses
  bool trace = false;  // rank 0's last launch with a kernels::CommTrace, checked against the bytes it must send
};

// AllReduce: the same launches built with epilogue::all_reduce; every rank's result (in its
// window) must then hold every row's sum, bit for bit the owner's. (TileN, Stages, ClusterM): the
// GEMM variant, of the fused launches and of the partials they are checked against.
template <class T = __nv_bfloat16, bool AllReduce = false, int TileN = 128, int Stages = 6, int ClusterM = 1>
void run_case(Case c) {
  CUTE_DSL_REQUIRE_GPU(90);
  int sms = 0;
  CUTE_DSL_TEST_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const std::uint32_t seed = cute_dsl_test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + ", M " + std::to_string(c.m) + ", N " + std::to_string(c.n) + ", world " +
               std::to_string(c.world) + ", rounds " + std::to_string(c.rounds));
  const dist::ReduceScatterLayout layout{c.m, c.n, c.world, int(sizeof(T)), AllReduce, c.rounds};
  const dist::RowOwners owners = layout.owners();
  const int k = c.k_per_rank;

  std::vector<std::unique_ptr<DeviceBuffer<TA>>> a, b;
  std::vector<std::unique_ptr<DeviceBuffer<T>>> partial, out;
  std::vector<std::unique_ptr<DeviceBuffer<char>>> window;
  std::vector<cudaStream_t> streams(c.world), comm_streams(c.world), result_streams(c.world);
  for (int r = 0; r < c.world; ++r) {
    std::vector<TA> ha, hb;
    for (float x : cute_dsl_test::random_vector<float>(std::size_t(c.m) * k, seed + 2 * r)) ha.push_back(TA(x));
    for (float x : cute_dsl_test::random_vector<float>(std::size_t(c.n) * k, seed + 2 * r + 1)) hb.push_back(TA(x));
    a.push_back(std::make_unique<DeviceBuffer<TA>>(ha.size()));
    b.push_back(std::make_unique<DeviceBuffer<TA>>(hb.size()));
    CUTE_DSL_TEST_CUDA(a[r]->upload(ha));
    CUTE_DSL_TEST_CUDA(b[r]->upload(hb));
    partial.push_back(std::make_unique<DeviceBuffer<T>>(std::size_t(c.m) * c.n));
    out.push_back(std::make_unique<DeviceBuffer<T>>(std::size_t(owners.rows(r) > 0 ? owners.rows(r) : 1) * c.n));
    window.push_back(std::make_unique<DeviceBuffer<char>>(std::size_t(layout.bytes())));
    CUTE_DSL_TEST_CUDA(window[r]->poison(0));
    CUTE_DSL_TEST_CUDA(cudaStreamCreateWithFlags(&streams[r], cudaStreamNonBlocking));
    CUTE_DSL_TEST_CUDA(cudaStreamCreateWithFlags(&comm_streams[r], cudaStreamNonBlocking));
    CUTE_DSL_TEST_CUDA(cudaStreamCreateWithFlags(&result_streams[r], cudaStreamNonBlocking));
  }
  auto args = [&](int r, T* d) {
    kn::GemmSm90Arguments<TA, T> x{};
    x.shape = {c.m, c.n, k, 1};
    x.a = a[r]->get(), x.lda = k, x.batch_stride_a = std::int64_t(c.m) * k;
    x.b = b[r]->get(), x.ldb = k, x.batch_stride_b = std::int64_t(c.n) * k;
    x.d = d, x.ldd = c.n, x.batch_stride_d = std::int64_t(c.m) * c.n;
    return x;
  };
  // Each rank's partial product, with the variant the fused launches use.
  const kn::GemmSm90Config config{TileN, Stages, ClusterM};
  for (int r = 0; r < c.world; ++r) CUTE_DSL_TEST_CUDA((kn::gemm_sm90_majors<GmmaMajor::K, GmmaMajor::K>(args(r, partial[r]->get()), nullptr, config)));
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<std::vector<T>> hp(c.world);
  for (int r = 0; r < c.world; ++r) CUTE_DSL_TEST_CUDA(partial[r]->download(hp[r]));
  // The owners' unrounded partials (f32 D, same variant), for the ring's order of summation.
  std::vector<std::vector<float>> hp32(c.world);
  if constexpr (sizeof(T) == 2) {
    DeviceBuffer<float> partial32(std::size_t(c.m) * c.n);
    for (int r = 0; r < c.world; ++r) {
      kn::GemmSm90Arguments<TA, float> x{};
      const auto a16 = args(r, nullptr);
      x.shape = a16.shape, x.a = a16.a, x.lda = a16.lda, x.batch_stride_a = a16.batch_stride_a;
      x.b = a16.b, x.ldb = a16.ldb, x.batch_stride_b = a16.batch_stride_b;
      x.d = partial32.get(), x.ldd = c.n, x.batch_stride_d = std::int64_t(c.m) * c.n;
      CUTE_DSL_TEST_CUDA((kn::gemm_sm90_majors<GmmaMajor::K, GmmaMajor::K>(x, nullptr, config)));
      CUTE_DSL_TEST_CUDA(partial32.download(hp32[r]));
    }
  }
  // 16-bit T: one rounding of T (half its ulp, relative) plus slack for the f32 sums' order.
  const float rounding = sizeof(T) == 2 ? (std::is_same_v<T, __half> ? 0x1p-11f : 0x1p-8f) * 1.01f : 0.f;

  kn::CommTrace trace;
  for (int launch = 1; launch <= c.launches; ++launch) {
    for (int r = 0; r < c.world; ++r) {
      CUTE_DSL_TEST_CUDA(out[r]->poison(0xFF));
      if (AllReduce)  // every row of every result must be written again
        CUTE_DSL_TEST_CUDA(cudaMemset(window[r]->get() + layout.result_offset(), 0xFF, sizeof(T) * std::size_t(c.m) * c.n));
    }
    CUTE_DSL_TEST_CUDA(cudaDeviceSynchronize());
    std::vector<T*> results(c.world);
    for (int r = 0; r < c.world; ++r) {
      dist::SymmetricView view{};
      for (int s = 0; s < c.world; ++s) view.base[s] = window[s]->get();
      view.rank = r, view.world = c.world;
      auto tree = AllReduce ? ep::all_reduce<T>(view, layout, unsigned(launch), ep::acc())
                            : ep::reduce_scatter(view, layout, out[r]->get(), c.n, unsigned(launch), ep::acc());
      tree.max_ctas = (sms - 8) / c.world;
      results[r] = tree.result(r);
      kn::CommTrace* traced = c.trace && r == 0 && launch == c.launches ? &trace : nullptr;
      CUTE_DSL_TEST_CUDA((kn::gemm_sm90_reduce_scatter<GmmaMajor::K, GmmaMajor::K, TileN, Stages, ClusterM>(
          args(r, out[r]->get()), tree, streams[r], comm_streams[r], result_streams[r], traced)));
    }
    CUTE_DSL_TEST_LAUNCHED();
    if (c.trace && launch == c.launches) {
      // Rank 0 sends every row it does not own to its owner once, and (all-reduce) its own rows
      // to every peer once; each copy starts after the GEMM's start and ends after it starts.
      kn::CommTrace::Report report;
      CUTE_DSL_TEST_CUDA(trace.report(report));
      EXPECT_GT(report.gemm_us, 0.f);
      std::size_t partials = 0, results_sent = 0;
      for (const auto& copy : report.copies) {
        EXPECT_GE(copy.ready_us, 0.f);
        EXPECT_GE(copy.done_us, copy.ready_us);
        EXPECT_NE(copy.peer, 0);
        (std::string(copy.what) == "result" ? results_sent : partials) += copy.bytes;
      }
      EXPECT_EQ(partials, std::size_t(c.m - owners.rows(0)) * c.n * sizeof(T));
      EXPECT_EQ(results_sent, AllReduce ? std::size_t(owners.rows(0)) * c.n * sizeof(T) * (c.world - 1) : 0u);
    }
    for (int r = 0; r < c.world; ++r) {
      // Reduce-scatter: this rank's rows in `out`; all-reduce: every row in its result.
      std::vector<T> got(std::size_t(c.m) * c.n);
      if (AllReduce) CUTE_DSL_TEST_CUDA(cudaMemcpy(got.data(), results[r], sizeof(T) * got.size(), cudaMemcpyDeviceToHost));
      else CUTE_DSL_TEST_CUDA(out[r]->download(got));
      const int first = AllReduce ? 0 : owners.begin(r), last = AllReduce ? c.m : owners.begin(r + 1);
      int bad = 0;
      for (int row = first; row < last; ++row)
        for (int col = 0; col < c.n; ++col) {
          const std::size_t e = std::size_t(row) * c.n + col;
          const int owner = owners.owner(row);  // the sum starts from the owner's partial
          float want = float(hp[owner][e]);
          for (int s = 0; s < c.world; ++s)
            if (s != owner) want += float(hp[s][e]);
          const T w = T(want), g = got[std::size_t(row - first) * c.n + col];
          if (std::memcmp(&w, &g, sizeof(T)) == 0) continue;
          if constexpr (sizeof(T) == 2) {  // the ring's order: the owner's f32 partial onto the peers' sum
            float exact = hp32[owner][e], size = std::fabs(exact);
            for (int s = 0; s < c.world; ++s)
              if (s != owner) exact += float(hp[s][e]), size += std::fabs(float(hp[s][e]));
            // + the f32 sums' order (the wgmma's accumulation onto a non-zero start): 2^-14 of the
            // terms' magnitudes, far below a missing or doubled partial.
            if (std::fabs(float(g) - exact) <= rounding * std::fabs(exact) + 0x1p-14f * size) continue;
          }
          if (++bad <= 5)
            ADD_FAILURE() << "launch " << launch << ", rank " << r << ", D(" << row << ", " << col << ") = " << float(g)
                          << ", expected " << float(w);
        }
      EXPECT_EQ(bad, 0) << "launch " << launch << ", rank " << r;
    }
  }
  for (cudaStream_t s : streams) cudaStreamDestroy(s);
  for (cudaStream_t s : comm_streams) cudaStreamDestroy(s);
  for (cudaStream_t s : result_streams) cudaStreamDestroy(s);
}

// Which routed trees take the peers' partials through the operand ring (their product then
// accumulates onto the peers' sum): acc() itself, 16-bit D, cooperative 128-row TMA variants. A
// child that transforms the partial would be applied to the sum: such trees take the stored way.
using RoutedAcc = decltype(ep::reduce_scatter(dist::SymmetricView{}, dist::ReduceScatterLayout{}, static_cast<__nv_bfloat16*>(nullptr),
                                              0, 1u, ep::acc()));
using RoutedScaled = decltype(ep::reduce_scatter(dist::SymmetricView{}, dist::ReduceScatterLayout{},
                                                 static_cast<__nv_bfloat16*>(nullptr), 0, 1u, ep::acc() * ep::scalar(2.f)));
using RoutedF32 = decltype(ep::reduce_scatter(dist::SymmetricView{}, dist::ReduceScatterLayout{}, static_cast<float*>(nullptr), 0, 1u,
                                              ep::acc()));
static_assert(kn::gemm_sm90_impl::kTakesRingSources<RoutedAcc, __nv_bfloat16, 128, false, true>);
static_assert(!kn::gemm_sm90_impl::kTakesRingSources<RoutedScaled, __nv_bfloat16, 128, false, true>);
static_assert(!kn::gemm_sm90_impl::kTakesRingSources<RoutedF32, float, 128, false, true>);
static_assert(!kn::gemm_sm90_impl::kTakesRingSources<RoutedAcc, __nv_bfloat16, 64, false, true>);
static_assert(!kn::gemm_sm90_impl::kTakesRingSources<RoutedAcc, __nv_bfloat16, 128, true, true>);

// The launcher's refusals, on the host (no GPU needed): each names the rule.
TEST(ReduceScatterArguments, RefusedWithTheRuleTheyBreak) {
  alignas(16) static char copies[2][1 << 16];  // each rank's window (the partial: 128 x 64 bf16)
  using T = __nv_bfloat16;
  alignas(16) static T out[64 * 64], a[128 * 64], b[64 * 64];
  dist::SymmetricView view{};
  view.base[0] = copies[0], view.base[1] = copies[1], view.rank = 1, view.world = 2;
  const dist::ReduceScatterLayout layout{128, 64, 2, int(sizeof(T))};
  ASSERT_LE(layout.bytes(), (long long)sizeof(copies[0]));
  kn::GemmSm90Arguments<T, T> args{};
  args.shape = {128, 64, 64, 1};
  args.a = a, args.lda = 64, args.b = b, args.ldb = 64, args.d = out, args.ldd = 64;
  auto tree = ep::reduce_scatter(view, layout, out, 64, 1u, ep::acc());
  EXPECT_EQ(kn::gemm_sm90_reduce_scatter_unsupported(args, tree), "");
  auto why = [&](auto change) {
    auto x = args;
    auto t = tree;
    change(x, t);
    return kn::gemm_sm90_reduce_scatter_unsupported(x, t);
  };
  EXPECT_NE(why([](auto& x, auto&) { x.shape.m = 256; }).find("M x N must be the GEMM's"), std::string::npos);
  EXPECT_NE(why([](auto& x, auto&) { x.shape.l = 2; }).find("one batch"), std::string::npos);
  EXPECT_NE(why([](auto&, auto& t) { t.window.rank = 2; }).find("rank / world"), std::string::npos);
  EXPECT_NE(why([](auto&, auto& t) { t.layout.element_bytes = 4; }).find("element size"), std::string::npos);
  EXPECT_NE(why([](auto&, auto& t) { t.epoch = 0; }).find("epochs count from 1"), std::string::npos);
  EXPECT_NE(why([](auto&, auto& t) { t.ldo = 8; }).find("ldo >= N"), std::string::npos);
  EXPECT_NE(why([](auto&, auto& t) { t.window.base[0] = nullptr; }).find("no mapping of rank 0"), std::string::npos);
  EXPECT_NE(why([](auto& x, auto&) { x.beta = 1.f; }).find("beta must be 0"), std::string::npos);
  // An all-reduce whose out is not the window's result rows (a reduce-scatter tree with the flag
  // set by hand): its peers would never see them.
  EXPECT_NE(why([](auto&, auto& t) { t.layout.all_reduce = true; }).find("epilogue::all_reduce"), std::string::npos);
  auto stale = tree;
  stale.epoch = 0;
  const cudaError_t refused = kn::gemm_sm90_reduce_scatter<GmmaMajor::K, GmmaMajor::K, 128, 6, 1>(args, stale);
  EXPECT_EQ(refused, cudaErrorInvalidValue);  // refused before touching the device
  // The routed kernel launched directly needs the schedule of its own variant (the launcher fills
  // it: gemm_sm90_reduce_scatter_tree): without one, or with another variant's, refused too --
  // and for that reason alone: the arguments pass every other check of the launch.
  const auto routed = kn::gemm_sm90_reduce_scatter_gemm_arguments(args, tree);
  ASSERT_TRUE(kn::gemm_sm90_tma_describable(routed));
  ASSERT_EQ(kn::gemm_sm90_fused_unsupported(routed), "");
  EXPECT_EQ((kn::gemm_sm90_fused_variant<GmmaMajor::K, GmmaMajor::K, 128, 6, 1>(routed, tree)), cudaErrorInvalidValue);
  EXPECT_EQ((kn::gemm_sm90_fused_variant<GmmaMajor::K, GmmaMajor::K, 128, 6, 1>(routed, kn::gemm_sm90_reduce_scatter_tree<256, 2>(tree))),
            cudaErrorInvalidValue);
  EXPECT_EQ((kn::gemm_sm90_reduce_scatter_tree<128, 1>(tree).schedule.tile_rows), 128);
}

TEST(ReduceScatterOneGpu, TwoRanksAlignedShapeThreeLaunches) { run_case({2048, 1024, 512, 2, 3}); }
TEST(ReduceScatterOneGpu, FourRanksRowsStraddleOwnersAndRaggedEdges) { run_case({1000, 520, 256, 4, 2}); }
TEST(ReduceScatterOneGpu, EightRanksFewerTileRowsThanRanks) { run_case({200, 384, 128, 8, 2}); }
// N not a multiple of 8: rows of 2-byte elements off 16 bytes, so the epilogue stores directly and
// the owner adds element by element.
TEST(ReduceScatterOneGpu, TwoRanksRowsOff16Bytes) { run_case({300, 250, 128, 2, 2}); }
// f32 output and partials: the direct epilogue stores, every own tile reduced after it is stored
// (the 16-bit fast path does not apply), 16-byte pieces of 4 floats.
TEST(ReduceScatterOneGpu, ThreeRanksF32Output) { run_case<float>({520, 264, 192, 3, 2}); }

// All-reduce: the same protocol, then each owner's reduced rows to every rank (a second side stream).
TEST(AllReduceOneGpu, TwoRanksAlignedShapeThreeLaunches) { run_case<__nv_bfloat16, true>({2048, 1024, 512, 2, 3}); }
TEST(AllReduceOneGpu, FourRanksRowsStraddleOwnersAndRaggedEdges) { run_case<__nv_bfloat16, true>({1000, 520, 256, 4, 2}); }
TEST(AllReduceOneGpu, EightRanksFewerTileRowsThanRanks) { run_case<__nv_bfloat16, true>({200, 384, 128, 8, 2}); }
TEST(AllReduceOneGpu, ThreeRanksF32Output) { run_case<float, true>({520, 264, 192, 3, 2}); }
// Rounds (dist/reduce_scatter_schedule.hpp): each round's held rows reduced, and sent to every
// peer, while later rounds still run; whole-row chunks of 16 MiB.
TEST(AllReduceOneGpu, TwoRanksTwoRoundsWholeRowChunks) { run_case<__nv_bfloat16, true>({16384, 2048, 64, 2, 2, 2}); }
// Rounds forced on small shapes: owners off tiles (held rows of two keys per round), sub-groups
// of unequal and empty size, 3 and 4 rounds.
TEST(AllReduceOneGpu, FourRanksThreeRoundsRowsStraddleOwners) { run_case<__nv_bfloat16, true>({1000, 520, 256, 4, 2, 3, true}); }
TEST(AllReduceOneGpu, ThreeRanksFourRoundsF32Output) { run_case<float, true>({1300, 264, 192, 3, 2, 4}); }
TEST(ReduceScatterOneGpu, ThreeRanksTwoRoundsRowsStraddleOwners) { run_case({1000, 520, 256, 3, 2, 2, true}); }
TEST(ReduceScatterOneGpu, EightRanksFourRounds) { run_case({4096, 384, 128, 8, 2, 4}); }
// The multi-GPU benchmark's variant (128 x 256 tiles in clusters of 2, 4 stages): cluster tiles of
// own rows take their peers' partials through the operand ring (route_ring_sources) -- 2 stages
// per peer, 6 with 4 ranks, more than the ring holds --, a CTA tile of own rows whose cluster
// tile straddles two owners goes the stored way (1408 rows over 2 ranks: rows 512-767).
TEST(ReduceScatterOneGpu, TwoRanksWideTilesInClusters) { run_case<__nv_bfloat16, false, 256, 4, 2>({2048, 1024, 512, 2, 3}); }
TEST(ReduceScatterOneGpu, FourRanksWideTilesInClusters) { run_case<__nv_bfloat16, false, 256, 4, 2>({4096, 1280, 256, 4, 2}); }
TEST(ReduceScatterOneGpu, TwoRanksClusterTileStraddlesOwners) { run_case<__nv_bfloat16, false, 256, 4, 2>({1408, 776, 320, 2, 2}); }
TEST(AllReduceOneGpu, ThreeRanksWideTilesInClusters) { run_case<__nv_bfloat16, true, 256, 4, 2>({3072, 1024, 256, 3, 2}); }

}  // namespace
