// The Hopper GEMM with each operand K-major or MN-major (BLAS's TN, NN, TT, NT) on the GPU,
// every element against the host reference (gemm_sm90_check.cuh): every compiled variant (TMA
// boxes of MN-major tiles, multicast slices of MN-major B, 64-row tiles splitting MN-major B),
// ragged M/N/K, batches, padded leading dimensions, and the runtime-major entry gemm_sm90().
// TN (both K-major) is covered, with more types, by gemm_sm90_gpu_test.cu.
#include "gemm_sm90_check.cuh"

namespace {

using namespace gemm_sm90_test;
using bf16 = __nv_bfloat16;
constexpr GmmaMajor K = GmmaMajor::K, MN = GmmaMajor::MN;

template <GmmaMajor MajorA, GmmaMajor MajorB>
void every_config() {
  for (const GemmSm90Config& config : kGemmSm90Configs) {
    if (!gemm_sm90_config_supports(config, MajorB, MajorA)) continue;
    run_case<bf16, bf16, MajorA, MajorB>({300, 520, 136, 1, 1.f, 0.f}, config);     // partial tiles in M, N, K
    run_case<bf16, bf16, MajorA, MajorB>({256, 512, 1024, 1, 1.f, 0.f}, config);    // whole tiles, ring wraps
    run_case<bf16, bf16, MajorA, MajorB>({130, 70, 8, 2, 0.5f, -1.5f, 8}, config);  // K < 64, batches, padding
  }
  // The heuristic's choice, a skinny M (64-row tiles where B allows) and many tiles per CTA.
  run_case<bf16, bf16, MajorA, MajorB>({1000, 1030, 520, 2, 0.75f, 0.25f}, {});
  run_case<bf16, bf16, MajorA, MajorB>({64, 1000, 264, 1, 1.f, 0.f}, {});
  run_case<bf16, bf16, MajorA, MajorB>({5, 1000, 264, 1, 1.f, 0.5f}, {});  // decode: swapped where A is K-major
  run_case<bf16, bf16, MajorA, MajorB>({2048, 2304, 64, 1, 1.f, 0.f}, {});
  run_case<bf16, bf16, MajorA, MajorB>({301, 523, 137, 2, 1.f, 0.5f, 3, true}, {});  // the copy mainloop
}

TEST(GemmSm90Majors, NN_AColumnMajor) {
  CUTE_DSL_REQUIRE_GPU(90);
  every_config<MN, K>();
}

TEST(GemmSm90Majors, TT_BRowMajor) {
  CUTE_DSL_REQUIRE_GPU(90);
  every_config<K, MN>();
}

TEST(GemmSm90Majors, NT_BothMnMajor) {
  CUTE_DSL_REQUIRE_GPU(90);
  every_config<MN, MN>();
}

// gemm_sm90_majors<> refuses arguments whose majors differ from its own (gemm_sm90() dispatches
// on them at run time: the bench uses that entry); variants that cannot split MN-major B.
TEST(GemmSm90Majors, MismatchedMajorsAndUnsplittableVariantsAreRejected) {
  GemmSm90Arguments<bf16, bf16> args{};
  args.shape = {64, 64, 64, 1};
  args.major_a = MN;
  args.lda = 64, args.ldb = 64, args.ldd = 64;
  EXPECT_EQ((gemm_sm90_majors<K, K>(args, nullptr, {})), cudaErrorInvalidValue);
  // MN-major B cannot be split at 32 columns: the 64 x 64 tile variant refuses it.
  EXPECT_FALSE(gemm_sm90_config_supports({64, 12, 1, false, 64}, MN));
  EXPECT_TRUE(gemm_sm90_config_supports({128, 8, 1, false, 64}, MN));
  // Swapped variants read A as their B in 16-row tiles: A K-major only. Asked for with an
  // MN-major A, the launch is refused before the device is touched (no GPU needed): the
  // arguments themselves are valid (never dereferenced).
  constexpr GemmSm90Config kSwap16{16, 10, 1, false, 128, 0, true};
  EXPECT_TRUE(gemm_sm90_config_supports(kSwap16, MN, K));
  EXPECT_FALSE(gemm_sm90_config_supports(kSwap16, K, MN));
  GemmSm90Arguments<bf16, bf16> swapped = args;
  swapped.major_a = MN, swapped.major_b = K;
  swapped.a = reinterpret_cast<const bf16*>(std::uintptr_t(1) << 20);
  swapped.b = reinterpret_cast<const bf16*>(std::uintptr_t(2) << 20);
  swapped.d = reinterpret_cast<bf16*>(std::uintptr_t(3) << 20);
  ASSERT_EQ(gemm_sm90_unsupported(swapped), "");
  EXPECT_EQ((gemm_sm90_majors<MN, K>(swapped, nullptr, kSwap16)), cudaErrorInvalidValue);
  EXPECT_TRUE(gemm_sm90_config_supports(gemm_sm90_heuristic({64, 8192, 8192, 1}, 132, {.major_b = MN}), MN));
  EXPECT_EQ(gemm_sm90_heuristic({64, 8192, 8192, 1}, 132, {.major_b = K}).tile_m, 64);
}

}  // namespace
