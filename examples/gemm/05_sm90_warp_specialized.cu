// GEMM level 5: the Hopper GEMM of include/cute_dsl/kernels/gemm_sm90.hpp, read that file with
// this one. What it adds to level 4:
//   - warp specialization: one producer warpgroup issues TMA, two consumer warpgroups run wgmma;
//     setmaxnreg moves registers from the producer (40) to the consumers (232);
//   - a ring of shared-memory stages guarded by full/empty mbarriers, so loads run ahead of math;
//   - a persistent grid (one CTA per SM looping over tiles, tile_scheduler.hpp) with an L2-aware
//     tile order;
//   - clusters of 2 CTAs along M that load each B tile once and multicast it to both.
// The launcher (gemm_sm90_launch.hpp) builds the TMA descriptors and picks the tile shape.
// This program checks every compiled variant, then the heuristic's choice, against cuBLAS.
#include <cuda_bf16.h>

#include <cute_dsl/kernels/gemm_sm90_launch.hpp>

#include "common/gemm_check.cuh"

using namespace cute_dsl::kernels;

namespace {

int run(const char* name, gemm_example::Problem p, GemmSm90Config config) {
  return gemm_example::check_against_cublas(name, 90, p, [config](const gemm_example::Operands& op) {
    GemmSm90Arguments<__nv_bfloat16, __nv_bfloat16> args{};
    args.shape = {op.p.m, op.p.n, op.p.k, 1};
    args.a = op.a, args.lda = op.p.k, args.batch_stride_a = 0;
    args.b = op.b, args.ldb = op.p.k, args.batch_stride_b = 0;
    args.d = op.c, args.ldd = op.p.n, args.batch_stride_d = 0;
    // Both operands K-major, known here at compile time: instantiates those variants only
    // (gemm_sm90() would also compile the MN-major ones, chosen by args.major_a / major_b).
    GEMM_EXAMPLE_CUDA((gemm_sm90_majors<cute_dsl::GmmaMajor::K, cute_dsl::GmmaMajor::K>(args, nullptr, config)));
  });
}

}  // namespace

int main(int argc, char** argv) {
  auto p = gemm_example::problem_from_args(argc, argv, {4096, 4096, 4096});
  int failures = 0;
  if (argc < 4) {  // every variant, on a ragged problem (partial tiles in M, N and K)
    for (const GemmSm90Config& c : kGemmSm90Configs) {
      std::string name = "05_sm90_ws[" + std::to_string(c.tile_n) + "x" + std::to_string(c.stages) + "x" +
                         std::to_string(c.cluster_m) + (c.ping_pong ? "pp" : "") + (c.tile_m != 128 ? "m" + std::to_string(c.tile_m) : std::string()) + (c.swap_ab ? "sw" : "") + "]";
      failures += run(name.c_str(), {1000, 1030, 520}, c);
    }
  }
  failures += run("05_sm90_warp_specialized", p, GemmSm90Config{});
  return failures == 0 ? 0 : 1;
}
