// What the kernel GPU tests share beyond test/support/gpu_test.cuh: random values of the 16-bit
// types, output buffers with a poisoned guard zone past the end, tolerant comparison in units of
// the type's epsilon, occupancy and SM count for the grid helpers.
#pragma once

#include "gpu_test.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace cute_dsl_kernels_test {

// Uniform in [-1, 1), drawn as float and rounded to T (random_vector<T> needs T(double)).
template <class T>
std::vector<T> random_values(long long n, std::uint32_t seed) {
  const auto f = cute_dsl_test::random_vector<float>(static_cast<std::size_t>(n), seed);
  std::vector<T> v(f.size());
  for (std::size_t i = 0; i < f.size(); ++i) v[i] = T(f[i]);
  return v;
}

template <class T> double to_double(T x) { return static_cast<double>(static_cast<float>(x)); }
inline double to_double(double x) { return x; }

template <class T> constexpr double epsilon();
template <> constexpr double epsilon<float>() { return 1.0 / (1 << 23); }
template <> constexpr double epsilon<double>() { return 1.0 / (1ll << 52); }
template <> constexpr double epsilon<__half>() { return 1.0 / (1 << 10); }
template <> constexpr double epsilon<__nv_bfloat16>() { return 1.0 / (1 << 7); }

// |got - want| <= tol * eps(T) * max(1, |want|); NaN never passes (the poison is NaN).
template <class T>
bool close_enough(T got, T want, double tol) {
  const double g = to_double(got), w = to_double(want);
  if (std::isnan(g) || std::isnan(w)) return false;
  return std::fabs(g - w) <= tol * epsilon<T>() * std::fmax(1.0, std::fabs(w));
}

// All bytes 0xFF: what poison() writes.
template <class T>
bool is_poison(const T& x) {
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &x, sizeof(T));
  for (unsigned char c : bytes)
    if (c != 0xFF) return false;
  return true;
}

// n elements followed by kGuard poisoned ones that no kernel may touch.
template <class T>
class GuardedBuffer {
 public:
  static constexpr long long kGuard = 64;
  explicit GuardedBuffer(long long n) : n_(n), buf_(static_cast<std::size_t>(n + kGuard)) {}
  bool ok() const { return buf_.ok(); }
  T* get() const { return buf_.get(); }
  cudaError_t upload(const std::vector<T>& host) { return buf_.upload(host); }
  cudaError_t poison() { return buf_.poison(0xFF); }
  // The first n elements (the guard is kept for guard_intact()).
  cudaError_t download(std::vector<T>& host) {
    if (cudaError_t e = buf_.download(all_); e != cudaSuccess) return e;
    host.assign(all_.begin(), all_.begin() + n_);
    return cudaSuccess;
  }
  bool guard_intact() const {
    for (long long i = n_; i < n_ + kGuard; ++i)
      if (!is_poison(all_[static_cast<std::size_t>(i)])) return false;
    return true;
  }

 private:
  long long n_;
  cute_dsl_test::DeviceBuffer<T> buf_;
  std::vector<T> all_;
};

inline int sm_count() {
  int n = 0;
  cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, 0);
  return n;
}

template <class Kernel>
int occupancy(Kernel kernel, int threads) {
  int blocks = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, 0);
  return blocks;
}

// Readable typed-test names: f32, f16, bf16.
struct ElementTypeNames {
  template <class T>
  static std::string GetName(int) {
    if (std::is_same_v<T, float>) return "f32";
    if (std::is_same_v<T, double>) return "f64";
    if (std::is_same_v<T, __half>) return "f16";
    if (std::is_same_v<T, __nv_bfloat16>) return "bf16";
    return "other";
  }
};

}  // namespace cute_dsl_kernels_test
