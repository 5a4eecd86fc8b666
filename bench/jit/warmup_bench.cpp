// warmup() of 16 distinct small kernels into an empty disk cache: worker processes (1, 2, ...)
// against threads of one process. One iteration each: a batch takes seconds. Results:
// bench/results/jit_warmup.md.
#include "cute_dsl/jit/jit.hpp"

#include <benchmark/benchmark.h>

#include <unistd.h>

#include <filesystem>

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
BENCHMARK(BM_WarmupProcesses)->Arg(1)->Arg(2)->Arg(4)->Arg(8)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();
BENCHMARK(BM_WarmupThreads)->Arg(1)->Arg(2)->Arg(4)->Arg(8)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
