// Compile times of the Hopper GEMM, both ways (issue 5's goals):
//   JIT cold compile of one instantiation through CuteDSL::jit (NVRTC + nvJitLink, embedded
//     headers, memory-only cache so that every compile is cold): goal <= 1.5 s on the dev machine.
//     The first compile of the process (NVRTC's one-time start-up included) is shown apart.
//   nvcc of the Hopper example examples/gemm/05_sm90_warp_specialized.cu (`nvcc -c`, host and
//     device passes, sm_90a): goal <= 10 s on the device machine's CPU.
// Wall and CPU seconds: the dev machine is shared, CPU time is what the compiler itself costs.
//
// Usage: gemm_compile_time [--runs N] [--nvcc-runs N] [--no-nvcc]
#include "cute_dsl/jit/gemm_sm90.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

namespace {

namespace jit = cute_dsl::jit;

double cpu_seconds(int who) {
  rusage u{};
  getrusage(who, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Timing {
  double wall = -1, cpu = -1;
};

// One cold JIT compile (a fresh memory-only cache), wall and this process's CPU time.
Timing jit_compile_once(const jit::KernelSpec& spec, const jit::CompileOptions& options) {
  jit::CacheConfig config;
  config.use_disk = false;
  jit::KernelCache cache(config);
  const double cpu0 = cpu_seconds(RUSAGE_SELF);
  const auto t0 = std::chrono::steady_clock::now();
  auto k = jit::compile(spec, options, cache);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!k) {
    std::fprintf(stderr, "JIT compile failed:\n%s\n", k.error().describe().c_str());
    return {};
  }
  return {wall, cpu_seconds(RUSAGE_SELF) - cpu0};
}

// One nvcc run on the example (wall, and the children's CPU time).
Timing nvcc_once(const std::string& arch) {
  const std::string out = "/tmp/cute_dsl_gemm_compile_time_" + std::to_string(getpid()) + ".o";
  const std::string command = std::string(CUTE_DSL_NVCC) + " -std=c++20 -O3 -gencode arch=compute_" + arch +
                              ",code=sm_" + arch + " -I" CUTE_DSL_SOURCE_DIR "/include -I" CUTE_DSL_SOURCE_DIR
                              "/examples/gemm -c " CUTE_DSL_SOURCE_DIR "/examples/gemm/05_sm90_warp_specialized.cu -o " + out;
  const double cpu0 = cpu_seconds(RUSAGE_CHILDREN);
  const auto t0 = std::chrono::steady_clock::now();
  const int status = std::system(command.c_str());
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::remove(out.c_str());
  if (status != 0) return {};
  return {wall, cpu_seconds(RUSAGE_CHILDREN) - cpu0};
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 3, nvcc_runs = 3;
  bool with_nvcc = std::string(CUTE_DSL_NVCC).size() > 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--nvcc-runs" && i + 1 < argc) nvcc_runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--no-nvcc") with_nvcc = false;
    else {
      std::fprintf(stderr, "usage: %s [--runs N] [--nvcc-runs N] [--no-nvcc]\n", argv[0]);
      return 2;
    }
  }
  jit::GemmSm90Config config;  // 128x256x64, 4 stages, clusters of 2: the 8192^3 winner
  const jit::KernelSpec spec = jit::gemm_sm90_spec({}, config);
  jit::CompileOptions options;
  options.arch = "sm_90a";

  std::printf("Hopper GEMM compile times on %ld CPUs (%s)\n\n", sysconf(_SC_NPROCESSORS_ONLN),
              spec.name_expression().c_str());
  std::printf("| what | wall median | CPU median | goal |\n| --- | ---: | ---: | --- |\n");
  bool ok = true;
  const Timing first = jit_compile_once(spec, options);
  ok = ok && first.wall >= 0;
  std::vector<double> wall, cpu;
  for (int r = 0; r < runs && ok; ++r) {
    const Timing t = jit_compile_once(spec, options);
    ok = t.wall >= 0;
    wall.push_back(t.wall);
    cpu.push_back(t.cpu);
  }
  if (ok) {
    std::printf("| JIT cold compile, first in the process (NVRTC start-up included) | %.3f s | %.3f s | |\n", first.wall,
                first.cpu);
    std::printf("| JIT cold compile (CuteDSL::jit, memory-only cache), %d runs | %.3f s | %.3f s | <= 1.5 s (dev machine) |\n",
                runs, median(wall), median(cpu));
  }
  if (with_nvcc) {
    std::vector<double> nw, nc;
    for (int r = 0; r < nvcc_runs; ++r) {
      const Timing t = nvcc_once("90a");
      if (t.wall < 0) {
        std::fprintf(stderr, "nvcc failed on the example\n");
        ok = false;
        break;
      }
      nw.push_back(t.wall);
      nc.push_back(t.cpu);
    }
    if (!nw.empty() && ok)
      std::printf("| nvcc -c examples/gemm/05_sm90_warp_specialized.cu (sm_90a), %d runs | %.3f s | %.3f s | <= 10 s (device machine) |\n",
                  nvcc_runs, median(nw), median(nc));
  }
  return ok ? 0 : 1;
}
