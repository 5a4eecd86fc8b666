// The benchmarks' shape overrides: an environment variable holding "MxNxK,MxNxK,..." (gemm_ab's
// GEMM_AB_SHAPES, epilogue_bench's EPILOGUE_BENCH_SHAPES). Host code, standard C++ only.
#pragma once

#include <array>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cute_dsl_bench {

// The shapes listed in environment variable `name`, or `fallback` where it is unset or empty.
// A malformed list (not MxNxK with positive sizes, comma-separated) prints
// "ERROR: NAME: expected MxNxK[,MxNxK...] at '...'" and exits with status 1.
inline std::vector<std::array<int, 3>> shapes_from_env(const char* name, std::vector<std::array<int, 3>> fallback) {
  const char* list = std::getenv(name);
  if (list == nullptr || *list == 0) return fallback;
  std::vector<std::array<int, 3>> shapes;
  for (const char* p = list; *p != 0;) {
    std::array<int, 3> s{};
    int used = 0;
    if (std::sscanf(p, "%dx%dx%d%n", &s[0], &s[1], &s[2], &used) != 3 || s[0] < 1 || s[1] < 1 || s[2] < 1) {
      std::fprintf(stderr, "ERROR: %s: expected MxNxK[,MxNxK...] at '%s'\n", name, p);
      std::exit(1);
    }
    shapes.push_back(s);
    p += used;
    if (*p == ',') ++p;
  }
  return shapes;
}

}  // namespace cute_dsl_bench
