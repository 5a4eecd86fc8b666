// A new process's warm disk hit, to a launchable kernel: what jit_bench's BM_NewProcessDiskHit
// spawns, again and again. `disk_hit_probe DIR prime` compiles the heavy kernel into the cache
// folder DIR; `disk_hit_probe DIR` then times, in this fresh process, compile() (fingerprint, key,
// disk read, checksum: a disk hit) and load() (module and function), and prints
//   compile_us=<t> load_us=<t or -1 without a GPU> disk_hit=<1 or 0>
// The spec is built (its header read) and the GPU context created before the clock starts: the
// first is the caller's own work, the second a once-per-process cost that is not the JIT's.
#include "cute_dsl/jit/jit.hpp"

#include <chrono>
#include <cstdio>
#include <string>

namespace jit = cute_dsl::jit;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CACHE_DIR [prime]\n", argv[0]);
    return 2;
  }
  const bool prime = argc > 2 && std::string(argv[2]) == "prime";
  auto header = jit::load_header_file(CUTE_DSL_JIT_BENCH_HEAVY_KERNEL);
  if (!header) {
    std::fputs(header.error().describe().c_str(), stderr);
    return 1;
  }
  jit::KernelSpec spec;
  spec.header = header->name;
  spec.headers.push_back(*header);
  spec.kernel = "cute_dsl_jit_bench::tiled_copy";
  spec.template_args = jit::parse_template_args("f32, 4096, 4096, 64, 64, 8, 32").value();
  jit::CompileOptions options;
  auto device = jit::device_arch();
  const bool gpu = device.has_value();
  options.arch = gpu ? *device : "sm_90a";
  if (gpu && !jit::use_device(0)) return 1;
  jit::KernelCache cache(jit::CacheConfig{true, argv[1]});

  const auto start = Clock::now();
  jit::CompileReport report;
  auto kernel = jit::compile(spec, options, cache, &report);
  const auto compiled = Clock::now();
  if (!kernel) {
    std::fputs(kernel.error().describe().c_str(), stderr);
    return 1;
  }
  double load_us = -1;
  if (gpu && !prime) {
    auto loaded = jit::load(**kernel);
    if (!loaded) {
      std::fputs(loaded.error().describe().c_str(), stderr);
      return 1;
    }
    load_us = std::chrono::duration<double, std::micro>(Clock::now() - compiled).count();
  }
  std::printf("compile_us=%.1f load_us=%.1f disk_hit=%d\n",
              std::chrono::duration<double, std::micro>(compiled - start).count(), load_us,
              report.outcome == jit::CacheOutcome::disk_hit ? 1 : 0);
  return 0;
}
