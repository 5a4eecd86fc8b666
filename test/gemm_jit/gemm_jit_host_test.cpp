// The Hopper GEMM's JIT path without a GPU: the tuning table's text format (round trip, a damaged
// file ignored and then rebuilt by the next store), the tuning key, the config rules (the kernel's
// static_asserts, checked before compiling), the spec, and one cold compile for sm_90a.
#include "cute_dsl/jit/gemm_autotune.hpp"
#include "cute_dsl/jit/gemm_sm90.hpp"
#include "cute_dsl/kernels/gemm_sm90_configs.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace jit = cute_dsl::jit;
namespace fs = std::filesystem;

// The configs these tests name, as the autotuner builds them.
using jit::gemm_sm90_config;

// A fresh folder per test, removed afterwards.
struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("cute_dsl_gemm_jit_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                        "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

TEST(GemmTuningKey, ShapeClassRoundsUpToPowersOfTwo) {
  EXPECT_EQ(jit::gemm_shape_class(1000, 1030, 520, 1), "m1024 n2048 k1024 l1");
  EXPECT_EQ(jit::gemm_shape_class(8192, 8192, 8192, 3), "m8192 n8192 k8192 lN");
  EXPECT_EQ(jit::gemm_shape_class(1, 1, 1, 1), "m1 n1 k1 l1");
}

TEST(GemmTuningKey, NamesTypesLayoutsDeviceAndVersion) {
  jit::GemmSm90Types t{jit::ElementType::bf16, jit::ElementType::f32, jit::GemmMajor::k, jit::GemmMajor::mn};
  const std::string key = jit::gemm_sm90_tuning_key(t, 4096, 4096, 4096, 1, "NVIDIA H200\tx");
  EXPECT_EQ(key.rfind("bf16>f32 KM m4096 n4096 k4096 l1 | NVIDIA H200 x | ", 0), 0u) << key;
  EXPECT_EQ(key.find('\t'), std::string::npos);
}

TEST(GemmTuningTable, RoundTrip) {
  jit::GemmTuningTable table;
  table.set("bf16>bf16 KK m8192 n8192 k8192 l1 | NVIDIA H200 | 0.1.0", {gemm_sm90_config(256, 4, 2), 1.375});
  table.set("f16>f32 KM m64 n8192 k8192 l1 | NVIDIA H200 | 0.1.0", {gemm_sm90_config(128, 8, 1, false, 64), 0.25});
  const std::string text = table.serialize();
  EXPECT_EQ(text.rfind("cute_dsl gemm_sm90 autotune 1\n", 0), 0u) << text;
  auto back = jit::GemmTuningTable::parse(text);
  ASSERT_TRUE(back);
  ASSERT_EQ(back->size(), 2u);
  const auto* row = back->find("f16>f32 KM m64 n8192 k8192 l1 | NVIDIA H200 | 0.1.0");
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->config, gemm_sm90_config(128, 8, 1, false, 64));
  EXPECT_DOUBLE_EQ(row->ms, 0.25);
  EXPECT_EQ(back->serialize(), text);
}

TEST(GemmTuningTable, SkipsDamagedRowsKeepsGoodOnes) {
  const std::string header = "cute_dsl gemm_sm90 autotune 1\n";
  const std::string good = "good\t128 256 4 2 0\t1.5\n";
  const std::string damaged[] = {
      "bad\t128 256 4 2", "bad\t128 256 4 2 0 7\t1.5", "bad\t128 256 4 2 3\t1.5",  // truncated, extra field, ping-pong 3
      "bad\t128 96 4 2 0\t1.5", "bad\t128 256 4 2 0\tnot-a-number", "\t128 256 4 2 0\t1.5"};  // no such tile, ms, no key
  for (const std::string& row : damaged) {
    auto table = jit::GemmTuningTable::parse(header + row + "\n" + good);
    ASSERT_TRUE(table) << row;
    EXPECT_EQ(table->size(), 1u) << row;
    ASSERT_NE(table->find("good"), nullptr) << row;
    EXPECT_EQ(table->find("good")->config, gemm_sm90_config(256, 4, 2));
    EXPECT_EQ(table->find("bad"), nullptr) << row;
  }
  // A file that is not a table at all (another version, a binary) is still rejected whole.
  EXPECT_FALSE(jit::GemmTuningTable::parse("cute_dsl gemm_sm90 autotune 2\n" + good));
  EXPECT_FALSE(jit::GemmTuningTable::parse(std::string("\x7f" "ELF\0\1\2", 7)));
}

TEST(GemmTuningTable, DamagedFileIsIgnoredThenRebuilt) {
  TempDir dir;
  const fs::path path = dir.path / "gemm_sm90_autotune.txt";
  EXPECT_EQ(jit::GemmTuningTable::load(path.string()).size(), 0u);  // missing: empty, not damaged
  EXPECT_FALSE(jit::GemmTuningTable::load(path.string()).damaged());

  // One damaged row among good ones: skipped, the good rows kept.
  write(path, "cute_dsl gemm_sm90 autotune 1\nkey\t128 256 4 2 0\tnot-a-number\nkept\t128 256 4 2 0\t1.5\n");
  const jit::GemmTuningTable partial = jit::GemmTuningTable::load(path.string());
  EXPECT_FALSE(partial.damaged());
  EXPECT_EQ(partial.size(), 1u);
  EXPECT_NE(partial.find("kept"), nullptr);

  write(path, "garbage\n");
  jit::GemmTuningTable table = jit::GemmTuningTable::load(path.string());
  EXPECT_TRUE(table.damaged());
  EXPECT_EQ(table.size(), 0u);

  table.set("k2", {gemm_sm90_config(64, 8, 1), 2.0});
  ASSERT_TRUE(table.save(path.string()));
  const jit::GemmTuningTable again = jit::GemmTuningTable::load(path.string());
  EXPECT_FALSE(again.damaged());
  ASSERT_NE(again.find("k2"), nullptr);
  EXPECT_EQ(again.find("k2")->config, gemm_sm90_config(64, 8, 1));
  // No temporary file is left beside it.
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir.path)) files += e.is_regular_file();
  EXPECT_EQ(files, 1);
}

TEST(GemmSm90Config, AutotuneDefaultsAreTheNvccLaunchersVariants) {
  // Every variant but the swapped ones (the JIT does not swap A and B), in the table's order.
  const std::vector<jit::GemmSm90Config> jit_configs = jit::gemm_sm90_default_candidates();
  std::size_t next = 0;
  for (int i = 0; i < cute_dsl::kernels::kGemmSm90ConfigCount; ++i) {
    const cute_dsl::kernels::GemmSm90Config& c = cute_dsl::kernels::kGemmSm90Configs[i];
    if (c.swap_ab) continue;
    ASSERT_LT(next, jit_configs.size()) << i;
    EXPECT_EQ(jit_configs[next++], gemm_sm90_config(c.tile_n, c.stages, c.cluster_m, c.ping_pong, c.tile_m)) << i;
  }
  EXPECT_EQ(next, jit_configs.size());
}

TEST(GemmSm90Config, KernelRulesCheckedBeforeCompiling) {
  const jit::GemmSm90Types bf16{};
  for (const jit::GemmSm90Config& c : jit::gemm_sm90_default_candidates())
    EXPECT_EQ(jit::gemm_sm90_unsupported(bf16, c), "") << jit::to_string(c);
  EXPECT_NE(jit::gemm_sm90_unsupported(bf16, gemm_sm90_config(80, 4, 1)), "");
  EXPECT_EQ(jit::gemm_sm90_unsupported(bf16, gemm_sm90_config(96, 7, 1)), "");
  jit::GemmSm90Types mn_b{};
  mn_b.b_major = jit::GemmMajor::mn;
  EXPECT_EQ(jit::gemm_sm90_unsupported(bf16, gemm_sm90_config(192, 4, 2)), "");
  EXPECT_EQ(jit::gemm_sm90_unsupported(mn_b, gemm_sm90_config(192, 4, 2)),
            "gemm_sm90: with an MN-major B a tile's 64-column blocks must split evenly over the cluster");
  EXPECT_EQ(jit::gemm_sm90_unsupported(mn_b, gemm_sm90_config(64, 8, 2)), "");  // one block: multicast slices it
  EXPECT_EQ(jit::gemm_sm90_unsupported(mn_b, gemm_sm90_config(256, 4, 2)), "");
  EXPECT_EQ(jit::gemm_sm90_unsupported(bf16, gemm_sm90_config(192, 4, 2, false, 192)), "");
  EXPECT_EQ(jit::gemm_sm90_unsupported(mn_b, gemm_sm90_config(192, 4, 2, false, 192)),
            "gemm_sm90: tile_m 192 is a cooperative tile over a K-major B (each consumer all rows, tile_n / 2 columns)");
  EXPECT_EQ(jit::gemm_sm90_unsupported(bf16, gemm_sm90_config(128, 6, 1, false, 96)), "gemm_sm90: tile_m must be 64, 128 or 192");
  EXPECT_EQ(jit::gemm_sm90_unsupported(bf16, gemm_sm90_config(96, 7, 2)),
            "gemm_sm90: tile_n 96 is a 128-row cooperative tile without clusters over a K-major B");
  EXPECT_EQ(jit::gemm_sm90_unsupported(bf16, gemm_sm90_config(160, 5, 1)), "");
  EXPECT_EQ(jit::gemm_sm90_unsupported(bf16, gemm_sm90_config(224, 4, 1)), "");
  EXPECT_EQ(jit::gemm_sm90_unsupported(bf16, gemm_sm90_config(224, 4, 1, false, 64)),
            "gemm_sm90: tile_n 224 is a 128-row cooperative tile without clusters over a K-major B");
  // 6 stages of 36 KiB, the barriers and the 16-bit epilogue's 16 KiB exceed 227 KiB; with f32 D they fit.
  EXPECT_EQ(jit::gemm_sm90_unsupported(bf16, gemm_sm90_config(160, 6, 1)), "gemm_sm90: 239600 bytes of shared memory exceed 227 KiB");
  jit::GemmSm90Types f32_out{};
  f32_out.d = jit::ElementType::f32;
  EXPECT_EQ(jit::gemm_sm90_unsupported(f32_out, gemm_sm90_config(160, 6, 1)), "");
  EXPECT_EQ(jit::gemm_sm90_unsupported(bf16, gemm_sm90_config(256, 4, 2, true)),            // ping-pong: <= 128 x 128 accumulators
            "gemm_sm90: ping-pong needs tile_m x tile_n <= 128 x 128 (64 x 256)");
  EXPECT_EQ(jit::gemm_sm90_unsupported(bf16, gemm_sm90_config(256, 5, 2, true, 64)), "");    // 64 x 256 is as many
  EXPECT_EQ(jit::gemm_sm90_unsupported(bf16, gemm_sm90_config(128, 4, 2, false, 64)),       // 64-row cooperative: no cluster
            "gemm_sm90: 64-row cooperative tiles run without clusters");
  EXPECT_EQ(jit::gemm_sm90_unsupported({jit::ElementType::bf16, jit::ElementType::bf16, jit::GemmMajor::k, jit::GemmMajor::mn},
                                       gemm_sm90_config(64, 8, 1, true, 64)),
            "");  // a ping-pong 64-row tile does not split B between the consumers
  EXPECT_EQ(jit::gemm_sm90_unsupported(bf16, gemm_sm90_config(48, 14, 1, false, 64)), "");  // 24 columns per consumer
  EXPECT_EQ(jit::gemm_sm90_unsupported(bf16, gemm_sm90_config(48, 8, 1)),                   // 48 columns: 64-row tiles only
            "gemm_sm90: tile_n 48 is a 64-row cooperative tile over a K-major B");
  EXPECT_NE(jit::gemm_sm90_unsupported({jit::ElementType::bf16, jit::ElementType::bf16, jit::GemmMajor::k, jit::GemmMajor::mn},
                                       gemm_sm90_config(48, 14, 1, false, 64)),
            "");
  EXPECT_NE(jit::gemm_sm90_unsupported(bf16, gemm_sm90_config(256, 6, 1)), "");             // 288 KiB of ring
  EXPECT_NE(jit::gemm_sm90_unsupported({jit::ElementType::f32, jit::ElementType::f32}, gemm_sm90_config(128, 4, 1)), "");
  EXPECT_NE(jit::gemm_sm90_unsupported({jit::ElementType::bf16, jit::ElementType::i8}, gemm_sm90_config(128, 4, 1)), "");
  EXPECT_EQ(jit::to_string(gemm_sm90_config(128, 6, 2, true)), "128x128x64 s6 c2x1 pp");
}

TEST(GemmSm90Arguments, TmaRulesCheckedBeforeLaunching) {
  jit::GemmSm90Arguments a;
  a.m = 16, a.n = 16, a.k = 12, a.lda = a.ldb = 12, a.ldd = 16;
  alignas(16) static char buffer[64];
  a.a = a.b = a.d = buffer;
  EXPECT_NE(jit::gemm_sm90_unsupported(jit::GemmSm90Types{}, a), "");  // 24-byte rows
  a.k = 16, a.lda = a.ldb = 16;
  EXPECT_EQ(jit::gemm_sm90_unsupported(jit::GemmSm90Types{}, a), "");
  a.beta = 1.f;  // needs C
  EXPECT_NE(jit::gemm_sm90_unsupported(jit::GemmSm90Types{}, a), "");
}

TEST(GemmSm90Spec, NamesTheKernelTemplateWithEveryParameter) {
  const jit::KernelSpec spec = jit::gemm_sm90_spec({jit::ElementType::f16, jit::ElementType::f32, jit::GemmMajor::mn,
                                                    jit::GemmMajor::k},
                                                   gemm_sm90_config(128, 6, 2, true));
  EXPECT_EQ(spec.header, "cute_dsl/kernels/gemm_sm90.hpp");
  EXPECT_EQ(spec.name_expression(),
            "cute_dsl::kernels::gemm_sm90_kernel<__half, float, 128, 6, 2, true, cute_dsl::GmmaMajor::MN, "
            "cute_dsl::GmmaMajor::K, 128, true, false, false, false>");  // TMA loads, D as is, no split-K path, C from memory
  EXPECT_EQ(jit::gemm_sm90_shared_bytes(gemm_sm90_config(256, 4, 2)), 4u * (128 + 256) * 128 + 1024 + 1024 - 16);
}

// One cold compile for sm_90a (no GPU needed): the instantiation builds, does not spill, and asks
// for the kernel's 384 threads.
TEST(GemmSm90Spec, CompilesForSm90a) {
  jit::CompileOptions options;
  options.arch = "sm_90a";
  auto k = jit::compile(jit::gemm_sm90_spec({}, gemm_sm90_config(256, 4, 2)), options);
  ASSERT_TRUE(k) << k.error().describe();
  auto usage = jit::read_resource_usage((*k)->binary, (*k)->lowered_name);
  ASSERT_TRUE(usage) << usage.error().describe();
  EXPECT_EQ(usage->local_bytes, 0) << "spills";
  EXPECT_EQ(usage->max_threads, int(jit::kGemmSm90Threads));
}

}  // namespace
