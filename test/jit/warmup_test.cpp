// warmup(): worker processes fill the disk cache, the caller's memory takes the entries; errors
// stay with their item; without a disk cache, threads of this process compile.
#include "jit_test_support.hpp"

#include <gtest/gtest.h>

#include <mutex>
#include <vector>

namespace {

using namespace jit_test;

// Six distinct instantiations of the elementwise kernel (thread counts 32..192).
std::vector<jit::KernelSpec> six_kernels() {
  std::vector<jit::KernelSpec> specs;
  for (int threads = 32; threads <= 192; threads += 32)
    specs.push_back(elementwise_spec("f32, (4,8):(8,1), " + std::to_string(threads)));
  return specs;
}

jit::WarmupOptions workers(int n, bool progress = true) {
  jit::WarmupOptions w;
  w.workers = n;
  w.progress = progress;
  return w;
}

struct Lines {
  std::mutex m;
  std::string text;
  Lines() {
    jit::set_log_level(jit::LogLevel::info);
    jit::set_log_sink([this](jit::LogLevel level, std::string_view s) {
      std::lock_guard lock(m);
      text += (level == jit::LogLevel::warn ? "warn: " : "") + std::string(s) + "\n";
    });
  }
  ~Lines() {
    jit::set_log_sink({});
    jit::set_log_level(std::nullopt);
  }
};

TEST(Warmup, WorkersFillTheDiskThenACompileHits) {
  if (jit::find_warmup_worker().empty()) GTEST_SKIP() << "SKIPPED: cute-dsl-jit-worker is not built";
  TempDir dir;
  const auto specs = six_kernels();
  Lines lines;
  jit::KernelCache cache(on_disk(dir.path()));
  const auto results = jit::warmup(specs, options_for("sm_90a"), workers(3), cache);
  ASSERT_EQ(results.size(), specs.size());
  for (const auto& r : results) {
    ASSERT_TRUE(r.kernel) << r.kernel.error().describe();
    EXPECT_TRUE(r.by_worker);
    EXPECT_EQ(r.outcome, jit::CacheOutcome::miss);
  }
  EXPECT_EQ(jit::list_disk_entries(dir.path()).size(), specs.size());
  EXPECT_NE(lines.text.find("in 3 worker processes"), std::string::npos) << lines.text;
  EXPECT_NE(lines.text.find("compiling 6/6: cute_dsl_jit_test::scale<"), std::string::npos) << lines.text;

  jit::CompileReport report;
  ASSERT_TRUE(jit::compile(specs[4], options_for("sm_90a"), cache, &report));
  EXPECT_EQ(report.outcome, jit::CacheOutcome::memory_hit) << "warmup put it in memory";
  jit::KernelCache fresh(on_disk(dir.path()));
  ASSERT_TRUE(jit::compile(specs[2], options_for("sm_90a"), fresh, &report));
  EXPECT_EQ(report.outcome, jit::CacheOutcome::disk_hit) << "and on disk";
}

TEST(Warmup, ABadItemReportsItsErrorAndTheOthersSucceed) {
  if (jit::find_warmup_worker().empty()) GTEST_SKIP() << "SKIPPED: cute-dsl-jit-worker is not built";
  TempDir dir;
  auto specs = six_kernels();
  specs.resize(3);
  specs[1].kernel = "cute_dsl_jit_test::no_such_kernel";
  jit::KernelCache cache(on_disk(dir.path()));
  const auto results = jit::warmup(specs, options_for("sm_90a"), workers(2, false), cache);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_TRUE(results[0].kernel);
  EXPECT_TRUE(results[2].kernel);
  ASSERT_FALSE(results[1].kernel);
  EXPECT_EQ(results[1].kernel.error().kind, jit::JitErrorKind::compile);
  EXPECT_NE(results[1].kernel.error().message.find("no_such_kernel"), std::string::npos) << results[1].kernel.error().describe();
  EXPECT_NE(results[1].kernel.error().log.find("no_such_kernel"), std::string::npos) << "the NVRTC log comes back";
}

TEST(Warmup, WithoutADiskCacheThreadsCompileAndSaySo) {
  Lines lines;
  jit::KernelCache cache(memory_only());
  auto specs = six_kernels();
  specs.resize(2);
  const auto results = jit::warmup(specs, options_for("sm_90a"), workers(2), cache);
  for (const auto& r : results) {
    ASSERT_TRUE(r.kernel) << r.kernel.error().describe();
    EXPECT_FALSE(r.by_worker);
  }
  EXPECT_NE(lines.text.find("threads in this process: the disk cache is off"), std::string::npos) << lines.text;
  jit::CompileReport report;
  ASSERT_TRUE(jit::compile(specs[1], options_for("sm_90a"), cache, &report));
  EXPECT_EQ(report.outcome, jit::CacheOutcome::memory_hit);
}

TEST(Warmup, AMissingWorkerFallsBackToThreads) {
  TempDir dir;
  Lines lines;
  jit::KernelCache cache(on_disk(dir.path()));
  auto specs = six_kernels();
  specs.resize(1);
  jit::WarmupOptions w = workers(2);
  w.worker_path = dir.path() + "/none";
  const auto results = jit::warmup(specs, options_for("sm_90a"), w, cache);
  ASSERT_TRUE(results[0].kernel) << results[0].kernel.error().describe();
  EXPECT_NE(lines.text.find("no cute-dsl-jit-worker program was found"), std::string::npos) << lines.text;
  // A warning, shown at the default level: the caller asked for processes and gets threads.
  EXPECT_NE(lines.text.find("warn: warmup: compiling with 1 threads in this process: no cute-dsl-jit-worker"),
            std::string::npos) << lines.text;
}

}  // namespace
