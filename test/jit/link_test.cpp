// The link stage (nvJitLink), no GPU needed: link-time optimisation strips a header's unused
// __device__ table; device libraries built by nvcc (relocatable CUBIN, LTO object, archive) link
// into a JIT kernel that calls them; libraries and LTO are part of the cache key, by content.
// Whether the linked kernel computes the right answer is checked on the GPU (gpu_launch_test.cpp).
#include "jit_test_support.hpp"

#include <gtest/gtest.h>

namespace {

using namespace jit_test;

// A header with a 256 KiB initialised __device__ table that the kernel never reads: without LTO
// it is kept (the host could look it up by name), with -optimize-unused-variables it is dropped.
const char* const kTableHeader = R"(
#pragma once
__device__ const int cute_dsl_test_unused_table[1 << 16] = {1, 2, 3, 4};
__constant__ float cute_dsl_test_unused_constants[4096] = {1.f, 2.f};
)";

jit::KernelSpec table_spec() {
  jit::KernelSpec spec;
  spec.headers.push_back({"tables.cuh", kTableHeader, "tables.cuh"});
  spec.source = "#include \"tables.cuh\"\n"
                "template <int N> __global__ void fill(int* out) { out[threadIdx.x] = N; }\n";
  spec.kernel = "fill";
  spec.template_args = {jit::TemplateArg::integer(7)};
  return spec;
}

jit::CompileOptions with_lto(bool lto, const std::string& arch = "sm_90a") {
  jit::CompileOptions o = options_for(arch);
  o.lto = lto;
  return o;
}

TEST(Link, LtoStripsAnUnusedDeviceTable) {
  jit::KernelCache cache(memory_only());
  auto plain = jit::compile(table_spec(), with_lto(false), cache);
  auto lto = jit::compile(table_spec(), with_lto(true), cache);
  ASSERT_TRUE(plain) << plain.error().describe();
  ASSERT_TRUE(lto) << lto.error().describe();
  const auto plain_bytes = (*plain)->binary.size(), lto_bytes = (*lto)->binary.size();
  std::printf("cubin with the unused 256 KiB table: %zu bytes without LTO, %zu with\n", plain_bytes, lto_bytes);
  EXPECT_GT(plain_bytes, std::size_t{256} << 10);  // the table is there
  EXPECT_LT(lto_bytes * 4, plain_bytes);           // and gone
  // Same kernel either way: same symbol, and the ELF reader finds it in the linked CUBIN.
  EXPECT_EQ((*plain)->lowered_name, (*lto)->lowered_name);
  auto usage = jit::read_resource_usage((*lto)->binary, (*lto)->lowered_name);
  ASSERT_TRUE(usage) << usage.error().describe();
  EXPECT_GT(usage->registers, 0);
  // LTO is part of the key: two misses, two entries.
  EXPECT_NE((*plain)->key, (*lto)->key);
  EXPECT_EQ(cache.counters().misses, 2u);
}

TEST(Link, LtoAppliesToEveryArch) {
  for (const char* arch : {"sm_80", "sm_90a", "sm_100a"}) {
    jit::KernelCache cache(memory_only());
    auto k = jit::compile(table_spec(), with_lto(true, arch), cache);
    ASSERT_TRUE(k) << arch << ": " << k.error().describe();
    EXPECT_LT((*k)->binary.size(), std::size_t{64} << 10) << arch;
  }
}

TEST(Link, PtxOutputIgnoresLtoAndRefusesLibraries) {
  jit::KernelCache cache(memory_only());
  auto o = with_lto(true);
  o.output = jit::OutputKind::ptx;
  auto ptx = jit::compile(table_spec(), o, cache);
  ASSERT_TRUE(ptx) << ptx.error().describe();
  EXPECT_NE((*ptx)->binary.find(".entry"), std::string::npos);
  o.device_libraries.emplace_back("lib.ltoir", "not really");
  auto refused = jit::compile(table_spec(), o, cache);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, jit::JitErrorKind::invalid_option);
  EXPECT_NE(refused.error().message.find("CUBIN"), std::string::npos) << refused.error().message;
}

const char* const kCallsLibrary = R"(
extern "C" __device__ float devlib_axpb(float a, float x, float b);
template <int A> __global__ void calls_library(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = devlib_axpb(float(A), in[i], 1.0f);
}
)";

jit::KernelSpec library_caller() {
  jit::KernelSpec spec;
  spec.source = kCallsLibrary;
  spec.kernel = "calls_library";
  spec.template_args = {jit::TemplateArg::integer(3)};
  return spec;
}

TEST(Link, UndefinedDeviceFunctionIsALinkErrorWithAHint) {
  jit::KernelCache cache(memory_only());
  for (bool lto : {true, false}) {
    auto k = jit::compile(library_caller(), with_lto(lto), cache);
    ASSERT_FALSE(k) << "lto " << lto;
    // Without LTO and without libraries NVRTC runs alone, in whole-program mode: the compiler
    // reports the missing definition; with LTO nvJitLink does.
    if (lto) {
      EXPECT_EQ(k.error().kind, jit::JitErrorKind::link) << k.error().describe();
      EXPECT_NE(k.error().hint.find("device_libraries"), std::string::npos) << k.error().describe();
    }
  }
}

TEST(Link, DeviceLibraryFromAMissingFileIsAnIoError) {
  auto lib = jit::DeviceLibrary::from_file("/nonexistent/libnothing.a");
  ASSERT_FALSE(lib);
  EXPECT_EQ(lib.error().kind, jit::JitErrorKind::io);
}

#ifdef CUTE_DSL_JIT_TEST_DEVICE_LIBRARY_DIR
#  define SKIP_WITHOUT_NVCC_LIBRARY() (void)0
const std::string kLibDir = CUTE_DSL_JIT_TEST_DEVICE_LIBRARY_DIR;
const std::string kLibArch = CUTE_DSL_JIT_TEST_DEVICE_LIBRARY_ARCH;
#else
#  define SKIP_WITHOUT_NVCC_LIBRARY() GTEST_SKIP() << "SKIPPED: nvcc was not found at build time: no device library to link"
const std::string kLibDir, kLibArch = "sm_90a";
#endif

// Each form nvcc makes, with and without LTO: nvJitLink compiles LTO-IR inputs even when the
// kernel itself comes as a relocatable CUBIN.
TEST(Link, DeviceLibrariesInEveryFormLinkIntoTheKernel) {
  SKIP_WITHOUT_NVCC_LIBRARY();
  for (const char* file : {"axpb.cubin", "axpb_lto.o", "libaxpb_lto.a"}) {
    for (bool lto : {false, true}) {
      auto lib = jit::DeviceLibrary::from_file(kLibDir + "/" + file);
      ASSERT_TRUE(lib) << lib.error().describe();
      auto o = with_lto(lto, kLibArch);
      o.device_libraries.push_back(*lib);
      jit::KernelCache cache(memory_only());
      auto k = jit::compile(library_caller(), o, cache);
      ASSERT_TRUE(k) << file << " lto " << lto << ": " << k.error().describe();
      auto usage = jit::read_resource_usage((*k)->binary, (*k)->lowered_name);
      EXPECT_TRUE(usage) << file << ": " << usage.error().describe();
    }
  }
}

TEST(Link, AnUnreadableLibraryIsALinkError) {
  auto o = with_lto(true);
  o.device_libraries.emplace_back("garbage.a", std::string(100, 'x'));
  jit::KernelCache cache(memory_only());
  auto k = jit::compile(library_caller(), o, cache);
  ASSERT_FALSE(k);
  EXPECT_EQ(k.error().kind, jit::JitErrorKind::link) << k.error().describe();
  EXPECT_NE(k.error().message.find("garbage.a"), std::string::npos) << k.error().describe();
}

TEST(Link, LibrariesAreKeyedByContentNotByName) {
  SKIP_WITHOUT_NVCC_LIBRARY();
  const std::string bytes = read_text(kLibDir + "/axpb.cubin");
  TempDir dir;
  auto compile_with = [&](jit::DeviceLibrary lib, jit::KernelCache& cache) {
    auto o = with_lto(true, kLibArch);
    o.device_libraries.push_back(std::move(lib));
    auto k = jit::compile(library_caller(), o, cache);
    EXPECT_TRUE(k) << k.error().describe();
    return k ? (*k)->key : jit::Hash128{};
  };
  jit::KernelCache first(on_disk(dir.path()));
  const auto key = compile_with(jit::DeviceLibrary("/a/axpb.cubin", bytes), first);
  // Another name for the same bytes, in a fresh cache (a new process): a disk hit on the same key.
  jit::KernelCache second(on_disk(dir.path()));
  jit::CompileReport report;
  auto o = with_lto(true, kLibArch);
  o.device_libraries.emplace_back("/b/renamed.cubin", bytes);
  auto again = jit::compile(library_caller(), o, second, &report);
  ASSERT_TRUE(again) << again.error().describe();
  EXPECT_EQ((*again)->key, key);
  EXPECT_EQ(report.outcome, jit::CacheOutcome::disk_hit);
  // Other bytes (here: the LTO object of the same function): another key.
  jit::KernelCache third(memory_only());
  EXPECT_NE(compile_with(jit::DeviceLibrary::from_file(kLibDir + "/axpb_lto.o").value(), third), key);
}

}  // namespace
