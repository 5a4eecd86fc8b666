// Shared by the TMA GPU tests (instructions and atoms): a ragged row-major float matrix with a
// padded pitch (TMA strides are multiples of 16 bytes), bitwise comparison, and a launch of a
// kernel as 2-CTA clusters.
#pragma once

#include <cstring>
#include <vector>

#include "gpu_test.cuh"

namespace tma_test {

struct Matrix {
  int rows, cols, pitch;  // floats; pitch * 4 is a multiple of 16
  std::vector<float> host;
};
inline Matrix random_matrix(int rows, int cols, std::uint32_t seed) {
  Matrix m{rows, cols, cols + 4, {}};
  m.host = cute_dsl_test::random_vector<float>(std::size_t(rows) * m.pitch, seed);
  return m;
}
inline bool same_bits(float a, float b) { return std::memcmp(&a, &b, 4) == 0; }

// After a TMA store of `m` into a NaN-poisoned buffer of the same pitch: every element inside the
// matrix has m's bits, and the padding columns past m.cols were not written.
inline void expect_stored(const std::vector<float>& out, const Matrix& m, int swizzle, std::uint32_t seed) {
  for (int r = 0; r < m.rows; ++r)
    for (int c = 0; c < m.pitch; ++c) {
      const float got = out[std::size_t(r) * m.pitch + c];
      if (c < m.cols)
        ASSERT_TRUE(same_bits(got, m.host[std::size_t(r) * m.pitch + c])) << "swizzle " << swizzle << " (" << r << "," << c << ") seed " << seed;
      else
        ASSERT_TRUE(got != got) << "swizzle " << swizzle << ": padding (" << r << "," << c << ") was written: " << got;
    }
}

// kernel<<<2 CTAs in one cluster of 2, 128 threads>>>(args...)
template <class... Params, class... Args>
cudaError_t launch_cluster_pair(void (*kernel)(Params...), Args... args) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(2);
  cfg.blockDim = dim3(128);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 2;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  return cudaLaunchKernelEx(&cfg, kernel, args...);
}

}  // namespace tma_test
