// The disk cache: a second process hits it; damaged entries are rebuilt; a folder that cannot be
// written degrades to memory-only with one warning.
#include "jit_test_support.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>

namespace {

using namespace jit_test;

jit::KernelPtr compile_into(jit::KernelCache& cache, jit::CacheOutcome expected) {
  jit::CompileReport report;
  auto k = jit::compile(elementwise_spec(), options_for("sm_90a"), cache, &report);
  EXPECT_TRUE(k) << (k ? "" : k.error().describe());
  EXPECT_EQ(report.outcome, expected) << "got " << jit::to_string(report.outcome);
  return k ? *k : nullptr;
}

TEST(DiskCache, SecondProcessHitsTheDisk) {
  TempDir dir;
  std::string out;
  ASSERT_EQ(run_command(self_path() + " --probe-compile " + dir.path(), out), 0) << out;
  EXPECT_NE(out.find("outcome: miss"), std::string::npos) << out;
  ASSERT_EQ(run_command(self_path() + " --probe-compile " + dir.path(), out), 0) << out;
  EXPECT_NE(out.find("outcome: disk hit"), std::string::npos) << out;
  const auto entries = jit::list_disk_entries(dir.path());
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_TRUE(entries[0].valid);
  EXPECT_EQ(entries[0].arch, "sm_90a");
}

TEST(DiskCache, SixteenProcessesOnOneKeyAllSucceedAndLeaveOneEntry) {
  // The benign race: all compile, each renames its own whole file into place.
  TempDir dir;
  std::string command = "for i in $(seq 16); do " + self_path() + " --probe-compile " + dir.path() + " & done; wait";
  std::string out;
  ASSERT_EQ(run_command(command, out), 0) << out;
  std::size_t ok = 0;
  for (std::size_t at = out.find("outcome: "); at != std::string::npos; at = out.find("outcome: ", at + 1)) ++ok;
  EXPECT_EQ(ok, 16u) << out;
  EXPECT_EQ(out.find("error"), std::string::npos) << out;
  const auto entries = jit::list_disk_entries(dir.path());
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_TRUE(entries[0].valid);
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) files += e.is_regular_file();
  EXPECT_EQ(files, 1u) << "no temporary file is left behind";
  ASSERT_EQ(run_command(self_path() + " --probe-compile " + dir.path(), out), 0) << out;
  EXPECT_NE(out.find("outcome: disk hit"), std::string::npos) << out;
}

TEST(DiskCache, SizeCapEvictsTheLeastRecentlyUsed) {
  namespace fs = std::filesystem;
  TempDir dir;
  auto compile_one = [](jit::KernelCache& cache, const char* targs, jit::CacheOutcome expected) {
    jit::CompileReport report;
    auto k = jit::compile(elementwise_spec(targs), options_for("sm_90a"), cache, &report);
    EXPECT_TRUE(k) << (k ? "" : k.error().describe());
    EXPECT_EQ(report.outcome, expected) << targs;
    return cache.entry_path((*k)->key);
  };
  jit::CacheConfig config = on_disk(dir.path());
  config.max_bytes = 0;
  std::string a, b;
  {
    jit::KernelCache cache(config);
    a = compile_one(cache, "f32, 32:1, 32", jit::CacheOutcome::miss);
    b = compile_one(cache, "f32, 32:1, 64", jit::CacheOutcome::miss);
  }
  // a written first, b later; then a is used (a disk hit), so b is the least recently used.
  fs::last_write_time(a, fs::file_time_type::clock::now() - std::chrono::seconds(100));
  fs::last_write_time(b, fs::file_time_type::clock::now() - std::chrono::seconds(50));
  {
    jit::KernelCache cache(config);
    compile_one(cache, "f32, 32:1, 32", jit::CacheOutcome::disk_hit);
  }
  const auto size_a = fs::file_size(a), size_b = fs::file_size(b);
  config.max_bytes = size_a + size_b + std::min(size_a, size_b) / 2;  // room for two entries, not three
  jit::KernelCache cache(config);
  const std::string c = compile_one(cache, "f32, 32:1, 128", jit::CacheOutcome::miss);
  EXPECT_TRUE(fs::exists(a)) << "recently used";
  EXPECT_FALSE(fs::exists(b)) << "least recently used";
  EXPECT_TRUE(fs::exists(c)) << "just written";
  EXPECT_EQ(cache.counters().evicted_entries, 1u);
}

TEST(DiskCache, DiskHitEqualsTheCompiledKernel) {
  TempDir dir;
  jit::KernelPtr compiled, loaded;
  {
    jit::KernelCache cache(on_disk(dir.path()));
    compiled = compile_into(cache, jit::CacheOutcome::miss);
    EXPECT_EQ(cache.counters().disk_writes, 1u);
  }
  jit::KernelCache fresh(on_disk(dir.path()));
  loaded = compile_into(fresh, jit::CacheOutcome::disk_hit);
  ASSERT_TRUE(compiled && loaded);
  EXPECT_EQ(compiled->binary, loaded->binary);
  EXPECT_EQ(compiled->lowered_name, loaded->lowered_name);
  EXPECT_EQ(compiled->name_expression, loaded->name_expression);
  EXPECT_TRUE(compiled->key == loaded->key);
  compile_into(fresh, jit::CacheOutcome::memory_hit);
}

// Each kind of damage: the entry is detected on load, removed, compiled again and rewritten.
void expect_rebuilt(const std::function<void(std::string&)>& damage, const char* what) {
  SCOPED_TRACE(what);
  TempDir dir;
  std::string path;
  {
    jit::KernelCache cache(on_disk(dir.path()));
    auto k = compile_into(cache, jit::CacheOutcome::miss);
    ASSERT_TRUE(k);
    path = cache.entry_path(k->key);
  }
  std::string bytes = read_text(path);
  damage(bytes);
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << bytes;
  }
  jit::KernelCache cache(on_disk(dir.path()));
  compile_into(cache, jit::CacheOutcome::miss);
  EXPECT_EQ(cache.counters().damaged_entries, 1u);
  EXPECT_EQ(cache.counters().disk_writes, 1u);
  EXPECT_TRUE(jit::decode_disk_entry(read_text(path), nullptr).has_value()) << "the entry was rewritten whole";
}

TEST(DiskCache, TruncatedEntryIsRebuilt) {
  expect_rebuilt([](std::string& b) { b.resize(b.size() / 2); }, "truncated");
  expect_rebuilt([](std::string& b) { b.resize(50); }, "truncated inside the header");
  expect_rebuilt([](std::string& b) { b.clear(); }, "empty");
}

TEST(DiskCache, GarbageEntryIsRebuilt) {
  expect_rebuilt([](std::string& b) { b.assign(b.size(), 'x'); }, "garbage");
  expect_rebuilt([](std::string& b) { b[b.size() - 10] ^= 0x20; }, "one flipped payload byte");
}

TEST(DiskCache, WrongVersionEntryIsRebuilt) {
  expect_rebuilt([](std::string& b) { b[8] = static_cast<char>(jit::kDiskFormatVersion + 1); }, "next format version");
}

TEST(DiskCache, EveryByteOfAnEntryIsChecked) {
  jit::CompiledKernel k;
  k.key = jit::hash128("key");
  k.name_expression = "f<1>";
  k.lowered_name = "_Z1fILi1EEvv";
  k.arch = "sm_90a";
  k.binary = std::string("\x7f" "ELF\0binary", 10);
  k.log = "warning";
  const std::string bytes = jit::encode_disk_entry(k);
  auto back = jit::decode_disk_entry(bytes, &k.key);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->binary, k.binary);
  EXPECT_EQ(back->lowered_name, k.lowered_name);
  const auto other = jit::hash128("other key");
  EXPECT_FALSE(jit::decode_disk_entry(bytes, &other)) << "an entry under the wrong name";
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    std::string damaged = bytes;
    damaged[i] ^= 0x01;
    EXPECT_FALSE(jit::decode_disk_entry(damaged, nullptr)) << "flip at byte " << i;
  }
  for (std::size_t n = 0; n < bytes.size(); ++n)
    EXPECT_FALSE(jit::decode_disk_entry(std::string_view(bytes).substr(0, n), nullptr)) << "prefix of " << n;
}

TEST(DiskCache, UnwritableFolderDegradesToMemoryWithOneWarning) {
  TempDir dir;
  const std::string file = dir.path() + "/a_file";
  std::ofstream(file) << "not a folder";
  testing::internal::CaptureStderr();
  jit::KernelCache cache(on_disk(file + "/cache"));  // cannot exist: its parent is a file
  compile_into(cache, jit::CacheOutcome::miss);
  compile_into(cache, jit::CacheOutcome::memory_hit);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_FALSE(cache.disk_enabled());
  EXPECT_NE(err.find("warning"), std::string::npos) << err;
  EXPECT_NE(err.find("memory only"), std::string::npos) << err;
  EXPECT_EQ(err.find("warning"), err.rfind("warning")) << "one warning, not one per compile:\n" << err;
}

TEST(DiskCache, ReadOnlyFolderDegradesToMemoryWithOneWarning) {
  TempDir dir;
  std::string folder = dir.path();
  const bool root = ::geteuid() == 0;
  // Root writes through mode 0555, so as root the folder is one where nobody may create a file:
  // procfs refuses write access to /proc/self even to root.
  if (root) folder = "/proc/self";
  else ASSERT_EQ(::chmod(folder.c_str(), 0555), 0);
  testing::internal::CaptureStderr();
  jit::KernelCache cache(on_disk(folder));
  compile_into(cache, jit::CacheOutcome::miss);
  compile_into(cache, jit::CacheOutcome::memory_hit);
  jit::CompileReport report;
  auto other = jit::compile(elementwise_spec("f64, (4,8):(8,1), 128"), options_for("sm_90a"), cache, &report);
  const std::string err = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(other) << other.error().describe();
  EXPECT_EQ(report.outcome, jit::CacheOutcome::miss) << "a second kernel compiles too";
  EXPECT_FALSE(cache.disk_enabled());
  EXPECT_NE(err.find("not writable"), std::string::npos) << err;
  EXPECT_NE(err.find("memory only"), std::string::npos) << err;
  EXPECT_EQ(err.find("warning"), err.rfind("warning")) << "one warning, not one per compile:\n" << err;
}

TEST(DiskCache, ListAndClear) {
  TempDir dir;
  {
    jit::KernelCache cache(on_disk(dir.path()));
    compile_into(cache, jit::CacheOutcome::miss);
  }
  std::ofstream(dir.path() + "/0123.cdk") << "garbage";
  std::ofstream(dir.path() + "/unrelated.txt") << "kept";
  auto entries = jit::list_disk_entries(dir.path());
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].valid + entries[1].valid, 1);
  EXPECT_EQ(jit::clear_disk_entries(dir.path()), 2u);
  EXPECT_TRUE(jit::list_disk_entries(dir.path()).empty());
  EXPECT_TRUE(std::filesystem::exists(dir.path() + "/unrelated.txt"));
}

// `cache clear` leaves other processes' stores in flight alone; a store that loses its temporary
// file or meets a directory at the entry's path skips that one store, the disk stays in use
// (issue 13: such races turned the disk cache off for the process's lifetime).
TEST(DiskCache, ClearAndOddEntriesCostOneStoreNotTheDisk) {
  namespace fs = std::filesystem;
  TempDir dir;
  const std::string in_flight = dir.path() + "/0123.cdk.tmp.42.0.7";
  const std::string leftover = dir.path() + "/4567.cdk.tmp.42.1.7";
  std::ofstream(in_flight) << "half";
  std::ofstream(leftover) << "old";
  fs::last_write_time(leftover, fs::file_time_type::clock::now() - std::chrono::hours(1));
  EXPECT_EQ(jit::clear_disk_entries(dir.path()), 1u);
  EXPECT_TRUE(fs::exists(in_flight));
  EXPECT_FALSE(fs::exists(leftover));
  fs::remove(in_flight);

  jit::Hash128 key;
  {
    jit::KernelCache cache(on_disk(dir.path()));
    key = compile_into(cache, jit::CacheOutcome::miss)->key;
  }
  const std::string entry = dir.path() + "/" + key.hex() + std::string(jit::kDiskEntrySuffix);
  fs::remove(entry);
  fs::create_directory(entry);  // not empty: the damaged-entry clean-up cannot remove it
  std::ofstream(entry + "/inside") << "x";
  jit::KernelCache cache(on_disk(dir.path()));
  compile_into(cache, jit::CacheOutcome::miss);
  EXPECT_TRUE(cache.disk_enabled()) << "one store failed; the disk cache stays on";
  const auto entries = jit::list_disk_entries(dir.path());
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_FALSE(entries[0].valid);
  EXPECT_EQ(entries[0].file_bytes, 0u) << "a directory has no size, not 2^64 - 1";
  EXPECT_EQ(jit::clear_disk_entries(dir.path()), 1u);
  EXPECT_FALSE(fs::exists(entry));
}

TEST(DiskCache, EnvironmentChoosesTheFolder) {
  ::setenv("CUTE_DSL_DISABLE_FILE_CACHE", "1", 1);
  EXPECT_FALSE(jit::CacheConfig::from_environment().use_disk);
  ::setenv("CUTE_DSL_DISABLE_FILE_CACHE", "0", 1);
  ::setenv("CUTE_DSL_CACHE_DIR", "/somewhere/else", 1);
  EXPECT_EQ(jit::CacheConfig::from_environment().dir, "/somewhere/else");
  ::unsetenv("CUTE_DSL_CACHE_DIR");
  ::setenv("XDG_CACHE_HOME", "/xdg", 1);
  EXPECT_EQ(jit::CacheConfig::from_environment().dir, "/xdg/cute_dsl");
  ::unsetenv("XDG_CACHE_HOME");
  ::setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(jit::CacheConfig::from_environment().dir, "/home/someone/.cache/cute_dsl");
  ::setenv("CUTE_DSL_CACHE_MAX_BYTES", "12345", 1);
  EXPECT_EQ(jit::CacheConfig::from_environment().max_bytes, 12345u);
  ::unsetenv("CUTE_DSL_CACHE_MAX_BYTES");
  EXPECT_EQ(jit::CacheConfig::from_environment().max_bytes, jit::CacheConfig::kDefaultMaxBytes);
  ::setenv("CUTE_DSL_DISABLE_FILE_CACHE", "1", 1);
}

// Values are read strictly (jit/src/env.hpp): what is not a spelling of the type is a warning and
// the default, never a silent guess (issue 13: "false" disabled the cache, -1 meant no cap).
TEST(DiskCache, EnvironmentValuesAreReadStrictly) {
  std::string warnings;
  jit::set_log_sink([&](jit::LogLevel level, std::string_view s) {
    if (level == jit::LogLevel::warn) warnings += std::string(s) + "\n";
  });
  ::setenv("CUTE_DSL_CACHE_DIR", "/somewhere", 1);
  for (const char* off : {"0", "false", "No", "OFF"}) {
    ::setenv("CUTE_DSL_DISABLE_FILE_CACHE", off, 1);
    EXPECT_TRUE(jit::CacheConfig::from_environment().use_disk) << off;
  }
  for (const char* on : {"1", "true", "YES", "on"}) {
    ::setenv("CUTE_DSL_DISABLE_FILE_CACHE", on, 1);
    const auto c = jit::CacheConfig::from_environment();
    EXPECT_FALSE(c.use_disk) << on;
    EXPECT_EQ(c.dir, "/somewhere") << "the folder stays named, for `cute-dsl cache`";
  }
  EXPECT_TRUE(warnings.empty()) << warnings;
  ::setenv("CUTE_DSL_DISABLE_FILE_CACHE", "maybe", 1);
  EXPECT_TRUE(jit::CacheConfig::from_environment().use_disk);
  EXPECT_NE(warnings.find("CUTE_DSL_DISABLE_FILE_CACHE='maybe' is not 1/true/yes/on or 0/false/no/off; ignored"),
            std::string::npos) << warnings;
  ::unsetenv("CUTE_DSL_DISABLE_FILE_CACHE");
  for (const char* bad : {"-1", "4G", " 5", "99999999999999999999999"}) {
    warnings.clear();
    ::setenv("CUTE_DSL_CACHE_MAX_BYTES", bad, 1);
    EXPECT_EQ(jit::CacheConfig::from_environment().max_bytes, jit::CacheConfig::kDefaultMaxBytes) << bad;
    EXPECT_NE(warnings.find(std::string("CUTE_DSL_CACHE_MAX_BYTES='") + bad + "' is not a byte count"), std::string::npos)
        << warnings;
  }
  ::unsetenv("CUTE_DSL_CACHE_MAX_BYTES");
  ::unsetenv("CUTE_DSL_CACHE_DIR");
  ::setenv("CUTE_DSL_DISABLE_FILE_CACHE", "1", 1);
  jit::set_log_sink({});
}

}  // namespace

namespace {

using namespace jit_test;

TEST(Dump, DumpDirKeepsArtifactsWithoutDisablingTheCache) {
  TempDir cache_dir, dump_dir;
  jit::KernelCache cache(on_disk(cache_dir.path()));
  {
    ScopedEnv dump_env("CUTE_DSL_DUMP_DIR", dump_dir.path().c_str());
    compile_into(cache, jit::CacheOutcome::miss);
  }
  EXPECT_EQ(cache.counters().disk_writes, 1u) << "the cache still works";
  std::vector<std::string> suffixes;
  for (const auto& e : std::filesystem::directory_iterator(dump_dir.path()))
    suffixes.push_back(e.path().extension().string());
  std::sort(suffixes.begin(), suffixes.end());
  // Everything by default (CUTE_DSL_KEEP unset); SASS only where a disassembler is found.
  std::vector<std::string> expected{".cu", ".cubin", ".json", ".ptx"};
  if (!jit::sass_tool().empty()) expected.push_back(".sass");
  EXPECT_EQ(suffixes, expected);
  for (const auto& e : std::filesystem::directory_iterator(dump_dir.path()))
    if (e.path().extension() == ".json") {
      const std::string json = read_text(e.path().string());
      EXPECT_NE(json.find("\"cache\": \"compiled\""), std::string::npos) << json;
      EXPECT_NE(json.find("\"registers\": "), std::string::npos) << json;
    } else if (e.path().extension() == ".cu") {
      EXPECT_NE(read_text(e.path().string()).find("#include \"elementwise.cuh\""), std::string::npos);
    }
}

}  // namespace
