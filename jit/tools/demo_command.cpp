// `cute-dsl demo`: JIT-compiles the library's kernels (the entries of demo.hpp's providers).
// With a GPU: compiles them for it, runs each on random data, checks every element against a host
// reference and prints a table of time, rate and ratio to the reference. Without one (or with
// --no-gpu): compiles them for sm_90a, prints what each costs (registers, shared and local memory,
// CUBIN size), where the cache is, and says that no GPU was found. Starts on any machine: the
// driver is loaded only when asked for, and the CUDA runtime is linked statically.
#include "cli_number.hpp"
#include "commands.hpp"
#include "demo.hpp"

#include "cute_dsl/jit/jit.hpp"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace cute_dsl::tools {

namespace {

// Each provider returns the entries of one kernel family. The GEMM joins here (see demo.hpp).
constexpr demo::Provider kProviders[] = {
    demo::elementwise_entries,
    demo::gemm_entries,
};

void usage(std::FILE* out) {
  std::fprintf(out,
               "usage: cute-dsl demo [--no-gpu] [--elements N] [--runs R]\n"
               "\n"
               "JIT-compiles the library's kernels; with a GPU, runs, checks and times them against a\n"
               "reference (cudaMemcpy device-to-device for bandwidth-bound kernels, cuBLAS for the GEMM).\n"
               "  --no-gpu       compile for sm_90a and report resources only, even with a GPU\n"
               "  --elements N   elements per buffer for the elementwise kernels (default 2^26: 256 MiB of f32)\n"
               "  --runs R       timed runs per kernel, the median is reported (default 10)\n");
}

// The GPU's SM count, or why there is no usable GPU.
std::string gpu_missing(int& sm_count) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    return std::string("no usable CUDA driver or device (") + cudaGetErrorName(err) + ")";
  }
  if (cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess) return "cudaDeviceGetAttribute failed";
  return {};
}

std::string cache_folder() {
  const jit::CacheConfig& c = jit::default_cache().config();
  if (!c.use_disk || c.dir.empty()) return "memory only (CUTE_DSL_DISABLE_FILE_CACHE or no HOME)";
  return c.dir;
}

}  // namespace

int demo_command(std::span<char* const> args) {
  bool no_gpu = false;
  demo::GpuContext gpu;
  gpu.elements = 1ll << 26;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (a == "--help" || a == "-h") { usage(stdout); return 0; }
    if (a == "--no-gpu") { no_gpu = true; continue; }
    if (a == "--elements" || a == "--runs") {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "ERROR: %s needs a value\n", std::string(a).c_str());
        return 2;
      }
      const long long max = a == "--elements" ? (1ll << 36) : 1000000;
      const auto v = parse_integer(args[++i], 1, max);
      if (!v) {
        std::fputs(integer_error(a, args[i], 1, max).c_str(), stderr);
        return 2;
      }
      if (a == "--elements") gpu.elements = *v; else gpu.runs = static_cast<int>(*v);
      continue;
    }
    std::fprintf(stderr, "ERROR: unknown argument '%s'\n\n", std::string(a).c_str());
    usage(stderr);
    return 2;
  }

  std::string why_no_gpu = no_gpu ? "--no-gpu given" : gpu_missing(gpu.sm_count);
  jit::CompileOptions options;
  options.arch = "sm_90a";
  if (why_no_gpu.empty()) {
    auto arch = jit::device_arch();
    if (arch) options.arch = *arch;
    else why_no_gpu = arch.error().message;  // the runtime sees a GPU, the JIT's driver does not
  }
  const bool run = why_no_gpu.empty();

  std::printf("cute-dsl demo: the library's kernels through the JIT, for %s\n\n", options.arch.c_str());
  if (run)
    std::printf("%-22s %-24s %10s %10s %10s  %-15s %6s  %s\n", "kernel", "size", "time (ms)", "rate", "reference",
                "(what)", "ratio", "check");
  else
    std::printf("%-22s %-10s %9s %10s %10s %11s  %s\n", "kernel", "cache", "time (s)", "registers", "shared (B)",
                "local (B)", "cubin (B)");

  int failures = 0;
  for (demo::Provider provider : kProviders) {
    for (demo::Entry& entry : provider()) {
      jit::CompileReport report;
      auto compiled = jit::compile(entry.spec, options, &report);
      if (!compiled) {
        std::printf("%-22s compile FAILED\n%s", entry.name.c_str(), compiled.error().describe().c_str());
        ++failures;
        continue;
      }
      const jit::CompiledKernel& k = **compiled;
      auto usage_or = jit::read_resource_usage(k.binary, k.lowered_name);
      const jit::ResourceUsage usage = usage_or ? *usage_or : jit::ResourceUsage{};
      if (!run) {
        std::printf("%-22s %-10s %9.3f %10d %10lld %11lld  %zu\n", entry.name.c_str(),
                    std::string(jit::to_string(report.outcome)).c_str(), report.total_seconds, usage.registers,
                    usage.shared_bytes, usage.local_bytes, k.binary.size());
        continue;
      }
      auto loaded = jit::load(k);
      if (!loaded) {
        std::printf("%-22s load FAILED: %s\n", entry.name.c_str(), loaded.error().describe().c_str());
        ++failures;
        continue;
      }
      std::string error;
      const demo::Measurement m = entry.run(*loaded, usage, gpu, error);
      if (!error.empty()) {
        std::printf("%-22s run FAILED: %s\n", entry.name.c_str(), error.c_str());
        ++failures;
        continue;
      }
      const std::string rate = std::to_string(static_cast<long long>(m.rate + 0.5)) + " " + m.unit;
      const std::string ref = std::to_string(static_cast<long long>(m.reference_rate + 0.5)) + " " + m.unit;
      std::printf("%-22s %-24s %10.3f %10s %10s  %-15s %6.2f  %s %s\n", entry.name.c_str(), m.size.c_str(), m.ms,
                  rate.c_str(), ref.c_str(), m.reference.c_str(), m.reference_rate > 0 ? m.rate / m.reference_rate : 0.0,
                  m.correct ? "ok:" : "WRONG:", m.check.c_str());
      if (!m.correct) ++failures;
    }
  }

  std::printf("\ncache: %s\n", cache_folder().c_str());
  if (!run) {
    std::printf("no GPU: %s.\nCompiled for %s only; with a GPU the demo also runs, checks and times each kernel.\n",
                why_no_gpu.c_str(), options.arch.c_str());
  } else {
    std::printf("GB/s count bytes read + written; the reference moves the same bytes as a copy. TFLOP/s count\n"
                "2*M*N*K; the GEMM's reference is cuBLAS (bf16, f32 accumulation) on the same data. Times are medians\n"
                "of %d runs, L2 flushed before each.\n", gpu.runs);
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace cute_dsl::tools
