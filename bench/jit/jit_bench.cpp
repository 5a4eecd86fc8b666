// The JIT's costs: cold compile of a small elementwise kernel that includes CuteDSL's layout
// headers (goal <= 0.3 s on the dev machine), a memory hit (goal <= 100 ns), and a disk hit in a
// fresh cache (goal: well under 1 ms to a kernel, before loading).
#include "cute_dsl/jit/jit.hpp"

#include <benchmark/benchmark.h>

#include <unistd.h>

#include <filesystem>

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

void BM_ColdCompile(benchmark::State& state) {
  const auto s = spec();
  const auto o = options();
  for (auto _ : state) {
    jit::KernelCache cache(jit::CacheConfig{false, {}});  // empty: every iteration runs NVRTC
    auto k = jit::compile(s, o, cache);
    if (!k) state.SkipWithError(k.error().describe().c_str());
    benchmark::DoNotOptimize(k);
  }
}
BENCHMARK(BM_ColdCompile)->Unit(benchmark::kMillisecond)->Iterations(5);

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

}  // namespace

BENCHMARK_MAIN();
