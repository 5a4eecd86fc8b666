// Helpers shared by the demo's providers (demo_elementwise.cpp, demo_gemm.cpp): random host data
// and device buffers that free themselves. Tool code, not the library.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

namespace cute_dsl::tools::demo {

// Fast uniform [-1, 1) values (xorshift), rounded to T: the demo fills up to a few hundred MB.
template <class T>
std::vector<T> random_values(long long n, std::uint64_t seed) {
  std::vector<T> v(static_cast<std::size_t>(n));
  std::uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
  for (T& x : v) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    x = T(static_cast<float>(s >> 40) * (2.0f / 16777216.0f) - 1.0f);
  }
  return v;
}

// Device buffer of n elements that frees itself; `error` is set when allocation fails.
template <class T>
struct DeviceBuffer {
  T* p = nullptr;
  DeviceBuffer(long long n, std::string& error) {
    if (cudaMalloc(&p, static_cast<std::size_t>(n) * sizeof(T)) != cudaSuccess) {
      p = nullptr;
      error = "cudaMalloc of " + std::to_string(n * sizeof(T)) + " bytes failed";
    }
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { if (p) cudaFree(p); }
};

}  // namespace cute_dsl::tools::demo
