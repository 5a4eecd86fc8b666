// The Hopper GEMM on the GPU, every element against a host reference in double precision, on
// random data, with D poisoned (NaN) before each run: every compiled variant, ragged M/N/K,
// alpha/beta, batches, padded leading dimensions, bf16/f16 inputs, bf16/f16/f32 outputs. K-major
// A and B (TN); the other operand majors: gemm_sm90_majors_gpu_test.cu.
#include "gemm_sm90_check.cuh"

namespace {

using namespace gemm_sm90_test;

class GemmSm90Variant : public ::testing::TestWithParam<int> {};

TEST_P(GemmSm90Variant, RaggedBf16) {
  CUTE_DSL_REQUIRE_GPU(90);
  const GemmSm90Config config = kGemmSm90Configs[GetParam()];
  run_case<__nv_bfloat16, __nv_bfloat16>({300, 520, 136, 1, 1.f, 0.f}, config);    // partial tiles in M, N, K
  run_case<__nv_bfloat16, __nv_bfloat16>({256, 512, 1024, 1, 1.f, 0.f}, config);   // whole tiles, long K (ring wraps)
  run_case<__nv_bfloat16, float>({130, 70, 8, 2, 0.5f, -1.5f, 8}, config);         // K < one k-block, batches, padding
  run_case<__nv_bfloat16, float>({130, 70, 13, 2, 0.5f, -1.5f, 8}, config);        // ragged K inside lda = ldb = 24
  // beta with C through the operand ring where the variant takes it (partial tiles, batches, beta /
  // alpha = -3 scaling the start; 16-bit and f32 C); alpha = 0, and C rows of 1042 (f16) or 312
  // (f32, above) bytes, read C in the epilogue.
  run_case<__nv_bfloat16, __nv_bfloat16>({300, 520, 136, 2, 0.5f, -1.5f, 8}, config);
  run_case<__nv_bfloat16, float>({300, 520, 136, 2, 0.5f, -1.5f, 8}, config);
  run_case<__nv_bfloat16, __nv_bfloat16>({300, 520, 136, 1, 0.f, 2.f, 8}, config);
  run_case<__nv_bfloat16, __nv_bfloat16>({300, 520, 136, 1, -2.f, 0.f}, config);  // alpha != 1 without C: scaled before the store
  run_case<__half, __half>({200, 521, 72, 1, 1.f, 1.f}, config);
}

INSTANTIATE_TEST_SUITE_P(AllConfigs, GemmSm90Variant,
                         ::testing::Range(0, kGemmSm90ConfigCount));

// C through the ring comes after a CTA's first tile's k-blocks and before every later tile's
// (gemm_sm90.hpp, kRingCAfter: f32 C, and 16-bit C below 256 columns): launches of 2-4 tiles per
// CTA take both orders in one CTA -- 128 x 128 (f32 and bf16 C), 128 x 256 in clusters of 2 (f32;
// bf16 C stays before there), 128 x 192 ragged (f32, f16) and in clusters of 2 (bf16); 16-byte C
// rows, batches.
TEST(GemmSm90, CThroughTheRingAfterTheFirstTileAndBeforeTheRest) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_case<__nv_bfloat16, float>({2048, 1024, 256, 2, 0.5f, -1.5f}, {128, 6, 1});
  run_case<__nv_bfloat16, __nv_bfloat16>({2048, 1024, 256, 2, 0.5f, -1.5f}, {128, 6, 1});
  run_case<__half, __half>({1100, 1000, 200, 3, 1.f, 0.25f, 8}, {192, 4, 1});
  run_case<__nv_bfloat16, __nv_bfloat16>({2048, 2048, 192, 2, 1.f, 1.f}, {256, 4, 2});
  run_case<__nv_bfloat16, __nv_bfloat16>({2048, 2304, 192, 2, 1.f, 1.f}, {192, 4, 2});  // after, then before, in clusters
  run_case<__nv_bfloat16, float>({2048, 2048, 192, 2, 1.f, 1.f}, {256, 4, 2});
  run_case<__nv_bfloat16, float>({1100, 1000, 200, 3, 1.f, 0.25f, 8}, {192, 4, 1});
}

TEST(GemmSm90, HeuristicBf16ToF32AlphaBetaBatched) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_case<__nv_bfloat16, float>({1000, 1030, 520, 3, 0.75f, 0.25f}, {});
}

TEST(GemmSm90, SkinnyMHeuristicPicks64RowTiles) {
  CUTE_DSL_REQUIRE_GPU(90);
  ASSERT_EQ(gemm_sm90_heuristic({64, 8192, 8192, 1}, 132).tile_m, 64);
  run_case<__nv_bfloat16, __nv_bfloat16>({64, 1000, 520, 1, 1.f, 0.f}, {});
  run_case<__nv_bfloat16, float>({40, 300, 72, 2, 1.f, 0.5f, 8}, {});
}

TEST(GemmSm90, F16InF16Out) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_case<__half, __half>({257, 383, 200, 2, 1.f, 1.f}, {});
}

TEST(GemmSm90, TinyAndManyTiles) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_case<__nv_bfloat16, __nv_bfloat16>({1, 8, 8, 1, 1.f, 0.f}, {});
  // More tiles than SMs: the persistent loop visits several tiles per CTA.
  run_case<__nv_bfloat16, float>({2048, 2304, 64, 1, 1.f, 0.f}, {256, 4, 2});
  run_case<__nv_bfloat16, float>({2048, 2304, 64, 1, 1.f, 0.f}, {64, 8, 1});
}

TEST(GemmSm90, ManyTilesPerCtaAndMoreKBlocksThanStages) {
  CUTE_DSL_REQUIRE_GPU(90);
  // 200 cluster tiles of 256 x 128 (3-4 per cluster on 132 SMs), 7 k-blocks per tile (> 6 stages):
  // ping-pong's alternating K loops and the ring's phases across tiles are both exercised.
  run_case<__nv_bfloat16, float>({512, 12800, 392, 1, 1.f, 0.f}, {128, 6, 2, true});
  run_case<__nv_bfloat16, float>({512, 12800, 392, 1, 1.f, 0.f}, {256, 4, 2});
}

// gemm_sm90_resolve keeps each thread's recent choices: asked again, in any order and for more
// shapes than it keeps, it answers what the heuristic answers. No GPU needed.
TEST(GemmSm90, ResolveRemembersTheHeuristicsChoice) {
  int sm_count = 0, device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
      sm_count <= 0) {
    (void)cudaGetLastError();
    sm_count = 132;  // what resolve assumes without a device
  }
  std::vector<GemmShape> shapes;
  for (int m : {1, 7, 64, 300, 4096})
    for (int n : {1536, 4096, 28672})
      for (int k : {520, 4096}) shapes.push_back({m, n, k, 1 + (m + n) % 3});
  for (int round = 0; round < 3; ++round)
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      const GemmShape& s = shapes[(i * 7 + round) % shapes.size()];
      for (GmmaMajor major_b : {GmmaMajor::K, GmmaMajor::MN}) {
        const GemmSm90Config got = gemm_sm90_resolve(s, {.major_b = major_b}, {}), want = gemm_sm90_heuristic(s, sm_count, {.major_b = major_b});
        EXPECT_EQ(got.tile_m * 1000000 + got.tile_n * 1000 + got.stages * 100 + got.cluster_m * 10 + got.ping_pong,
                  want.tile_m * 1000000 + want.tile_n * 1000 + want.stages * 100 + want.cluster_m * 10 + want.ping_pong)
            << s.m << " x " << s.n << " x " << s.k;
        EXPECT_EQ(got.splits, want.splits) << s.m << " x " << s.n << " x " << s.k;
        EXPECT_EQ(got.swap_ab, want.swap_ab) << s.m << " x " << s.n << " x " << s.k;
      }
    }
  // Another config passes through untouched.
  EXPECT_EQ(gemm_sm90_resolve({1, 4096, 4096, 1}, {}, {128, 6, 1}).tile_n, 128);
}

// When beta's C may come through the operand ring (the kernel then starts the accumulators from
// beta / alpha * C): C on 16-byte rows and batches, alpha != 0, a sane ratio. No GPU needed.
TEST(GemmSm90, CThroughTheRingOnlyWhereATensorMapDescribesIt) {
  alignas(16) static __nv_bfloat16 c[64];
  GemmSm90Arguments<__nv_bfloat16, __nv_bfloat16> args{};
  args.shape = {4, 8, 16, 2};
  args.c = c, args.ldc = 8, args.batch_stride_c = 32, args.alpha = 1.f, args.beta = 0.5f;
  EXPECT_TRUE(gemm_sm90_c_through_ring(args));
  auto with = [&](auto change) {
    auto x = args;
    change(x);
    return gemm_sm90_c_through_ring(x);
  };
  EXPECT_FALSE(with([](auto& x) { x.beta = 0.f; }));                // C not read at all
  EXPECT_FALSE(with([](auto& x) { x.alpha = 0.f; }));               // no beta / alpha
  EXPECT_FALSE(with([](auto& x) { x.alpha = 0x1p-70f; }));          // beta / alpha past 2^60
  EXPECT_FALSE(with([](auto& x) { x.beta = std::nanf(""); }));
  EXPECT_FALSE(with([](auto& x) { x.ldc = 9; }));                   // 18-byte rows
  EXPECT_FALSE(with([](auto& x) { x.c = c + 1; }));                 // base off 16 bytes
  EXPECT_FALSE(with([](auto& x) { x.batch_stride_c = 36; }));       // 72-byte batches
  EXPECT_FALSE(with([](auto& x) { x.batch_stride_c = 0; }));        // one C for every batch
  EXPECT_TRUE(with([](auto& x) { x.batch_stride_c = 0, x.shape.l = 1; }));
  EXPECT_TRUE(with([](auto& x) { x.alpha = -2.f, x.beta = 3.f; }));
  GemmSm90Arguments<__nv_bfloat16, float> f32{};
  f32.shape = args.shape, f32.alpha = 1.f, f32.beta = 1.f, f32.ldc = 8, f32.batch_stride_c = 32;
  f32.c = reinterpret_cast<const float*>(c);
  EXPECT_TRUE(gemm_sm90_c_through_ring(f32));  // f32 C: 32 rows per stage
  f32.ldc = 6;                                  // 24-byte rows
  EXPECT_FALSE(gemm_sm90_c_through_ring(f32));
}

// Only what cannot be computed is refused; what TMA cannot describe runs on the copy mainloop.
TEST(GemmSm90, RejectsOnlyWhatCannotBeComputed) {
  std::vector<__nv_bfloat16> a(64), b(64);
  std::vector<float> d(64);
  GemmSm90Arguments<__nv_bfloat16, float> args{};
  args.shape = {4, 4, 12, 1};
  args.a = a.data() + 1, args.b = b.data(), args.d = d.data();
  args.lda = args.ldb = 12, args.ldd = 4;  // 24-byte rows, a base off the 16-byte grid: no TMA
  EXPECT_EQ(gemm_sm90_unsupported(args), "");
  EXPECT_FALSE(gemm_sm90_tma_describable(args));
  auto refused = [&](auto change) {
    auto x = args;
    change(x);
    return !gemm_sm90_unsupported(x).empty();
  };
  EXPECT_TRUE(refused([](auto& x) { x.shape.k = 0; }));
  EXPECT_TRUE(refused([](auto& x) { x.shape.m = -3; }));
  EXPECT_TRUE(refused([](auto& x) { x.a = nullptr; }));
  EXPECT_TRUE(refused([](auto& x) { x.beta = 1.f; }));  // no C
  EXPECT_TRUE(refused([](auto& x) { x.lda = 11; }));    // rows overlap
  EXPECT_TRUE(refused([&](auto& x) { x.d = reinterpret_cast<float*>(a.data() + 2); }));  // D over A
}

// Operands TMA cannot describe (K and leading dimensions not multiples of 8, bases off the 16-byte
// grid): the copy mainloop, 128- and 64-row tiles, batches, alpha/beta.
TEST(GemmSm90, CopyMainloopForOperandsTmaCannotDescribe) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_case<__nv_bfloat16, __nv_bfloat16>({300, 520, 137, 1, 1.f, 0.f, 0, true}, {});
  run_case<__nv_bfloat16, float>({130, 70, 13, 2, 0.5f, -1.5f, 3, true}, {});
  run_case<__half, __half>({1000, 1030, 700, 1, 1.f, 0.f, 0, true}, {});
  run_case<__nv_bfloat16, float>({40, 300, 77, 2, 1.f, 0.5f, 1, true}, {});  // skinny: the 64-row tile
}

// Tail split-K on the GPU: a 128 x 128 variant (140 tiles over 132 SMs: the last 8 split) and
// the clustered 128 x 256 one (68 cluster tiles over up to 66 clusters), f32 and bf16 D; K = 2560
// is long enough for a 2-way split to pay. The plan depends on the device's SM and cluster
// counts; the results may not.
TEST(GemmSm90, TailSplitKMatchesTheReference) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_case<__nv_bfloat16, float>({1280, 1792, 2560, 1, 1.f, 0.f}, {128, 6, 1, false, 128, 32});
  run_case<__nv_bfloat16, __nv_bfloat16>({4352, 1024, 2560, 1, 0.5f, 0.f}, {256, 4, 2, false, 128, 32});
}

// The shared split-K reduction (reduce_split, 3 splits or more over a whole tile of rows): every
// split sums a share of the tile. One 128 x 128 tile in 32 splits (f32 D) and 3 splits; clustered
// 128 x 256 tiles in 8; a ragged M whose last row block takes the last-split path beside shared
// tiles, batched -- each twice: the launches share the workspace, whose counters must come back
// to zero. Then clustered 128 x 128 tiles in 8. Each form of sum_split_share (pieces x splits in
// flight): 1 x 8 beyond 8 splits (32 and 8 at 128 x 256), 4 x 4 (3 splits; 128 x 64 in 4), 2 x 8
// (6 splits; 128 x 64 in 5, ragged N), 2 x 4 (128 x 256 in 4).
TEST(GemmSm90, SharedSplitReductionMatchesTheReference) {
  CUTE_DSL_REQUIRE_GPU(90);
  for (int twice = 0; twice < 2; ++twice) {
    run_case<__nv_bfloat16, float>({128, 128, 16384, 1, 1.f, 0.f}, {128, 6, 1, false, 128, 32});
    run_case<__nv_bfloat16, __nv_bfloat16>({128, 128, 4096, 1, 0.5f, 0.f}, {128, 6, 1, false, 128, 3});
    run_case<__nv_bfloat16, __nv_bfloat16>({256, 512, 8192, 1, 1.f, 0.f}, {256, 4, 2, false, 128, 8});
    run_case<__nv_bfloat16, float>({200, 300, 6144, 2, 1.f, 0.5f}, {128, 6, 1, false, 128, 6});
    run_case<__nv_bfloat16, __nv_bfloat16>({256, 512, 8192, 1, 1.f, 0.f}, {256, 4, 2, false, 128, 4});
    run_case<__nv_bfloat16, float>({128, 128, 8192, 1, 1.f, 0.f}, {64, 8, 1, false, 128, 4});
    run_case<__nv_bfloat16, __nv_bfloat16>({256, 200, 8192, 1, 1.f, 0.f}, {64, 8, 1, false, 128, 5});
  }
  // Clustered 128 x 128 tiles split 8 ways (the heuristic's for few tiles over a huge K), ragged N.
  run_case<__nv_bfloat16, __nv_bfloat16>({256, 376, 8192, 1, 1.f, 0.f}, {128, 6, 2, false, 128, 8});
}

// Stream-K (GemmSm90Config::stream_k, gemm_tile_scheduler.hpp): the tail's k-blocks cut into one
// range per cluster, a tile's pieces summed by the last to arrive. 96 tiles of 64 x 64 over every
// cluster (3 pieces a tile at most; f32 D); clustered 128 x 256 tiles with a 2-tile tail, ragged
// M; few 128 x 128 tiles cut into 5-6 pieces each, batched, beta reading C in the epilogue; 64-row
// tiles of 128 columns -- each twice: the launches share the workspace, whose counters must come
// back to zero. The ranges depend on the device's cluster count; the results may not.
TEST(GemmSm90, StreamKMatchesTheReference) {
  CUTE_DSL_REQUIRE_GPU(90);
  int sms = 0;
  CUTE_DSL_TEST_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const auto streamed = [](GemmSm90Config c) {
    c.stream_k = true;
    return c;
  };
  // Each case does stream (on this device's SM count; the launcher's cluster count may be lower).
  for (auto [shape, c] : {std::pair{GemmShape{256, 1536, 4096, 1}, streamed({64, 12, 1, false, 64})},
                          std::pair{GemmShape{4300, 1024, 2560, 1}, streamed({256, 4, 2, false, 128})},
                          std::pair{GemmShape{300, 520, 2000, 2}, streamed({128, 6, 1, false, 128})},
                          std::pair{GemmShape{200, 1000, 3000, 1}, streamed({128, 8, 1, false, 64})}})
    EXPECT_GT(gemm_sm90_plan_splits(shape, c, sms).stream_ranges, 0) << shape.m << "x" << shape.n << "x" << shape.k;
  // First a split of one tile: the shared workspace then holds partial sums right after the
  // counter block, where a layout sized by the split tile count would put the next launch's
  // counters (96 tiles: tiles 64-95 never finished before the block had a fixed size).
  run_case<__nv_bfloat16, float>({128, 128, 4096, 1, 1.f, 0.f}, {128, 6, 1, false, 128, 3});
  for (int twice = 0; twice < 2; ++twice) {
    run_case<__nv_bfloat16, float>({256, 1536, 4096, 1, 1.f, 0.f}, streamed({64, 12, 1, false, 64}));
    run_case<__nv_bfloat16, __nv_bfloat16>({4300, 1024, 2560, 1, 0.5f, 0.f}, streamed({256, 4, 2, false, 128}));
    run_case<__nv_bfloat16, float>({300, 520, 2000, 2, 0.5f, -1.5f, 8}, streamed({128, 6, 1, false, 128}));
    run_case<__nv_bfloat16, __nv_bfloat16>({200, 1000, 3000, 1, 1.f, 0.f}, streamed({128, 8, 1, false, 64}));
  }
}

// Decode through the stream model's choices (kernels/gemm_sm90_heuristic.hpp): 64-row tiles split
// 4 ways at M = 1 and at M = 64, batched and ragged, and 7 splits of one tile -- a group of 4
// partials read back, then a group of 3 (the 4th slot past the last split is never read).
TEST(GemmSm90, DecodeSplitsMatchTheReference) {
  CUTE_DSL_REQUIRE_GPU(90);
  run_case<__nv_bfloat16, __nv_bfloat16>({1, 1536, 4096, 1, 1.f, 0.f}, {});
  run_case<__nv_bfloat16, float>({64, 1536, 4096, 1, 1.f, 0.f}, {});
  run_case<__nv_bfloat16, __nv_bfloat16>({3, 1000, 3000, 2, 0.5f, 0.f}, {});
  run_case<__nv_bfloat16, float>({1, 64, 65536, 1, 1.f, 0.f}, {64, 12, 1, false, 64, 7});
}

// Swap-AB (GemmSm90Config::swap_ab): D^T = B A^T in 128 x 16 and 128 x 32 tiles, stored into D
// transposed. Decode split 8 ways (16 tiles of B's rows: few), a few rows with beta reading C
// transposed, batches with padded leading dimensions, f32 and f16 out, fewer rows than the tile.
TEST(GemmSm90, SwappedOperandsMatchTheReference) {
  CUTE_DSL_REQUIRE_GPU(90);
  // Per tile: its stages, the split shape's rows, columns and splits, then the ragged-row counts
  // (the 48-column tile: M past two of its column blocks, ragged in both).
  struct Case {
    int tile_n, stages, rows, cols, splits, ragged_beta, ragged_f16;
  };
  for (const Case c : {Case{16, 10, 1, 2048, 8, 13, 20}, Case{32, 10, 24, 4096, 4, 17, 31}, Case{48, 8, 129, 1024, 4, 61, 97}}) {
    const GemmSm90Config swap{c.tile_n, c.stages, 1, false, 128, 0, true};
    GemmSm90Config split = swap;
    split.splits = c.splits;
    run_case<__nv_bfloat16, __nv_bfloat16>({c.rows, c.cols, 4096, 1, 1.f, 0.f}, split);
    run_case<__nv_bfloat16, __nv_bfloat16>({c.ragged_beta, 1000, 520, 1, 1.f, 0.5f}, swap);
    run_case<__nv_bfloat16, float>({32, 300, 264, 2, 0.5f, -1.5f, 8}, swap);
    run_case<__half, __half>({c.ragged_f16, 777, 136, 1, 1.f, 1.f}, swap);
    run_case<__nv_bfloat16, __nv_bfloat16>({100, 130, 72, 1, 1.f, 0.f}, swap);  // M past one tile
  }
}

// The 128 x 192 and 192 x 192 tiles in clusters of 2 (each CTA multicasts 96 columns of B; the
// 192-row tile's consumers 96 columns each): the heuristic's choices for rows off 128-byte lines
// where their cluster waves fill better than 128 x 256's (3000 x 2000 with rows of 144 elements,
// 288 bytes: 128 x 192; 1800 x 2100 x 1032: 192 x 192), and split as the heuristic splits them: 2
// or 3 row blocks (the second cluster's second CTA past M), the shared split reduction (128
// rows), beta with f32 out, ragged N (the second consumer's last columns past it), rows of K + 8.
TEST(GemmSm90, ClusteredTiles192WholeAndSplit) {
  CUTE_DSL_REQUIRE_GPU(90);
  const GemmSm90Config c128 = gemm_sm90_heuristic({3000, 2000, 136, 1}, 132, {.rows_128b_aligned = false});
  ASSERT_EQ(c128.tile_m, 128);
  ASSERT_EQ(c128.tile_n, 192);
  ASSERT_EQ(c128.cluster_m, 2);
  const GemmSm90Config c192 = gemm_sm90_heuristic({1800, 2100, 1032, 1}, 132, {.rows_128b_aligned = false});
  ASSERT_EQ(c192.tile_m, 192);
  ASSERT_EQ(c192.tile_n, 192);
  ASSERT_EQ(c192.cluster_m, 2);
  run_case<__nv_bfloat16, __nv_bfloat16>({3000, 2000, 136, 1, 1.f, 0.f, 8}, {});
  run_case<__nv_bfloat16, __nv_bfloat16>({1800, 2100, 1032, 1, 1.f, 0.f, 8}, {});
  for (const GemmSm90Config tile : {GemmSm90Config{192, 4, 2}, GemmSm90Config{192, 4, 2, false, 192}}) {
    GemmSm90Config split = tile;
    split.splits = 3;
    run_case<__nv_bfloat16, __nv_bfloat16>({300, 1000, 1000, 1, 1.f, 0.f, 8}, split);
    run_case<__nv_bfloat16, float>({520, 700, 2000, 1, 0.5f, -1.5f, 8}, split);
    run_case<__nv_bfloat16, __nv_bfloat16>({400, 1030, 700, 2, 1.f, 0.5f, 8}, tile);
  }
}

// D rows that start off 16 bytes still go through the epilogue's stage, stored in the widest
// pieces the rows allow (gemm_stage_store_rows): 2 bytes (N = 4095, odd), 4 (N + pad = 1030 f16,
// batches whose stride is 4-byte aligned; with beta, C off 16 bytes: the direct path), 8 (N =
// 1028, alpha = -2). Tiles: the heuristic's,
// 128 x 256 in clusters of 2, 128 x 96 (the 32-column half block), 192 x 192 (96-column
// consumers) and the 128 x 128 ping-pong tile; the padding's poison checks that no piece lands past N.
TEST(GemmSm90, DRowsOffSixteenBytesThroughTheStage) {
  CUTE_DSL_REQUIRE_GPU(90);
  static_assert(gemm_row_access_bytes(0, 4095, 0, 2) == 2 && gemm_row_access_bytes(0, 1030, 0, 2) == 4);
  static_assert(gemm_row_access_bytes(0, 1028, 1028 * 300, 2) == 8 && gemm_row_access_bytes(2, 1024, 0, 2) == 2);
  static_assert(gemm_row_access_bytes(256, 1024, 0, 2) == 16);
  for (const GemmSm90Config tile : {GemmSm90Config{}, GemmSm90Config{256, 4, 2}, GemmSm90Config{96, 7, 1},
                                    GemmSm90Config{192, 4, 2, false, 192}, GemmSm90Config{128, 6, 2, true}}) {
    run_case<__nv_bfloat16, __nv_bfloat16>({1000, 4095, 136, 1, 1.f, 0.f}, tile);
    run_case<__half, __half>({257, 1022, 72, 2, 0.5f, 1.f, 8}, tile);
    run_case<__half, __half>({257, 1022, 72, 2, 0.5f, 0.f, 8}, tile);
    run_case<__nv_bfloat16, __nv_bfloat16>({300, 1028, 200, 1, -2.f, 0.f}, tile);
  }
}

// The same operands staged into aligned rows (gemm_sm90_stage.hpp), then the TMA mainloop: the
// heuristic's variant and a fixed one, batches, alpha/beta, fp16, the 64-row tile, and the
// model's own choice on a shape where staging pays.
TEST(GemmSm90, StagedOperandsRunOnTheTmaMainloop) {
  CUTE_DSL_REQUIRE_GPU(90);
  constexpr auto kStage = GemmSm90Unaligned::stage;
  run_case<__nv_bfloat16, __nv_bfloat16>({300, 520, 137, 1, 1.f, 0.f, 0, true, kStage}, {});
  run_case<__nv_bfloat16, float>({130, 70, 13, 2, 0.5f, -1.5f, 3, true, kStage}, {});
  run_case<__half, __half>({1000, 1030, 700, 1, 1.f, 0.f, 0, true, kStage}, {256, 4, 2});
  run_case<__nv_bfloat16, float>({40, 300, 77, 2, 1.f, 0.5f, 1, true, kStage}, {});  // skinny: the 64-row tile
  run_case<__nv_bfloat16, __nv_bfloat16>({1023, 1025, 1027, 1, 1.f, 0.f, 0, true, GemmSm90Unaligned::automatic}, {});
}

// The staging copy alone, bit for bit: every row offset from 16-byte alignment (the operand's
// base 0..7 elements past an aligned address, odd and even leading dimensions), rows whose last
// chunk is partial, batches with a gap between them, the tensor's first and last chunks (which the
// copy reads the careful way), and the zero padding past each row's end.
TEST(GemmSm90, StagingCopiesEveryRowOffsetExactly) {
  CUTE_DSL_REQUIRE_GPU(90);
  struct Case {
    int offset, width, rows, batches;
    long long ld, batch_stride;
  };
  const Case cases[] = {{0, 4099, 9, 1, 4099, 0},   {1, 4099, 9, 1, 4099, 0},  {3, 2510, 17, 1, 2510, 0},
                        {7, 665, 33, 2, 667, 40000}, {5, 13, 70, 1, 13, 0},    {2, 476, 40, 3, 476, 476 * 40 + 9},
                        {6, 8, 12, 1, 9, 0},         {4, 1, 3, 1, 1, 0},       {0, 777, 64, 1, 780, 0}};
  for (const Case& c : cases) {
    const long long span = c.offset + (c.batches - 1) * c.batch_stride + (long long)(c.rows - 1) * c.ld + c.width;
    std::vector<unsigned short> host(span);
    for (long long i = 0; i < span; ++i) host[i] = (unsigned short)(i * 2654435761u >> 7);  // no two neighbours alike
    const GemmStageOperand shape = gemm_stage_operand(nullptr, c.width, c.rows, c.batches, c.ld, c.batch_stride, 2);
    const long long staged = shape.batches * shape.rows * shape.dst_ld;
    unsigned short *src = nullptr, *dst = nullptr;
    ASSERT_EQ(cudaMalloc(&src, span * 2), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&dst, staged * 2), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(src, host.data(), span * 2, cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_EQ(cudaMemset(dst, 0xff, staged * 2), cudaSuccess);  // padding must be written, not left
    GemmStageParams p{};
    p.op[0] = gemm_stage_operand(src + c.offset, c.width, c.rows, c.batches, c.ld, c.batch_stride, 2);
    p.op[0].dst = dst;
    p.count = 1;
    gemm_stage_operands_kernel<__nv_bfloat16><<<3, kGemmStageThreads>>>(p);  // few blocks: each thread loops
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<unsigned short> out(staged);
    ASSERT_EQ(cudaMemcpy(out.data(), dst, staged * 2, cudaMemcpyDeviceToHost), cudaSuccess);
    long long wrong = 0;
    for (int b = 0; b < shape.batches; ++b)
      for (int r = 0; r < c.rows; ++r)
        for (long long e = 0; e < shape.dst_ld; ++e) {
          const unsigned short want = e < c.width ? host[c.offset + b * c.batch_stride + r * c.ld + e] : 0;
          wrong += out[(b * c.rows + r) * shape.dst_ld + e] != want;
        }
    EXPECT_EQ(wrong, 0) << "offset " << c.offset << " width " << c.width << " rows " << c.rows << " ld " << c.ld;
    cudaFree(src);
    cudaFree(dst);
  }
}

// The staging model and its buffer layout. No GPU needed.
TEST(GemmSm90, StagingModelAndLayout) {
  // Tiny GEMMs keep the copy mainloop (the staging launch costs more than the whole GEMM); the
  // sweep's unaligned and ragged shapes, decode included, are staged.
  EXPECT_FALSE(gemm_sm90_stage_pays(4, 4, 12, 1, 2 * 256, 2, 132));
  EXPECT_FALSE(gemm_sm90_stage_pays(130, 70, 13, 2, 2 * 8192, 2, 132));
  EXPECT_TRUE(gemm_sm90_stage_pays(4095, 4097, 4099, 1, 2.0 * 4096 * 4160 * 2, 2, 132));
  EXPECT_TRUE(gemm_sm90_stage_pays(2048, 2048, 777, 1, 2.0 * 2048 * 832 * 2, 2, 132));
  EXPECT_TRUE(gemm_sm90_stage_pays(1, 4096, 4099, 1, 4096.0 * 4160 * 2, 2, 132));
  // Rows of whole 128-byte lines; an operand shared by every batch (stride 0) is staged once.
  const GemmStageOperand op = gemm_stage_operand(nullptr, 4099, 300, 3, 4099, 300 * 4099, 2);
  EXPECT_EQ(op.dst_ld, 4160);
  EXPECT_EQ(op.dst_batch_stride, 300 * 4160);
  EXPECT_EQ(op.batches, 3);
  EXPECT_EQ(gemm_stage_bytes(op, 2), 3LL * 300 * 4160 * 2);
  const GemmStageOperand shared = gemm_stage_operand(nullptr, 77, 40, 5, 77, 0, 2);
  EXPECT_EQ(shared.batches, 1);
  EXPECT_EQ(shared.dst_batch_stride, 0);
  EXPECT_EQ(gemm_stage_bytes(shared, 2), 40LL * 128 * 2);
  // Only the operand TMA cannot describe is staged: A one element off, B aligned.
  GemmSm90Arguments<__nv_bfloat16, float> args{};
  alignas(16) static __nv_bfloat16 buffer[64];
  args.shape = {4, 4, 16, 1};
  args.a = buffer + 1, args.lda = 16, args.b = buffer, args.ldb = 16;
  EXPECT_EQ(gemm_sm90_staging_bytes(args), std::size_t(512));  // 4 rows of 64 elements
  // A caller's staging buffer too small, or off 256 bytes, is refused when staging is forced,
  // before the device is touched; the arguments are left as they were.
  args.unaligned = GemmSm90Unaligned::stage;
  alignas(256) static unsigned char room[1024];
  GemmSm90Arguments<__nv_bfloat16, float> staged{};
  bool did = true;
  args.staging = room, args.staging_bytes = 256;  // needs 512
  EXPECT_EQ(gemm_sm90_stage_operands(args, nullptr, staged, did), cudaErrorInvalidValue);
  EXPECT_FALSE(did);
  EXPECT_EQ(staged.a, args.a);
  args.staging = room + 16, args.staging_bytes = 1000;  // room enough, off 256 bytes
  EXPECT_EQ(gemm_sm90_stage_operands(args, nullptr, staged, did), cudaErrorInvalidValue);
  args.unaligned = GemmSm90Unaligned::copy_mainloop;  // nothing staged, nothing refused
  EXPECT_EQ(gemm_sm90_stage_operands(args, nullptr, staged, did), cudaSuccess);
  EXPECT_FALSE(did);
  args.a = buffer;
  EXPECT_EQ(gemm_sm90_staging_bytes(args), std::size_t(0));
}

}  // namespace
