// Dumps (CUTE_DSL_KEEP / DumpOptions), the JSON report, the log sink and levels, and the memory
// level's exactness (the fingerprint leaves header contents out; the hit compares them).
#include "jit_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <vector>

namespace {

using namespace jit_test;

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) out.push_back(e.path().extension().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string json_in(const std::string& dir) {
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".json") return e.path().string();
  return {};
}

jit::CompileOptions dumping(const std::string& dir, unsigned keep) {
  jit::CompileOptions o = options_for("sm_90a");
  o.dump = jit::DumpOptions{dir, keep};
  return o;
}

// Collects what the library logs while alive; restores stderr and the environment's level after.
class LogCapture {
 public:
  LogCapture() {
    jit::set_log_sink([this](jit::LogLevel, std::string_view m) {
      std::lock_guard lock(mutex_);
      lines_.emplace_back(m);
    });
  }
  ~LogCapture() {
    jit::set_log_sink({});
    jit::set_log_level(std::nullopt);
  }
  std::string all() {
    std::lock_guard lock(mutex_);
    std::string out;
    for (const auto& l : lines_) out += l + "\n";
    return out;
  }
  std::size_t count(std::string_view needle) {
    std::lock_guard lock(mutex_);
    return static_cast<std::size_t>(std::count_if(lines_.begin(), lines_.end(), [&](const std::string& l) {
      return l.find(needle) != std::string::npos;
    }));
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> lines_;
};

TEST(Keep, EachItemProducesItsFile) {
  const struct {
    unsigned keep;
    const char* suffix;
  } items[] = {{jit::keep_source, ".cu"}, {jit::keep_ptx, ".ptx"}, {jit::keep_cubin, ".cubin"}, {jit::keep_sass, ".sass"}};
  for (const auto& item : items) {
    TempDir dump;
    jit::KernelCache cache(memory_only());
    auto k = jit::compile(elementwise_spec(), dumping(dump.path(), item.keep), cache);
    ASSERT_TRUE(k) << k.error().describe();
    const auto files = files_in(dump.path());
    if (item.keep == jit::keep_sass && jit::sass_tool().empty()) {
      std::printf("SKIPPED (SASS): neither cuobjdump nor nvdisasm is on PATH, CUDA_HOME/bin or the build's toolkit\n");
      EXPECT_EQ(files, std::vector<std::string>{".json"});
      EXPECT_NE(read_text(json_in(dump.path())).find("no SASS: neither cuobjdump nor nvdisasm"), std::string::npos);
      continue;
    }
    std::vector<std::string> expected{item.suffix, ".json"};
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(files, expected) << item.suffix;
  }
}

TEST(Keep, ContentsAreWhatTheyClaim) {
  TempDir dump;
  jit::KernelCache cache(memory_only());
  auto k = jit::compile(elementwise_spec(), dumping(dump.path(), jit::keep_all), cache);
  ASSERT_TRUE(k) << k.error().describe();
  for (const auto& e : std::filesystem::directory_iterator(dump.path())) {
    const std::string text = read_text(e.path().string()), ext = e.path().extension().string();
    if (ext == ".ptx") {
      EXPECT_NE(text.find(".entry " + (*k)->lowered_name), std::string::npos) << "PTX of the kernel";
    } else if (ext == ".cubin") {
      EXPECT_EQ(text, (*k)->binary);
    } else if (ext == ".sass") {
      EXPECT_NE(text.find((*k)->lowered_name), std::string::npos) << text.substr(0, 400);
    }
  }
}

TEST(Keep, ParsesTheEnvironmentSpelling) {
  EXPECT_EQ(jit::parse_keep("source, sass").value(), jit::keep_source | jit::keep_sass);
  EXPECT_EQ(jit::parse_keep("all").value(), unsigned{jit::keep_all});
  EXPECT_EQ(jit::parse_keep("none").value(), 0u);
  EXPECT_FALSE(jit::parse_keep("source,asm"));
}

TEST(Report, JsonParsesAndHasTheFields) {
  TempDir dump;
  jit::KernelCache cache(memory_only());
  ASSERT_TRUE(jit::compile(elementwise_spec(), dumping(dump.path(), 0), cache));
  const std::string json = json_in(dump.path());
  ASSERT_FALSE(json.empty());
#ifdef CUTE_DSL_TEST_PYTHON3
  const std::string check =
      "import json,sys; d=json.load(open(sys.argv[1])); "
      "need=['name','lowered_name','options','arch','stages_seconds','resources','cache','key','files','notes','sass_tool']; "
      "st=['source_generation','nvrtc_compile','link','cache_lookup','disk_write','total']; "
      "rs=['registers','shared_bytes','local_bytes','spills','max_threads']; "
      "miss=[k for k in need if k not in d]+[k for k in st if k not in d['stages_seconds']]+"
      "[k for k in rs if k not in d['resources']]; "
      "assert not miss, miss; assert d['cache']=='compiled'; assert d['resources']['max_threads']==128; "
      "assert d['stages_seconds']['nvrtc_compile']>0; print('json ok')";
  std::string out;
  EXPECT_EQ(run_command(std::string(CUTE_DSL_TEST_PYTHON3) + " -c \"" + check + "\" " + json, out), 0) << out;
  EXPECT_NE(out.find("json ok"), std::string::npos) << out;
#else
  GTEST_SKIP() << "SKIPPED: no Python 3 at configure time to parse the JSON";
#endif
}

TEST(Report, CacheStillHitsWithEverythingKept) {
  TempDir cache_dir, dump;
  jit::CompileReport report;
  jit::KernelCache fresh(on_disk(cache_dir.path()));
  {
    ScopedEnv dump_env("CUTE_DSL_DUMP_DIR", dump.path().c_str());
    ScopedEnv keep_env("CUTE_DSL_KEEP", "source,ptx,cubin,sass");
    {
      jit::KernelCache cache(on_disk(cache_dir.path()));
      ASSERT_TRUE(jit::compile(elementwise_spec(), options_for("sm_90a"), cache, &report));
      EXPECT_EQ(report.outcome, jit::CacheOutcome::miss);
    }
    ASSERT_TRUE(jit::compile(elementwise_spec(), options_for("sm_90a"), fresh, &report));
  }
  EXPECT_EQ(report.outcome, jit::CacheOutcome::disk_hit) << "keeping artifacts must not disable the cache";
  EXPECT_NE(read_text(json_in(dump.path())).find("\"cache\": \"disk\""), std::string::npos);
  if (!jit::sass_tool().empty()) {
    EXPECT_EQ(std::ranges::count(files_in(dump.path()), std::string(".sass")), 1) << "SASS of the cached CUBIN";
  }

  // A memory hit whose options ask for a dump writes one too.
  TempDir dump2;
  ASSERT_TRUE(jit::compile(elementwise_spec(), dumping(dump2.path(), jit::keep_cubin), fresh, &report));
  EXPECT_EQ(report.outcome, jit::CacheOutcome::memory_hit);
  EXPECT_NE(read_text(json_in(dump2.path())).find("\"cache\": \"memory\""), std::string::npos);
}

TEST(Log, LevelsAndTheSink) {
  LogCapture capture;
  jit::set_log_level(jit::LogLevel::error);
  jit::log(jit::LogLevel::warn, "dropped");
  jit::log(jit::LogLevel::error, "kept");
  jit::set_log_level(jit::LogLevel::off);
  jit::log(jit::LogLevel::error, "dropped too");
  jit::log_requested(jit::LogLevel::info, "dropped as well");
  EXPECT_EQ(capture.all(), "kept\n");

  jit::set_log_level(std::nullopt);
  ::setenv("CUTE_DSL_LOG_LEVEL", "debug", 1);
  EXPECT_EQ(jit::log_level(), jit::LogLevel::debug);
  ::setenv("CUTE_DSL_LOG_LEVEL", "loud", 1);
  EXPECT_EQ(jit::log_level(), jit::LogLevel::warn) << "an unknown level falls back to warn";
  ::unsetenv("CUTE_DSL_LOG_LEVEL");
  EXPECT_EQ(jit::log_level(), jit::LogLevel::warn) << "the default";
  EXPECT_EQ(jit::parse_log_level("warning"), jit::LogLevel::warn);
  EXPECT_FALSE(jit::parse_log_level("verbose"));
}

TEST(Log, PrintSourceAndTimeProfilingGoThroughTheSink) {
  LogCapture capture;
  ::setenv("CUTE_DSL_PRINT_SOURCE", "1", 1);
  ::setenv("CUTE_DSL_JIT_TIME_PROFILING", "1", 1);
  jit::KernelCache cache(memory_only());
  auto k = jit::compile(elementwise_spec(), options_for("sm_90a"), cache);
  (void)jit::compile(elementwise_spec(), options_for("sm_90a"), cache);  // memory hit: no line
  ::unsetenv("CUTE_DSL_PRINT_SOURCE");
  ::unsetenv("CUTE_DSL_JIT_TIME_PROFILING");
  ASSERT_TRUE(k) << k.error().describe();
  EXPECT_EQ(capture.count("source of cute_dsl_jit_test::scale<"), 1u) << capture.all();
  EXPECT_EQ(capture.count("#include \"elementwise.cuh\""), 1u) << capture.all();
  EXPECT_EQ(capture.count("(compiled): source "), 1u) << "one line per compile: " << capture.all();
  EXPECT_EQ(capture.count("nvrtc "), 1u) << capture.all();
}

TEST(MemoryKey, SameHeaderNameOtherContentsIsNotAHit) {
  jit::KernelCache cache(memory_only());
  jit::KernelSpec a = elementwise_spec();
  jit::KernelSpec b = a;
  std::string& text = b.headers[0].contents;
  text.replace(text.find("alpha * float"), 13, "alpha + float");  // same size, other kernel
  ASSERT_EQ(a.headers[0].contents.size(), b.headers[0].contents.size());
  jit::CompileReport ra, rb;
  auto ka = jit::compile(a, options_for("sm_90a"), cache, &ra);
  auto kb = jit::compile(b, options_for("sm_90a"), cache, &rb);
  ASSERT_TRUE(ka && kb);
  EXPECT_EQ(rb.outcome, jit::CacheOutcome::miss);
  EXPECT_NE((*ka)->key, (*kb)->key);
  jit::CompileOptions defined = options_for("sm_90a");
  defined.defines.push_back("CUTE_DSL_TEST_UNUSED=1");
  auto kd = jit::compile(a, defined, cache, &ra);
  ASSERT_TRUE(kd) << kd.error().describe();
  EXPECT_EQ(ra.outcome, jit::CacheOutcome::miss) << "a define is part of the fingerprint";
  TempDir dump;
  defined.dump = jit::DumpOptions{dump.path(), 0};  // not part of it
  ASSERT_TRUE(jit::compile(a, defined, cache, &ra));
  EXPECT_EQ(ra.outcome, jit::CacheOutcome::memory_hit);
}

}  // namespace
