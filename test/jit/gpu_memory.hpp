// Device memory and data for the JIT's GPU tests (gpu_launch_test.cpp, gpu_load_test.cpp): test
// scaffolding through dlsym on the driver the library loaded (the library does not allocate).
#pragma once

#include "jit_test_support.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace jit_test {

using DevPtr = unsigned long long;  // CUdeviceptr

struct Memory {
  int (*alloc)(DevPtr*, std::size_t) = nullptr;
  int (*free)(DevPtr) = nullptr;
  int (*htod)(DevPtr, const void*, std::size_t) = nullptr;
  int (*dtoh)(void*, DevPtr, std::size_t) = nullptr;
  int (*sync)() = nullptr;
};

// Null without a usable GPU. Call after a load(), which makes a context current.
inline const Memory* memory() {
  static Memory m;
  static const bool ok = [] {
    auto info = jit::load_driver();
    if (!info || info->device_count == 0) return false;
    void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!h) return false;
    m.alloc = reinterpret_cast<decltype(m.alloc)>(dlsym(h, "cuMemAlloc_v2"));
    m.free = reinterpret_cast<decltype(m.free)>(dlsym(h, "cuMemFree_v2"));
    m.htod = reinterpret_cast<decltype(m.htod)>(dlsym(h, "cuMemcpyHtoD_v2"));
    m.dtoh = reinterpret_cast<decltype(m.dtoh)>(dlsym(h, "cuMemcpyDtoH_v2"));
    m.sync = reinterpret_cast<decltype(m.sync)>(dlsym(h, "cuCtxSynchronize"));
    return m.alloc && m.free && m.htod && m.dtoh && m.sync;
  }();
  return ok ? &m : nullptr;
}

inline bool have_gpu() {
  auto info = jit::load_driver();
  return info && info->device_count > 0;
}

#define SKIP_WITHOUT_GPU()                                                                      \
  if (!have_gpu()) GTEST_SKIP() << "SKIPPED: no usable CUDA driver or GPU here; this test runs on the device tool"

// A device buffer holding `host`, freed with the object.
template <class T>
struct Buffer {
  DevPtr ptr = 0;
  std::size_t bytes = 0;
  explicit Buffer(const std::vector<T>& host) : bytes(host.size() * sizeof(T)) {
    EXPECT_EQ(memory()->alloc(&ptr, bytes), 0);
    EXPECT_EQ(memory()->htod(ptr, host.data(), bytes), 0);
  }
  ~Buffer() { memory()->free(ptr); }
  Buffer(const Buffer&) = delete;  // the destructor frees: a copy would free twice
  Buffer& operator=(const Buffer&) = delete;
  std::vector<T> read() const {
    std::vector<T> out(bytes / sizeof(T));
    EXPECT_EQ(memory()->sync(), 0);
    EXPECT_EQ(memory()->dtoh(out.data(), ptr, bytes), 0);
    return out;
  }
  T* device() const { return reinterpret_cast<T*>(ptr); }
};

inline std::vector<float> random_floats(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-8.f, 8.f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

}  // namespace jit_test
