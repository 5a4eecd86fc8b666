// Launching a kernel as thread block clusters in GPU tests: cudaLaunchKernelEx with the
// cudaLaunchAttributeClusterDimension attribute (the grid must be a multiple of the cluster).
// Test-side code, not the library.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

namespace cute_dsl_test {

// Launches kernel<<<grid, block, smem_bytes>>>(args...) in clusters of `cluster` CTAs.
template <class... Params, class... Args>
cudaError_t launch_cluster(void (*kernel)(Params...), dim3 grid, dim3 block, dim3 cluster,
                           std::size_t smem_bytes, Args... args) {
  if (smem_bytes > 48 * 1024) {
    cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(smem_bytes));
    if (err != cudaSuccess) return err;
  }
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = smem_bytes;
  config.stream = nullptr;
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeClusterDimension;
  attribute[0].val.clusterDim.x = cluster.x;
  attribute[0].val.clusterDim.y = cluster.y;
  attribute[0].val.clusterDim.z = cluster.z;
  config.attrs = attribute;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, kernel, static_cast<Params>(args)...);
}

// Problem sizes of the streaming tests: `n`, or about n/8 (at least `floor`) when the device
// script runs the test under compute-sanitizer (CUTE_DSL_SANITIZER_RUN=1), which is 10-100x slower.
inline int sanitizer_scaled(int n, int floor = 8) {
  const char* s = std::getenv("CUTE_DSL_SANITIZER_RUN");
  if (s == nullptr || s[0] == '0') return n;
  return n / 8 > floor ? n / 8 : floor;
}

// Random integers in [lo, hi] (exact sums on device and host).
inline std::vector<int> random_ints(std::size_t n, std::uint32_t seed, int lo = -1000, int hi = 1000) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<int> v(n);
  for (auto& x : v) x = dist(gen);
  return v;
}

}  // namespace cute_dsl_test
