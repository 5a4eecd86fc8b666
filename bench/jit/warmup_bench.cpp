// warmup() of 16 distinct small kernels into an empty disk cache: worker processes against
// threads of one process. One iteration each: a batch takes 0.3-1.2 s on a 16-core host, 3-4 s on
// a loaded 2-core one. The default run is 1 and 8 workers of each kind (4 batches, ~3 s on the
// H200 host, < 20 s on the 2-core dev box); CUTE_DSL_WARMUP_BENCH_ALL=1 adds 2 and 4 workers.
// Results: bench/results/jit_warmup_and_hit_2026-11-22.md, jit_2026-11-22_h200.md.
#include "cute_dsl/jit/jit.hpp"

#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <utility>
#include <vector>

namespace {

namespace jit = cute_dsl::jit;

std::vector<jit::KernelSpec> sixteen_kernels() {
  auto h = jit::load_header_file(CUTE_DSL_JIT_BENCH_KERNEL);
  std::vector<jit::KernelSpec> specs;
  for (int threads = 32; threads <= 512; threads += 32) {
    jit::KernelSpec s;
    s.header = h->name;
    s.headers.push_back(*h);
    s.kernel = "cute_dsl_jit_test::scale";
    s.template_args = jit::parse_template_args("f32, (4,8):(8,1), " + std::to_string(threads)).value();
    specs.push_back(std::move(s));
  }
  return specs;
}

void run(benchmark::State& state, bool processes) {
  const auto specs = sixteen_kernels();
  jit::CompileOptions o;
  o.arch = "sm_90a";
  jit::WarmupOptions w;
  w.workers = static_cast<int>(state.range(0));
  w.progress = false;
  w.use_processes = processes;
  if (processes && jit::find_warmup_worker(w).empty()) state.SkipWithError("cute-dsl-jit-worker not found");
  int n = 0;
  for (auto _ : state) {
    const std::string dir = (std::filesystem::temp_directory_path() /
                             ("cute_dsl_warmup_bench." + std::to_string(::getpid()) + "." + std::to_string(n++))).string();
    jit::KernelCache cache(jit::CacheConfig{true, dir});
    const auto results = jit::warmup(specs, o, w, cache);
    for (const auto& r : results)
      if (!r.kernel) state.SkipWithError(r.kernel.error().describe().c_str());
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  state.counters["kernels"] = static_cast<double>(specs.size());
}

void BM_WarmupProcesses(benchmark::State& state) { run(state, true); }
void BM_WarmupThreads(benchmark::State& state) { run(state, false); }

// Registered at run time: the worker counts depend on CUTE_DSL_WARMUP_BENCH_ALL. Processes and
// threads alternate per count, so a drift in the machine's load touches both alike.
void register_benchmarks() {
  const char* all = std::getenv("CUTE_DSL_WARMUP_BENCH_ALL");
  const bool every_count = all && *all && std::string_view(all) != "0";
  const std::vector<int> counts = every_count ? std::vector<int>{1, 2, 4, 8} : std::vector<int>{1, 8};
  for (int n : counts)
    for (auto [name, fn] : {std::pair{"BM_WarmupProcesses", &BM_WarmupProcesses},
                            std::pair{"BM_WarmupThreads", &BM_WarmupThreads}})
      benchmark::RegisterBenchmark(name, fn)->Arg(n)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();
}

}  // namespace

int main(int argc, char** argv) {
  register_benchmarks();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
