// The JIT tests' main: GoogleTest, plus two probe modes in which this program acts as the
// "second process" of the cross-process tests, plus a counting operator new.
#include "jit_test_support.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>

// Counting allocator: proves that a memory-cache hit allocates nothing.
namespace jit_test {
std::atomic<long> g_allocations{0};
}
void* operator new(std::size_t n) {
  jit_test::g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace jit_test {

std::string self_path() {
  std::error_code ec;
  return std::filesystem::read_symlink("/proc/self/exe", ec).string();
}


}  // namespace jit_test

int main(int argc, char** argv) {
  using namespace jit_test;
  if (argc == 3 && std::string_view(argv[1]) == "--probe-compile") {
    jit::KernelCache cache(on_disk(argv[2]));
    jit::CompileReport report;
    auto k = jit::compile(elementwise_spec(), options_for("sm_90a"), cache, &report);
    if (!k) {
      std::printf("error: %s", k.error().describe().c_str());
      return 1;
    }
    std::printf("outcome: %s\n", std::string(jit::to_string(report.outcome)).c_str());
    return 0;
  }
  if (argc == 2 && std::string_view(argv[1]) == "--probe-driver") {
    auto d = jit::load_driver();
    if (d) std::printf("driver: ok, version %d, %d devices\n", d->version, d->device_count);
    else std::printf("%s", d.error().describe().c_str());
    return 0;
  }
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
