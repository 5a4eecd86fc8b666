// Compiles device_checks.cuh into a kernel with NVRTC (no GPU needed) and reports the time.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "nvrtc_compile.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s KERNEL.cu INCLUDE_DIR\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1]);
  std::stringstream source;
  source << in.rdbuf();
  auto options = cute_dsl_test::nvrtc_default_options();
  options.push_back(std::string("-I") + argv[2]);
  auto out = cute_dsl_test::nvrtc_compile(source.str(), "device_checks_kernel.cu", options);
  std::printf("NVRTC %s: %s in %.3f s\n%s\n", cute_dsl_test::nvrtc_version().c_str(), out.ok ? "compiled" : "FAILED",
              out.seconds, out.log.c_str());
  return out.ok ? 0 : 1;
}
