// The Hopper GEMM heuristic's choice (kernels/gemm_sm90_heuristic.hpp) for many shapes, one line
// each: "MxNxK tile_m,tile_n,stages,cluster_m,ping_pong,stream_k,swap_ab splits". Host C++ only (no
// GPU, no CUDA compiler): built against two include trees, the lines that differ are the shapes a
// heuristic change moves -- the shapes an A/B on the GPU must time (scripts/heuristic_moves.sh).
//
//   heuristic_choices grid            M 65..8200 x N 1024..28672 x K 1024..8192 (1440 shapes)
//   heuristic_choices random N SEED   N shapes, M 65..16384, N 256..28672, K 256..16384, log-uniform
//   heuristic_choices MxNxK ...       the given shapes
// Options before the mode: --sms S (default 132), --unaligned (rows off 128-byte lines), --fused
// (an epilogue tree's launch).
#include <cute_dsl/kernels/gemm_sm90_heuristic.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

namespace {

using cute_dsl::kernels::GemmShape;

// The heuristic's choice through whichever signature the include tree has: launch facts as a struct
// (GemmLaunchFacts, 2026-11-29 on) or positional (before), so that scripts/heuristic_moves.sh can
// still build this file against older trees.
// `fused`: an epilogue tree's launch (no swap-AB), as the fused launchers ask (trees that have the flag).
bool fused = false;
template <class Shape>
auto choose(Shape s, int sms, bool aligned) {
  using namespace cute_dsl::kernels;
  if constexpr (requires { gemm_sm90_heuristic(s, sms, cute_dsl::GmmaMajor::K, aligned); })
    return gemm_sm90_heuristic(s, sms, cute_dsl::GmmaMajor::K, aligned);
  else if constexpr (requires { GemmLaunchFacts{}.fused; })
    return gemm_sm90_heuristic(s, sms, {.rows_128b_aligned = aligned, .may_swap_ab = !fused, .fused = fused});
  else
    return gemm_sm90_heuristic(s, sms, {.rows_128b_aligned = aligned});
}

void print_choice(GemmShape s, int sms, bool aligned) {
  const auto c = choose(s, sms, aligned);
  std::printf("%dx%dx%d %d,%d,%d,%d,%d,%d,%d %d\n", s.m, s.n, s.k, c.tile_m, c.tile_n, c.stages, c.cluster_m, int(c.ping_pong),
              int(c.stream_k), int(c.swap_ab), c.splits);
}

int usage() {
  std::fprintf(stderr, "ERROR: usage: heuristic_choices [--sms S] [--unaligned] [--fused] grid | random N SEED | MxNxK...\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  int sms = 132, a = 1;
  bool aligned = true;
  for (; a < argc && std::strncmp(argv[a], "--", 2) == 0; ++a) {
    if (std::strcmp(argv[a], "--unaligned") == 0) aligned = false;
    else if (std::strcmp(argv[a], "--fused") == 0) fused = true;
    else if (std::strcmp(argv[a], "--sms") == 0 && a + 1 < argc && (sms = std::atoi(argv[a + 1])) > 0) ++a;
    else return usage();
  }
  if (a >= argc) return usage();
  const std::string mode = argv[a];
  if (mode == "grid") {
    const int ms[] = {65,  80,  96,  100, 112, 120, 129, 144,  160,  176,  192,  200,  224,  240,  255,  257,  288,  300,
                      320, 384, 400, 448, 500, 640, 700, 1000, 1100, 1500, 2000, 2100, 3000, 4100, 4097, 5000, 6000, 8200};
    const int ns[] = {1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 14336, 28672};
    for (int m : ms)
      for (int n : ns)
        for (int k : {1024, 2048, 4096, 8192}) print_choice({m, n, k, 1}, sms, aligned);
    return 0;
  }
  if (mode == "random") {
    if (a + 2 >= argc) return usage();
    const int count = std::atoi(argv[a + 1]);
    std::mt19937 rng(unsigned(std::strtoul(argv[a + 2], nullptr, 10)));
    const auto log_uniform = [&](int lo, int hi) {
      std::uniform_real_distribution<double> u(std::log(double(lo)), std::log(double(hi)));
      return int(std::exp(u(rng)));
    };
    for (int i = 0; i < count; ++i) {
      const int m = log_uniform(65, 16384), n = std::max(256, log_uniform(256, 28672) / 8 * 8), k = std::max(256, log_uniform(256, 16384) / 8 * 8);
      print_choice({m, n, k, 1}, sms, aligned);
    }
    return 0;
  }
  for (; a < argc; ++a) {
    GemmShape s{0, 0, 0, 1};
    if (std::sscanf(argv[a], "%dx%dx%d", &s.m, &s.n, &s.k) != 3 || s.m < 1 || s.n < 1 || s.k < 1) return usage();
    print_choice(s, sms, aligned);
  }
  return 0;
}
