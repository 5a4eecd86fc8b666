// Compiles each public header alone with NVRTC, as the JIT will: `#include <header>` (twice, for
// the include guard) plus a trivial kernel, -std=c++20, for the check architecture (sm_90a by
// default), with only the library's and the CUDA toolkit's include folders.
//
// Usage: nvrtc_compile_headers [--arch 90a] cute_dsl/config.hpp cute_dsl/layout/tree.hpp ...
// Prints one line per header with its compile time; exits 1 listing the headers that fail.
#include <cstdio>
#include <string>
#include <vector>

#include "nvrtc_compile.hpp"

int main(int argc, char** argv) {
  std::string arch = cute_dsl_test::kNvrtcArch;
  std::vector<std::string> headers;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--arch" && i + 1 < argc) arch = argv[++i];
    else headers.push_back(arg);
  }
  if (headers.empty()) {
    std::fprintf(stderr, "usage: %s [--arch 90a] <header>...   (no header given)\n", argv[0]);
    return 2;
  }

  const auto options = cute_dsl_test::nvrtc_default_options(arch);
  std::printf("NVRTC %s, -arch=sm_%s, %zu headers\n", cute_dsl_test::nvrtc_version().c_str(),
              arch.c_str(), headers.size());

  std::vector<std::string> failed;
  double total = 0;
  for (const auto& header : headers) {
    const std::string source = "#include <" + header + ">\n#include <" + header + ">\n" +
        "extern \"C\" __global__ void cute_dsl_header_check(int* out) { if (out) out[0] = 1; }\n";
    const auto result = cute_dsl_test::nvrtc_compile(source, "check_" + header, options);
    total += result.seconds;
    std::printf("  %-48s %6.3f s  %s\n", header.c_str(), result.seconds, result.ok ? "ok" : "FAILED");
    if (!result.log.empty()) std::printf("%s\n", result.log.c_str());
    if (!result.ok) failed.push_back(header);
  }
  std::printf("total %.3f s\n", total);

  if (!failed.empty()) {
    std::printf("%zu header(s) do not compile alone under NVRTC:\n", failed.size());
    for (const auto& header : failed) std::printf("  %s\n", header.c_str());
    return 1;
  }
  return 0;
}
