// Loading a CUBIN on the GPU: cuModuleLoadData + cuModuleGetFunction against cuLibraryLoadData +
// cuLibraryGetKernel + cuKernelGetFunction (jit::LoadMethod), for a small CUBIN (an empty
// kernel, ~4 KB) and a large one (a kernel reading a 1 MiB initialised __device__ table, ~1 MB),
// timed to the function handle and, separately, to the end of a first launch (the driver may
// defer uploading code until then: lazy loading). The context exists before any timing. Medians
// over repetitions. Without a GPU every benchmark skips with the reason.
#include "cute_dsl/jit/jit.hpp"

#include <benchmark/benchmark.h>

#include <dlfcn.h>

#include <chrono>
#include <string>

namespace {

namespace jit = cute_dsl::jit;
using Clock = std::chrono::steady_clock;

const char* const kSmall = "extern \"C\" __global__ void probe(float* out, int n) { if (n > 0) out[0] = 1.f; }\n";
// The table is read, so link-time optimisation keeps it.
const char* const kLarge =
    "__device__ float probe_table[1 << 18] = {1.f, 2.f, 3.f};\n"
    "extern \"C\" __global__ void probe(float* out, int n) {\n"
    "  if (n > 0) out[threadIdx.x] = probe_table[(threadIdx.x * 7919) % (1 << 18)];\n}\n";

struct Setup {
  jit::KernelPtr small, large;
  std::string error;
  int (*sync)() = nullptr;
};

Setup& setup() {
  static Setup s = [] {
    Setup out;
    auto arch = jit::device_arch();
    if (!arch) {
      out.error = "no GPU: " + arch.error().message;
      return out;
    }
    if (auto ctx = jit::use_device(0); !ctx) {  // the context is not what is measured
      out.error = ctx.error().describe();
      return out;
    }
    jit::CompileOptions options;
    options.arch = *arch;
    for (auto [source, slot] : {std::pair{kSmall, &out.small}, std::pair{kLarge, &out.large}}) {
      jit::KernelSpec spec;
      spec.source = source;
      spec.kernel = "probe";
      auto compiled = jit::compile(spec, options);
      if (!compiled) {
        out.error = compiled.error().describe();
        return out;
      }
      *slot = *compiled;
    }
    out.sync = reinterpret_cast<int (*)()>(dlsym(dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD), "cuCtxSynchronize"));
    return out;
  }();
  return s;
}

// Args: method (0 module, 1 library), size (0 small, 1 large), to_first_launch (0/1).
void BM_Load(benchmark::State& state) {
  Setup& s = setup();
  if (!s.error.empty()) {
    state.SkipWithError(s.error.c_str());
    return;
  }
  jit::LoadOptions options;
  options.method = state.range(0) ? jit::LoadMethod::library : jit::LoadMethod::module;
  const jit::CompiledKernel& kernel = *(state.range(1) ? s.large : s.small);
  const bool first_launch = state.range(2) != 0;
  jit::LaunchConfig config;
  config.block = {32};
  for (auto _ : state) {
    const auto start = Clock::now();
    auto loaded = jit::load(kernel, options);
    if (!loaded) {
      state.SkipWithError(loaded.error().describe().c_str());
      return;
    }
    if (first_launch) {
      if (!jit::launch(*loaded, config, static_cast<float*>(nullptr), 0) || s.sync() != 0) {
        state.SkipWithError("the first launch failed");
        return;
      }
    }
    state.SetIterationTime(std::chrono::duration<double>(Clock::now() - start).count());
    // Unloading (the LoadedKernel's destructor) is outside the timing.
  }
  state.counters["cubin_bytes"] = static_cast<double>(kernel.binary.size());
}
BENCHMARK(BM_Load)
    ->ArgNames({"library", "large", "launch"})
    ->ArgsProduct({{0, 1}, {0, 1}, {0, 1}})
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(50)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);

}  // namespace

BENCHMARK_MAIN();
