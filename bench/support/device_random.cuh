// Random benchmark inputs made on the GPU: uniform values in [-1, 1) from a hash of (seed, index).
// Why on the GPU: a 2 GiB input made on the host with <random> takes seconds, and the PCIe copy
// more; the benchmarks need random data (not zeros, which some hardware paths compress), not
// reproducible streams. Needs nvcc; the element type converts from float (float, __half, ...).
#pragma once

#include <cuda_runtime.h>

namespace cute_dsl_bench {

// SplitMix64's finaliser: a good 64-bit mix of the counter.
__host__ __device__ inline unsigned long long mix64(unsigned long long x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

template <class T>
__global__ void fill_uniform_kernel(T* out, long long n, unsigned long long seed) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const unsigned long long h = mix64(seed * 0x9e3779b97f4a7c15ull + static_cast<unsigned long long>(i));
    const float u = static_cast<float>(h >> 40) * (1.0f / 16777216.0f);  // 24 bits: [0, 1)
    out[i] = T(2.0f * u - 1.0f);
  }
}

template <class T>
cudaError_t fill_uniform(T* out, long long n, unsigned long long seed, cudaStream_t stream = nullptr) {
  fill_uniform_kernel<T><<<1024, 256, 0, stream>>>(out, n, seed);
  return cudaGetLastError();
}

}  // namespace cute_dsl_bench
