// The library's own load and launch path (loaded_kernel.hpp, launch.hpp) on a GPU: correctness on
// random data with a poisoned output, a 2-CTA cluster (sm_90+), > 48 KiB of dynamic shared memory,
// and a prepared launch reused with changed arguments. Device memory comes from test scaffolding
// (dlsym on the driver the library loaded): the library does not allocate. Without a GPU these
// skip, saying so; the no-GPU error path is checked here instead.
#include "gpu_memory.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

using namespace jit_test;

// Compiles `source`'s `kernel` (no template arguments) for this GPU and loads it.
jit::LoadedKernel load_source(const std::string& source, const std::string& kernel) {
  jit::KernelSpec spec;
  spec.source = source;
  spec.kernel = kernel;
  jit::KernelCache cache(memory_only());
  auto compiled = jit::compile(spec, options_for(jit::device_arch().value()), cache);
  if (!compiled) ADD_FAILURE() << compiled.error().describe();
  auto loaded = jit::load(**compiled);
  if (!loaded) ADD_FAILURE() << loaded.error().describe();
  return std::move(loaded).value();
}

const char* const kKernels = R"(
extern "C" __global__ void axpy(float* out, const float* x, const float* y, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = __fmaf_rn(a, x[i], y[i]);
}
extern "C" __global__ void cluster_rank(unsigned* out) {
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  if (threadIdx.x == 0) out[blockIdx.x] = rank;
}
extern "C" __global__ void reverse_in_shared(float* out, const float* in, int n) {
  extern __shared__ float s[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) s[i] = in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = s[n - 1 - i];
}
)";

constexpr float kPoison = -12345.f;

// The kernel's a*x+y is one explicit fused multiply-add (__fmaf_rn), so the host reference is
// std::fma and results compare exactly. (A plain a*x+y is contracted to FFMA by the device
// compiler but not by the host's, and differs in the last bit: seen on the H200.)
float axpy(float a, float x, float y) { return std::fma(a, x, y); }

TEST(GpuLaunch, LaunchComputesEveryElement) {
  SKIP_WITHOUT_GPU();
  auto kernel = load_source(kKernels, "axpy");
  const int n = 100003;  // not a multiple of the block: the tail is checked too
  const auto x = random_floats(n, 1), y = random_floats(n, 2);
  Buffer<float> dx(x), dy(y), dout(std::vector<float>(n, kPoison));
  jit::LaunchConfig config;
  config.grid = {64};
  config.block = {256};
  auto r = jit::launch(kernel, config, dout.device(), dx.device(), dy.device(), 1.5f, n);
  ASSERT_TRUE(r) << r.error().describe();
  const auto out = dout.read();
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], axpy(1.5f, x[i], y[i])) << "element " << i;
  // The driver's resource figures come through the same handle.
  auto res = kernel.driver_resources();
  ASSERT_TRUE(res) << res.error().describe();
  EXPECT_GT(res->registers, 0);
  EXPECT_GE(res->max_threads, 256);
}

TEST(GpuLaunch, ClusterOfTwoSeesItsRank) {
  SKIP_WITHOUT_GPU();
  if (std::stoi(jit::device_arch().value().substr(3)) < 90) GTEST_SKIP() << "SKIPPED: clusters need sm_90+, this GPU is " << *jit::device_arch();
  auto kernel = load_source(kKernels, "cluster_rank");
  const unsigned blocks = 16;
  Buffer<unsigned> dout(std::vector<unsigned>(blocks, 0xdeadbeef));
  jit::LaunchConfig config;
  config.grid = {blocks};
  config.block = {32};
  config.cluster = {2};
  auto r = jit::launch(kernel, config, dout.device());
  ASSERT_TRUE(r) << r.error().describe();
  const auto out = dout.read();
  for (unsigned b = 0; b < blocks; ++b) EXPECT_EQ(out[b], b % 2) << "block " << b;
  // A grid that is no multiple of the cluster is refused before the driver sees it.
  config.grid = {15};
  auto bad = jit::launch(kernel, config, dout.device());
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("multiple of the cluster"), std::string::npos);
}

TEST(GpuLaunch, DynamicSharedAbove48KiB) {
  SKIP_WITHOUT_GPU();
  auto kernel = load_source(kKernels, "reverse_in_shared");
  const int n = 100 * 1024 / 4;  // 100 KiB of floats
  const auto in = random_floats(n, 3);
  Buffer<float> din(in), dout(std::vector<float>(n, kPoison));
  jit::LaunchConfig config;
  config.block = {512};
  config.dynamic_smem_bytes = n * 4;
  auto r = jit::launch(kernel, config, dout.device(), din.device(), n);
  ASSERT_TRUE(r) << r.error().describe();
  const auto out = dout.read();
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], in[n - 1 - i]) << "element " << i;
  // Far beyond any GPU's limit: a driver error naming the call and the CUresult.
  config.dynamic_smem_bytes = 64 << 20;
  auto bad = jit::launch(kernel, config, dout.device(), din.device(), n);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, jit::JitErrorKind::driver);
  EXPECT_NE(bad.error().message.find("cuFuncSetAttribute"), std::string::npos) << bad.error().message;
  EXPECT_NE(bad.error().message.find("CUDA_ERROR_"), std::string::npos) << bad.error().message;
}

TEST(GpuLaunch, PreparedLaunchReusedWithChangedArguments) {
  SKIP_WITHOUT_GPU();
  auto kernel = load_source(kKernels, "axpy");
  const int n = 4099;
  const auto x = random_floats(n, 4), y = random_floats(n, 5);
  Buffer<float> dx(x), dy(y), out1(std::vector<float>(n, kPoison)), out2(std::vector<float>(n, kPoison));
  jit::LaunchConfig config;
  config.grid = {8};
  config.block = {128};
  auto prepared = jit::prepare_launch(kernel, config, out1.device(), dx.device(), dy.device(), 2.0f, n);
  ASSERT_TRUE(prepared) << prepared.error().describe();
  auto launch = *prepared;  // a copy must point at its own arguments
  ASSERT_TRUE(launch.launch());
  launch.set<0>(out2.device());
  launch.set<3>(-3.0f);
  launch.set<4>(n - 1);  // the last element of out2 stays poisoned
  ASSERT_TRUE(launch.launch());
  const auto r1 = out1.read(), r2 = out2.read();
  for (int i = 0; i < n; ++i) ASSERT_EQ(r1[i], axpy(2.0f, x[i], y[i])) << "element " << i;
  for (int i = 0; i < n - 1; ++i) ASSERT_EQ(r2[i], axpy(-3.0f, x[i], y[i])) << "element " << i;
  EXPECT_EQ(r2[n - 1], kPoison);
}

// Runs here (no GPU): loading fails with an error that says why, and nothing crashes.
TEST(Launch, WithoutGpuLoadingIsAClearError) {
  if (have_gpu()) GTEST_SKIP() << "SKIPPED: this machine has a GPU; the no-GPU path is checked on machines without";
  jit::KernelSpec spec;
  spec.source = "extern \"C\" __global__ void k() {}";
  spec.kernel = "k";
  jit::KernelCache cache(memory_only());
  auto compiled = jit::compile(spec, options_for("sm_90a"), cache);
  ASSERT_TRUE(compiled) << compiled.error().describe();
  auto loaded = jit::load(**compiled);
  ASSERT_FALSE(loaded);
  EXPECT_TRUE(loaded.error().kind == jit::JitErrorKind::no_driver || loaded.error().kind == jit::JitErrorKind::no_device)
      << loaded.error().describe();
  EXPECT_FALSE(loaded.error().message.empty());
  // Said in words, with what to do: "no CUDA driver: the CUDA driver (libcuda.so.1) could not be
  // loaded: ... hint: this machine has no NVIDIA driver; compiling works without one, ...".
  const std::string said = loaded.error().describe();
  EXPECT_TRUE(said.starts_with("no CUDA driver: ") || said.starts_with("no CUDA device: ")) << said;
  EXPECT_FALSE(loaded.error().hint.empty()) << said;
  std::printf("without a GPU, load() says:\n%s", said.c_str());
  // The GPU tests' kernels compile (so a device run fails only for device reasons).
  for (const char* name : {"axpy", "cluster_rank", "reverse_in_shared"}) {
    spec.source = kKernels;
    spec.kernel = name;
    auto k = jit::compile(spec, options_for("sm_90a"), cache);
    EXPECT_TRUE(k) << name << ": " << k.error().describe();
  }
}

}  // namespace
