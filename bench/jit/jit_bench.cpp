// The JIT's costs: cold compile of a small elementwise kernel that includes CuteDSL's layout
// headers (goal <= 0.3 s on the dev machine) and of the heavy tiled copy (goal <= 1.5 s), each with
// and without link-time optimisation; a memory hit (goal <= 100 ns); a disk hit in a fresh cache;
// and a disk hit in a new process to a launchable kernel (goal <= 1 ms).
#include "cute_dsl/jit/jit.hpp"

#include <benchmark/benchmark.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

namespace {

namespace jit = cute_dsl::jit;

jit::KernelSpec spec() {
  jit::KernelSpec s;
  auto h = jit::load_header_file(CUTE_DSL_JIT_BENCH_KERNEL);
  s.header = h->name;
  s.headers.push_back(*h);
  s.kernel = "cute_dsl_jit_test::scale";
  s.template_args = jit::parse_template_args("f32, (4,8):(8,1), 128").value();
  return s;
}

jit::CompileOptions options() {
  jit::CompileOptions o;
  o.arch = "sm_90a";
  return o;
}

// The heavy kernel: bench/jit/kernels/tiled_copy.cuh (local_tile, local_partition, raked_product,
// right_inverse and a swizzled shared-memory tile, all static). Goal <= 1.5 s on the dev machine.
jit::KernelSpec heavy_spec() {
  jit::KernelSpec s;
  auto h = jit::load_header_file(CUTE_DSL_JIT_BENCH_HEAVY_KERNEL);
  s.header = h->name;
  s.headers.push_back(*h);
  s.kernel = "cute_dsl_jit_bench::tiled_copy";
  s.template_args = jit::parse_template_args("f32, 4096, 4096, 64, 64, 8, 32").value();
  return s;
}

// Args: heavy (0: the elementwise kernel, 1: the tiled copy), lto (0/1: CompileOptions::lto).
// CPU time is the figure to read on a loaded machine; real time is reported beside it.
void BM_ColdCompile(benchmark::State& state) {
  const auto s = state.range(0) ? heavy_spec() : spec();
  auto o = options();
  o.lto = state.range(1) != 0;
  for (auto _ : state) {
    jit::KernelCache cache(jit::CacheConfig{false, {}});  // empty: every iteration runs NVRTC
    auto k = jit::compile(s, o, cache);
    if (!k) {
      state.SkipWithError(k.error().describe().c_str());
      return;
    }
    state.counters["cubin_bytes"] = static_cast<double>((*k)->binary.size());
    benchmark::DoNotOptimize(k);
  }
}
BENCHMARK(BM_ColdCompile)
    ->ArgNames({"heavy", "lto"})
    ->ArgsProduct({{0, 1}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);

void BM_MemoryHit(benchmark::State& state) {
  const auto s = spec();
  const auto o = options();
  jit::KernelCache cache(jit::CacheConfig{false, {}});
  (void)jit::compile(s, o, cache);
  for (auto _ : state) benchmark::DoNotOptimize(jit::compile(s, o, cache));
}
BENCHMARK(BM_MemoryHit);

void BM_MemoryHitPrepared(benchmark::State& state) {
  jit::KernelCache cache(jit::CacheConfig{false, {}});
  const auto prepared = jit::prepare(spec(), options());
  (void)jit::compile(prepared, cache);
  for (auto _ : state) benchmark::DoNotOptimize(jit::compile(prepared, cache));
}
BENCHMARK(BM_MemoryHitPrepared);

// Reference point, not a path the library takes any more: hashing the whole request text (spec
// with header contents, options) with the content Hasher, which is what a memory hit cost before
// the fast fingerprint (src/request_fingerprint.hpp). Compare BM_MemoryHit with it on one machine.
void BM_HitReference_WholeTextHash(benchmark::State& state) {
  const auto s = spec();
  const auto o = options();
  for (auto _ : state) {
    jit::Hasher h;
    s.hash_into(h);
    o.hash_into(h);
    benchmark::DoNotOptimize(h.finish());
  }
}
BENCHMARK(BM_HitReference_WholeTextHash);

void BM_DiskHit(benchmark::State& state) {
  const std::string dir = (std::filesystem::temp_directory_path() / ("cute_dsl_jit_bench." + std::to_string(::getpid()))).string();
  const auto prepared = jit::prepare(spec(), options());
  {
    jit::KernelCache warm(jit::CacheConfig{true, dir});
    (void)jit::compile(prepared, warm);
  }
  for (auto _ : state) {
    jit::KernelCache cache(jit::CacheConfig{true, dir});  // fresh memory, as in a new process
    jit::CompileReport report;
    auto k = jit::compile(prepared, cache, &report);
    if (!k || report.outcome != jit::CacheOutcome::disk_hit) state.SkipWithError("expected a disk hit");
    benchmark::DoNotOptimize(k);
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}
BENCHMARK(BM_DiskHit)->Unit(benchmark::kMicrosecond);

// A warm disk hit in a NEW process, to a launchable kernel: disk_hit_probe (spawned per
// iteration) times compile() (a disk hit: key, read, checksum) and load() in its own fresh
// process, after creating its context. The time reported is the probe's own figure (manual time);
// without a GPU it stops at the CUBIN in memory (load_us = -1) and says so in the label.
// Goal <= 1 ms. `spawn_ms` is the whole child process, start-up included, for reference.
void BM_NewProcessDiskHit(benchmark::State& state) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("cute_dsl_jit_probe." + std::to_string(::getpid()))).string();
  const std::string probe = CUTE_DSL_JIT_DISK_HIT_PROBE;
  auto run = [&](const std::string& args, double& compile_us, double& load_us) {
    std::string command = "'" + probe + "' '" + dir + "' " + args;
    FILE* p = ::popen(command.c_str(), "r");
    if (!p) return false;
    char line[256] = {};
    const bool read = std::fgets(line, sizeof line, p) != nullptr;
    const int status = ::pclose(p);
    int disk_hit = 0;
    return read && status == 0 &&
           std::sscanf(line, "compile_us=%lf load_us=%lf disk_hit=%d", &compile_us, &load_us, &disk_hit) == 3 &&
           (args == "prime" || disk_hit == 1);
  };
  double compile_us = 0, load_us = 0, spawn_ms = 0;
  if (!run("prime", compile_us, load_us)) {
    state.SkipWithError("disk_hit_probe failed to prime the cache");
    return;
  }
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    if (!run("", compile_us, load_us)) {
      state.SkipWithError("disk_hit_probe failed or did not hit the disk");
      break;
    }
    spawn_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    state.SetIterationTime((compile_us + (load_us > 0 ? load_us : 0)) * 1e-6);
    state.counters["compile_us"] = compile_us;
    state.counters["load_us"] = load_us;
    state.counters["spawn_ms"] = spawn_ms;
  }
  state.SetLabel(load_us < 0 ? "no GPU: to the CUBIN in memory; the load part needs the GPU" : "to a launchable kernel");
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}
BENCHMARK(BM_NewProcessDiskHit)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(20)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);

}  // namespace

BENCHMARK_MAIN();
