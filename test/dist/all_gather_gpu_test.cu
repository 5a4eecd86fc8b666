// The fused all-gather + GEMM (epilogue/all_gather.hpp) on ONE GPU: `world` simulated ranks, each
// a GEMM (own stream) and its copy-engine pulls (own side stream), sharing the GPU's SMs
// (max_ctas = (SMs - 8) / world, with SMs to spare should the driver run a same-device copy as a
// kernel); each rank's "peer memory" is the other ranks' buffers on the same GPU. The protocol
// (ready flags, pieces, arrival flags, pulled flags across launches) is the multi-GPU run's.
//
// The launches are queued back to back, each with new shards written on the rank's stream right
// before it, and no host synchronisation in between: a rank that pulled a peer's shard of the
// wrong launch, or a shard overwritten before every peer pulled it, shows up in the result.
// Expected, bit for bit: the plain GEMM of the same variant on the whole A, assembled on the host.
#include <cuda_bf16.h>

#include <cute_dsl/epilogue/all_gather.hpp>
#include <cute_dsl/epilogue/epilogue.hpp>
#include <cute_dsl/kernels/gemm_sm90_all_gather.hpp>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gemm_sm90_instances.hpp"
#include "gpu_test.cuh"

namespace {

namespace ep = cute_dsl::epilogue;
namespace dist = cute_dsl::dist;
namespace kn = cute_dsl::kernels;
using cute_dsl::GmmaMajor;
using cute_dsl_test::DeviceBuffer;
using TA = __nv_bfloat16;

struct Case {
  int m, n, k, world, launches;
};

template <class TD = __nv_bfloat16>
void run_case(Case c) {
  CUTE_DSL_REQUIRE_GPU(90);
  int sms = 0;
  CUTE_DSL_TEST_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const std::uint32_t seed = cute_dsl_test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + ", M " + std::to_string(c.m) + ", N " + std::to_string(c.n) + ", K " +
               std::to_string(c.k) + ", world " + std::to_string(c.world));
  const dist::AllGatherLayout layout{c.m, c.k, c.world, int(sizeof(TA))};
  const dist::RowOwners owners = layout.owners();
  const std::size_t mk = std::size_t(c.m) * c.k, mn = std::size_t(c.m) * c.n;

  // A of each launch, whole (rank r's shard: its rows).
  std::vector<std::vector<TA>> a(c.launches);
  for (int launch = 0; launch < c.launches; ++launch)
    for (float x : cute_dsl_test::random_vector<float>(mk, seed + 100 * launch)) a[launch].push_back(TA(x));
  std::vector<std::unique_ptr<DeviceBuffer<TA>>> b;
  std::vector<std::vector<std::unique_ptr<DeviceBuffer<TD>>>> d(c.world);
  std::vector<std::unique_ptr<DeviceBuffer<char>>> window;
  std::vector<cudaStream_t> streams(c.world), comm_streams(c.world);
  for (int r = 0; r < c.world; ++r) {
    std::vector<TA> hb;
    for (float x : cute_dsl_test::random_vector<float>(std::size_t(c.n) * c.k, seed + 2 * r + 1)) hb.push_back(TA(x));
    b.push_back(std::make_unique<DeviceBuffer<TA>>(hb.size()));
    CUTE_DSL_TEST_CUDA(b[r]->upload(hb));
    for (int launch = 0; launch < c.launches; ++launch) {
      d[r].push_back(std::make_unique<DeviceBuffer<TD>>(mn));
      CUTE_DSL_TEST_CUDA(d[r][launch]->poison(0xFF));
    }
    window.push_back(std::make_unique<DeviceBuffer<char>>(std::size_t(layout.bytes())));
    CUTE_DSL_TEST_CUDA(window[r]->poison(0));
    CUTE_DSL_TEST_CUDA(cudaStreamCreateWithFlags(&streams[r], cudaStreamNonBlocking));
    CUTE_DSL_TEST_CUDA(cudaStreamCreateWithFlags(&comm_streams[r], cudaStreamNonBlocking));
  }
  auto args = [&](int r, TA const* whole_a, TD* out) {
    kn::GemmSm90Arguments<TA, TD> x{};
    x.shape = {c.m, c.n, c.k, 1};
    x.a = whole_a, x.lda = c.k, x.batch_stride_a = std::int64_t(mk);
    x.b = b[r]->get(), x.ldb = c.k, x.batch_stride_b = std::int64_t(c.n) * c.k;
    x.d = out, x.ldd = c.n, x.batch_stride_d = std::int64_t(mn);
    return x;
  };
  // Every launch of every rank, queued without waiting on the host.
  CUTE_DSL_TEST_CUDA(cudaDeviceSynchronize());
  for (int launch = 0; launch < c.launches; ++launch)
    for (int r = 0; r < c.world; ++r) {
      dist::SymmetricView view{};
      for (int s = 0; s < c.world; ++s) view.base[s] = window[s]->get();
      view.rank = r, view.world = c.world;
      auto tree = ep::all_gather_a<TA>(view, layout, unsigned(launch + 1), ep::acc());
      tree.max_ctas = (sms - 8) / c.world;
      if (owners.rows(r) > 0)  // this launch's shard, on the rank's stream (after its previous launch)
        CUTE_DSL_TEST_CUDA(cudaMemcpyAsync(tree.shard(r), a[launch].data() + std::size_t(owners.begin(r)) * c.k,
                                           sizeof(TA) * std::size_t(owners.rows(r)) * c.k, cudaMemcpyHostToDevice, streams[r]));
      CUTE_DSL_TEST_CUDA((kn::gemm_sm90_all_gather<GmmaMajor::K, GmmaMajor::K, 128, 6, 1>(args(r, nullptr, d[r][launch]->get()), tree,
                                                                                         streams[r], comm_streams[r])));
    }
  CUTE_DSL_TEST_LAUNCHED();

  // The reference: the same variant on the whole A.
  DeviceBuffer<TA> whole(mk);
  DeviceBuffer<TD> want(mn);
  const kn::GemmSm90Config config{128, 6, 1};
  for (int launch = 0; launch < c.launches; ++launch) {
    CUTE_DSL_TEST_CUDA(whole.upload(a[launch]));
    for (int r = 0; r < c.world; ++r) {
      CUTE_DSL_TEST_CUDA((kn::gemm_sm90_majors<GmmaMajor::K, GmmaMajor::K>(args(r, whole.get(), want.get()), nullptr, config)));
      CUTE_DSL_TEST_LAUNCHED();
      std::vector<TD> w, g;
      CUTE_DSL_TEST_CUDA(want.download(w));
      CUTE_DSL_TEST_CUDA(d[r][launch]->download(g));
      int bad = 0;
      for (std::size_t e = 0; e < mn; ++e)
        if (std::memcmp(&w[e], &g[e], sizeof(TD)) != 0 && ++bad <= 5)
          ADD_FAILURE() << "launch " << launch + 1 << ", rank " << r << ", D(" << e / c.n << ", " << e % c.n << ") = " << float(g[e])
                        << ", expected " << float(w[e]);
      EXPECT_EQ(bad, 0) << "launch " << launch + 1 << ", rank " << r;
    }
  }
  for (cudaStream_t s : streams) cudaStreamDestroy(s);
  for (cudaStream_t s : comm_streams) cudaStreamDestroy(s);
}

// The launcher's refusals, on the host (no GPU needed): each names the rule.
TEST(AllGatherArguments, RefusedWithTheRuleTheyBreak) {
  using T = __nv_bfloat16;
  const dist::AllGatherLayout layout{128, 64, 2, int(sizeof(T))};
  alignas(256) static char copies[2][1024 + 128 * 64 * 2];
  ASSERT_LE(layout.bytes(), (long long)sizeof(copies[0]));
  alignas(16) static T b[64 * 64], out[128 * 64];
  dist::SymmetricView view{};
  view.base[0] = copies[0], view.base[1] = copies[1], view.rank = 1, view.world = 2;
  kn::GemmSm90Arguments<T, T> args{};
  args.shape = {128, 64, 64, 1};
  args.b = b, args.ldb = 64, args.d = out, args.ldd = 64;
  auto tree = ep::all_gather_a<TA>(view, layout, 1u, ep::acc());
  EXPECT_EQ(kn::gemm_sm90_all_gather_unsupported(args, tree), "");
  auto why = [&](auto change) {
    auto x = args;
    auto t = tree;
    change(x, t);
    return kn::gemm_sm90_all_gather_unsupported(x, t);
  };
  EXPECT_NE(why([](auto& x, auto&) { x.major_a = GmmaMajor::MN; }).find("A must be K-major"), std::string::npos);
  EXPECT_NE(why([](auto& x, auto&) { x.shape.m = 256; }).find("M x K must be the GEMM's"), std::string::npos);
  EXPECT_NE(why([](auto& x, auto&) { x.shape.k = 32; }).find("M x K must be the GEMM's"), std::string::npos);
  EXPECT_NE(why([](auto& x, auto&) { x.shape.l = 2; }).find("one batch"), std::string::npos);
  EXPECT_NE(why([](auto&, auto& t) { t.window.rank = 2; }).find("rank / world"), std::string::npos);
  EXPECT_NE(why([](auto&, auto& t) { t.layout.element_bytes = 4; }).find("element size"), std::string::npos);
  EXPECT_NE(why([](auto&, auto& t) { t.epoch = 0; }).find("epochs count from 1"), std::string::npos);
  EXPECT_NE(why([](auto&, auto& t) { t.window.base[0] = nullptr; }).find("no mapping of rank 0"), std::string::npos);
  EXPECT_NE(why([](auto& x, auto&) { x.ldb = 68; }).find("16-byte aligned"), std::string::npos);
  EXPECT_NE(why([](auto& x, auto&) { x.beta = 1.f; }).find("beta must be 0"), std::string::npos);
  auto stale = tree;
  stale.epoch = 0;
  EXPECT_EQ((kn::gemm_sm90_all_gather<GmmaMajor::K, GmmaMajor::K, 128, 6, 1>(args, stale)), cudaErrorInvalidValue);  // before the device
  // The gated kernel launched directly needs the row order of its own variant (the launcher fills
  // it: gemm_sm90_all_gather_tree): without one, or another variant's, refused for that alone.
  const auto gated = kn::gemm_sm90_all_gather_gemm_arguments(args, tree);
  ASSERT_TRUE(kn::gemm_sm90_tma_describable(gated));
  ASSERT_EQ(kn::gemm_sm90_fused_unsupported(gated), "");
  EXPECT_EQ((kn::gemm_sm90_fused_variant<GmmaMajor::K, GmmaMajor::K, 128, 6, 1>(gated, tree)), cudaErrorInvalidValue);
  EXPECT_EQ((kn::gemm_sm90_fused_variant<GmmaMajor::K, GmmaMajor::K, 128, 6, 1>(gated, kn::gemm_sm90_all_gather_tree<2>(tree))),
            cudaErrorInvalidValue);
  EXPECT_EQ(kn::gemm_sm90_all_gather_tree<1>(tree).order_tile_rows, 128);
}

TEST(AllGatherOneGpu, TwoRanksShardsInSeveralPiecesThreeLaunches) { run_case({4096, 256, 12288, 2, 3}); }  // 48 MiB shards: 3 pieces
TEST(AllGatherOneGpu, FourRanksRowsStraddleOwnersAndRaggedEdges) { run_case({1000, 520, 264, 4, 2}); }
TEST(AllGatherOneGpu, EightRanksFewerTileRowsThanRanks) { run_case({200, 384, 128, 8, 2}); }
// Eight ranks, six rows: some ranks own none (they send nothing, and still gather everything).
TEST(AllGatherOneGpu, EightRanksSomeOwnNoRows) { run_case({6, 64, 64, 8, 2}); }
TEST(AllGatherOneGpu, ThreeRanksF32Output) { run_case<float>({520, 264, 192, 3, 2}); }

}  // namespace
