// Launch cost on the GPU: the JIT's PreparedLaunch vs a raw cuLaunchKernelEx of the same empty
// kernel, in the same run (goal: <= +0.3 us per launch), plus the one-off jit::launch(). Each
// benchmark synchronises every kBatch launches (inside the timing, the same for all three) so the
// queue never fills and blocks. Without a GPU every benchmark skips with the reason.
#include "cute_dsl/jit/jit.hpp"

#include <benchmark/benchmark.h>

#include <dlfcn.h>

#include <optional>

namespace {

namespace jit = cute_dsl::jit;
constexpr int kBatch = 256;

struct Setup {
  std::optional<jit::LoadedKernel> kernel;
  std::string error;
  int (*sync)() = nullptr;
};

// Compiles and loads `empty(float*, int)` once for the whole run.
Setup& setup() {
  static Setup s = [] {
    Setup out;
    auto arch = jit::device_arch();
    if (!arch) {
      out.error = "no GPU: " + arch.error().message;
      return out;
    }
    jit::KernelSpec spec;
    spec.source = "extern \"C\" __global__ void empty(float*, int) {}";
    spec.kernel = "empty";
    jit::CompileOptions options;
    options.arch = *arch;
    auto compiled = jit::compile(spec, options);
    if (!compiled) {
      out.error = compiled.error().describe();
      return out;
    }
    auto loaded = jit::load(**compiled);
    if (!loaded) {
      out.error = loaded.error().describe();
      return out;
    }
    out.kernel.emplace(std::move(loaded).value());
    out.sync = reinterpret_cast<int (*)()>(dlsym(dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD), "cuCtxSynchronize"));
    return out;
  }();
  return s;
}

jit::LaunchConfig config() {
  jit::LaunchConfig c;
  c.grid = {1};
  c.block = {32};
  return c;
}

template <class Launch>
void run(benchmark::State& state, Launch&& launch) {
  Setup& s = setup();
  int i = 0;
  for (auto _ : state) {
    if (launch() != 0) {
      state.SkipWithError("launch failed");
      break;
    }
    if (++i == kBatch) {
      s.sync();
      i = 0;
    }
  }
  s.sync();
  state.SetItemsProcessed(state.iterations());
}

void BM_RawCuLaunchKernelEx(benchmark::State& state) {
  Setup& s = setup();
  if (!s.kernel) return state.SkipWithError(s.error.c_str());
  auto launch_ex = reinterpret_cast<int (*)(const jit::detail::CuLaunchConfig*, void*, void**, void**)>(
      dlsym(dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD), "cuLaunchKernelEx"));
  jit::detail::CuLaunchConfig cu;
  cu.block_x = 32;
  float* p = nullptr;
  int n = 0;
  void* params[] = {&p, &n};
  void* fn = s.kernel->function();
  run(state, [&] { return launch_ex(&cu, fn, params, nullptr); });
}

void BM_PreparedLaunch(benchmark::State& state) {
  Setup& s = setup();
  if (!s.kernel) return state.SkipWithError(s.error.c_str());
  auto prepared = jit::prepare_launch(*s.kernel, config(), static_cast<float*>(nullptr), 0);
  if (!prepared) return state.SkipWithError(prepared.error().describe().c_str());
  run(state, [&] { return prepared->launch() ? 0 : 1; });
}

void BM_OneOffLaunch(benchmark::State& state) {
  Setup& s = setup();
  if (!s.kernel) return state.SkipWithError(s.error.c_str());
  const auto c = config();
  float* p = nullptr;
  run(state, [&] { return jit::launch(*s.kernel, c, p, 0) ? 0 : 1; });
}

BENCHMARK(BM_RawCuLaunchKernelEx);
BENCHMARK(BM_PreparedLaunch);
BENCHMARK(BM_OneOffLaunch);

}  // namespace

BENCHMARK_MAIN();
