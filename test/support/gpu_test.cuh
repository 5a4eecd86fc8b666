// Shared by every GPU test (built with nvcc, linked with CUDA::cudart): error checks that fail
// the test with the call and the CUDA error, a visible skip when there is no usable GPU (CI has
// none), device buffers, and random / poisoned host data. Test-side code, not the library.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

// Fails the current test (fatally) with the expression and CUDA's error string.
#define CUTE_DSL_TEST_CUDA(call)                                                              \
  do {                                                                                         \
    cudaError_t cute_dsl_test_err_ = (call);                                                   \
    ASSERT_EQ(cute_dsl_test_err_, cudaSuccess)                                                 \
        << #call << ": " << cudaGetErrorName(cute_dsl_test_err_) << " ("                      \
        << cudaGetErrorString(cute_dsl_test_err_) << ")";                                      \
  } while (0)

// After a launch: the launch error and the kernel's own error (trap, bad address).
#define CUTE_DSL_TEST_LAUNCHED()                                                              \
  do {                                                                                         \
    CUTE_DSL_TEST_CUDA(cudaGetLastError());                                                    \
    CUTE_DSL_TEST_CUDA(cudaDeviceSynchronize());                                               \
  } while (0)

// Skips (visibly: ctest prints the reason) unless a GPU of compute capability >= min_cc
// (e.g. 80, 90) is present.
#define CUTE_DSL_REQUIRE_GPU(min_cc)                                                          \
  do {                                                                                         \
    std::string cute_dsl_test_why_ = ::cute_dsl_test::gpu_missing_reason(min_cc);              \
    if (!cute_dsl_test_why_.empty()) GTEST_SKIP() << "SKIPPED: " << cute_dsl_test_why_;        \
  } while (0)

namespace cute_dsl_test {

// Empty when a device of at least `min_cc` is usable; otherwise why not.
inline std::string gpu_missing_reason(int min_cc) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    return std::string("no usable CUDA GPU here (") + cudaGetErrorName(err) +
           "); this test runs on the device tool";
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return "cudaGetDeviceProperties failed";
  int cc = prop.major * 10 + prop.minor;
  if (cc < min_cc)
    return "needs compute capability " + std::to_string(min_cc) + ", device 0 (" + prop.name +
           ") has " + std::to_string(cc);
  return {};
}

// Owning device allocation of n elements of T.
template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t n) : n_(n) {
    if (cudaMalloc(&ptr_, n * sizeof(T) + 1) != cudaSuccess) ptr_ = nullptr;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { if (ptr_) cudaFree(ptr_); }
  T* get() const { return ptr_; }
  std::size_t size() const { return n_; }
  bool ok() const { return ptr_ != nullptr; }
  cudaError_t upload(const std::vector<T>& host) {
    return cudaMemcpy(ptr_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  }
  cudaError_t download(std::vector<T>& host) const {
    host.resize(n_);
    return cudaMemcpy(host.data(), ptr_, n_ * sizeof(T), cudaMemcpyDeviceToHost);
  }
  // Fills every byte with `byte` (0xFF poisons floats with NaN and ints with -1).
  cudaError_t poison(unsigned char byte = 0xFF) { return cudaMemset(ptr_, byte, n_ * sizeof(T)); }

 private:
  T* ptr_ = nullptr;
  std::size_t n_ = 0;
};

// Uniform values in [lo, hi) from a seed that the test prints on failure.
template <class T>
std::vector<T> random_vector(std::size_t n, std::uint32_t seed, double lo = -1.0, double hi = 1.0) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(dist(gen));
  return v;
}

// A seed that differs per run unless CUTE_DSL_TEST_SEED fixes it; print it in failures.
inline std::uint32_t test_seed() {
  if (const char* s = std::getenv("CUTE_DSL_TEST_SEED")) return static_cast<std::uint32_t>(std::stoul(s));
  return std::random_device{}();
}

}  // namespace cute_dsl_test
