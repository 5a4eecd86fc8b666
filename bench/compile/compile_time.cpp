// Compile-time benchmark: how long NVRTC and nvcc take on the kernels in kernels/.
//
//   trivial.cu           no include at all: the floor of each compiler
//   umbrella_include.cu  #include <cute_dsl/cute_dsl.hpp> and nothing else: the include cost
//   umbrella_layouts.cu  the umbrella plus static layouts and algebra evaluated in a kernel
//   gemm_sm90_bf16.cu    one instantiation of the Hopper GEMM (kernels/gemm_sm90.hpp): JIT cold compile
//
// NVRTC is timed in-process (create + compile, for sm_<arch>), after one warm-up compile that
// absorbs the process's one-time NVRTC start-up. nvcc is timed as a subprocess (wall time),
// both as `-c` (host and device passes, what a build pays) and `-cubin` (device only, what
// NVRTC does). Medians over several runs; the goal is NVRTC <= 0.5 s for the umbrella kernels.
//
// Usage: compile_time [--runs N] [--nvcc-runs N] [--no-nvcc] [--arch 90a]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "nvrtc_compile.hpp"

namespace {

struct Kernel {
  const char* file;
  const char* what;
};

constexpr Kernel kKernels[] = {
    {"trivial.cu", "trivial kernel, no includes (baseline)"},
    {"umbrella_include.cu", "umbrella header only"},
    {"umbrella_layouts.cu", "umbrella + static layouts and algebra"},
    {"gemm_sm90_bf16.cu", "Hopper GEMM, one instantiation (bf16, 128x256, 4 stages, cluster 2)"},
};

std::string kernel_path(const char* file) { return std::string(CUTE_DSL_BENCH_KERNEL_DIR) + "/" + file; }

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(2);
  }
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Wall time of one nvcc run; negative when nvcc fails (its messages go to stderr).
double time_nvcc(const std::string& flags, const std::string& source, const std::string& arch) {
  const std::string out = "/tmp/cute_dsl_compile_time_" + std::to_string(getpid()) + ".o";
  // One real architecture, as NVRTC compiles: CUDA 13's `-arch=sm_90a` also emits compute_90 PTX,
  // a second device pass (which also rejects sm_90a-only instructions such as wgmma).
  const std::string command = std::string(cute_dsl_test::kNvccPath) + " -std=c++20 -gencode arch=compute_" + arch +
                              ",code=sm_" + arch +
                              " " + flags + " -I" + cute_dsl_test::kLibraryIncludeDir + " " + source +
                              " -o " + out;
  const auto start = std::chrono::steady_clock::now();
  const int status = std::system(command.c_str());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::remove(out.c_str());
  return status == 0 ? seconds : -1;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 7, nvcc_runs = 3;
  bool with_nvcc = cute_dsl_test::kNvccPath[0] != '\0';
  std::string arch = cute_dsl_test::kNvrtcArch;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (arg == "--nvcc-runs" && i + 1 < argc) nvcc_runs = std::max(1, std::atoi(argv[++i]));
    else if (arg == "--no-nvcc") with_nvcc = false;
    else if (arg == "--arch" && i + 1 < argc) arch = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--runs N] [--nvcc-runs N] [--no-nvcc] [--arch 90a]\n", argv[0]);
      return 2;
    }
  }

  const auto options = cute_dsl_test::nvrtc_default_options(arch);
  const auto warm_up = cute_dsl_test::nvrtc_compile(read_file(kernel_path("trivial.cu")), "warm_up.cu", options);
  std::printf("NVRTC %s, -arch=sm_%s; first NVRTC compile in the process (excluded): %.3f s\n",
              cute_dsl_test::nvrtc_version().c_str(), arch.c_str(), warm_up.seconds);
  std::printf("NVRTC: median (min) of %d runs; nvcc: median of %d runs%s\n\n", runs, nvcc_runs,
              with_nvcc ? "" : " (nvcc not measured)");
  std::printf("| kernel | NVRTC median | NVRTC min | nvcc -cubin | nvcc -c |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: |\n");

  bool all_ok = warm_up.ok;
  for (const auto& kernel : kKernels) {
    const std::string path = kernel_path(kernel.file);
    const std::string source = read_file(path);
    std::vector<double> nvrtc;
    bool ok = true;
    for (int r = 0; r < runs && ok; ++r) {
      const auto result = cute_dsl_test::nvrtc_compile(source, kernel.file, options);
      if (!result.ok) {
        std::fprintf(stderr, "NVRTC failed on %s:\n%s\n", kernel.file, result.log.c_str());
        ok = false;
      }
      nvrtc.push_back(result.seconds);
    }
    std::string nvcc_cubin = "-", nvcc_c = "-";
    if (with_nvcc && ok) {
      std::vector<double> cubin, full;
      for (int r = 0; r < nvcc_runs; ++r) {
        cubin.push_back(time_nvcc("-cubin", path, arch));
        full.push_back(time_nvcc("-c", path, arch));
      }
      const bool nvcc_ok = *std::min_element(cubin.begin(), cubin.end()) >= 0 &&
                           *std::min_element(full.begin(), full.end()) >= 0;
      ok = ok && nvcc_ok;
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, nvcc_ok ? "%.3f s" : "failed", median(cubin));
      nvcc_cubin = buffer;
      std::snprintf(buffer, sizeof buffer, nvcc_ok ? "%.3f s" : "failed", median(full));
      nvcc_c = buffer;
    }
    if (ok) {
      std::printf("| %s | %.3f s | %.3f s | %s | %s |\n", kernel.what, median(nvrtc),
                  *std::min_element(nvrtc.begin(), nvrtc.end()), nvcc_cubin.c_str(), nvcc_c.c_str());
    } else {
      std::printf("| %s | failed | | | |\n", kernel.what);
    }
    all_ok = all_ok && ok;
  }
  return all_ok ? 0 : 1;
}
