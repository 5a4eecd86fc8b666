// Loading on a GPU: both load methods (module, library) give a kernel that computes the right
// answer; a device that does not exist is a clear error; a fresh thread loads into the primary
// context; argument sizes are checked against
// cuFuncGetParamInfo; a kernel linked with a device library (link_test.cpp) computes its answer.
// Without a GPU these skip, saying so.
#include "gpu_memory.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <thread>

namespace {

using namespace jit_test;

constexpr float kPoison = -12345.f;

const char* const kAxpy = R"(
extern "C" __global__ void axpy(float* out, const float* x, const float* y, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = __fmaf_rn(a, x[i], y[i]);
}
)";

jit::KernelPtr compile_source(const std::string& source, const std::string& kernel, jit::CompileOptions o = {}) {
  jit::KernelSpec spec;
  spec.source = source;
  spec.kernel = kernel;
  o.arch = jit::device_arch().value();
  jit::KernelCache cache(memory_only());
  auto compiled = jit::compile(spec, o, cache);
  if (!compiled) ADD_FAILURE() << compiled.error().describe();
  return compiled ? *compiled : nullptr;
}

jit::LaunchConfig grid_of(unsigned blocks, unsigned threads) {
  jit::LaunchConfig c;
  c.grid = {blocks};
  c.block = {threads};
  return c;
}

TEST(GpuLoad, ModuleAndLibraryLoadsComputeTheSameAnswer) {
  SKIP_WITHOUT_GPU();
  auto compiled = compile_source(kAxpy, "axpy");
  ASSERT_TRUE(compiled);
  const int n = 5000;
  const auto x = random_floats(n, 11), y = random_floats(n, 12);
  for (auto method : {jit::LoadMethod::module, jit::LoadMethod::library}) {
    jit::LoadOptions options;
    options.method = method;
    auto kernel = jit::load(*compiled, options);
    ASSERT_TRUE(kernel) << kernel.error().describe();
    EXPECT_EQ(kernel->method(), method);
    EXPECT_EQ(kernel->device(), 0);
    Buffer<float> dx(x), dy(y), dout(std::vector<float>(n, kPoison));
    auto r = jit::launch(*kernel, grid_of(16, 128), dout.device(), dx.device(), dy.device(), 0.5f, n);
    ASSERT_TRUE(r) << r.error().describe();
    const auto out = dout.read();
    for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], std::fma(0.5f, x[i], y[i])) << "element " << i;
  }
}

TEST(GpuLoad, ADeviceThatDoesNotExistIsAClearError) {
  SKIP_WITHOUT_GPU();
  const int count = jit::load_driver()->device_count;
  auto compiled = compile_source(kAxpy, "axpy");
  ASSERT_TRUE(compiled);
  jit::LoadOptions options;
  options.device = count;  // one past the last: device 1 on a 1-GPU machine
  auto missing = jit::load(*compiled, options);
  ASSERT_FALSE(missing);
  std::printf("%s", missing.error().describe().c_str());
  EXPECT_EQ(missing.error().kind, jit::JitErrorKind::no_device);
  EXPECT_NE(missing.error().message.find("device " + std::to_string(count) + " does not exist"), std::string::npos)
      << missing.error().message;
  EXPECT_FALSE(jit::use_device(-1));
  // The last device that does exist loads, and is made current.
  options.device = count - 1;
  auto last = jit::load(*compiled, options);
  ASSERT_TRUE(last) << last.error().describe();
  EXPECT_EQ(last->device(), count - 1);
  ASSERT_TRUE(jit::use_device(0));
}

// A thread starts with no current context: load() makes device 0's primary context current there,
// the same context the main thread uses, so memory allocated on one thread is seen on the other.
TEST(GpuLoad, AFreshThreadLoadsIntoThePrimaryContext) {
  SKIP_WITHOUT_GPU();
  auto compiled = compile_source(kAxpy, "axpy");
  ASSERT_TRUE(compiled);
  ASSERT_TRUE(jit::use_device(0));
  const int n = 777;
  const auto x = random_floats(n, 14), y = random_floats(n, 15);
  Buffer<float> dx(x), dy(y), dout(std::vector<float>(n, kPoison));
  std::string error;
  std::thread worker([&] {
    auto kernel = jit::load(*compiled, jit::LoadOptions{-1, jit::LoadMethod::library});
    if (!kernel) {
      error = kernel.error().describe();
      return;
    }
    if (kernel->device() != 0) error = "loaded on device " + std::to_string(kernel->device());
    else if (auto r = jit::launch(*kernel, grid_of(4, 256), dout.device(), dx.device(), dy.device(), 2.0f, n); !r)
      error = r.error().describe();
    else if (memory()->sync() != 0) error = "cuCtxSynchronize failed";
  });
  worker.join();
  ASSERT_TRUE(error.empty()) << error;
  const auto out = dout.read();
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], std::fma(2.0f, x[i], y[i])) << "element " << i;
}

TEST(GpuLoad, ArgumentSizesAreCheckedAgainstTheKernel) {
  SKIP_WITHOUT_GPU();
  auto compiled = compile_source(kAxpy, "axpy");
  ASSERT_TRUE(compiled);
  auto kernel = jit::load(*compiled);
  ASSERT_TRUE(kernel) << kernel.error().describe();
  const auto& sizes = kernel->parameter_sizes();
  ASSERT_TRUE(sizes) << "a CUBIN's parameter table gives the sizes, whatever the driver";
  EXPECT_EQ(*sizes, (std::vector<std::size_t>{8, 8, 8, 4, 4}));  // from the CUBIN's parameter table
  // Loaded as PTX (no table: the driver's cuFuncGetParamInfo tells): the same sizes.
  jit::CompileOptions ptx;
  ptx.output = jit::OutputKind::ptx;
  auto from_ptx = compile_source(kAxpy, "axpy", ptx);
  ASSERT_TRUE(from_ptx);
  auto ptx_kernel = jit::load(*from_ptx);
  ASSERT_TRUE(ptx_kernel) << ptx_kernel.error().describe();
  if (ptx_kernel->parameter_sizes()) EXPECT_EQ(*ptx_kernel->parameter_sizes(), *sizes);
  Buffer<float> buffer(std::vector<float>(64, 0.f));
  float* p = buffer.device();
  auto wrong_size = jit::launch(*kernel, grid_of(1, 32), p, p, p, 0.5 /* double */, 64);
  ASSERT_FALSE(wrong_size);
  EXPECT_EQ(wrong_size.error().kind, jit::JitErrorKind::invalid_option);
  EXPECT_NE(wrong_size.error().message.find("argument 3 is 8 bytes, the kernel's parameter 3 is 4 bytes"),
            std::string::npos) << wrong_size.error().describe();
  auto wrong_count = jit::prepare_launch(*kernel, grid_of(1, 32), p, p, p, 0.5f);
  ASSERT_FALSE(wrong_count);
  EXPECT_NE(wrong_count.error().message.find("4 arguments for a kernel with 5 parameters"), std::string::npos)
      << wrong_count.error().describe();
  EXPECT_TRUE(jit::launch(*kernel, grid_of(1, 32), p, p, p, 0.5f, 64));
}

// Runs here (no GPU): each way in to the driver fails with an error that says why.
TEST(Load, WithoutGpuEveryEntryIsAClearError) {
  if (have_gpu()) GTEST_SKIP() << "SKIPPED: this machine has a GPU; the no-GPU path is checked on machines without";
  auto device = jit::use_device(0);
  ASSERT_FALSE(device);
  EXPECT_TRUE(device.error().kind == jit::JitErrorKind::no_driver || device.error().kind == jit::JitErrorKind::no_device);
  jit::KernelSpec spec;
  spec.source = kAxpy;
  spec.kernel = "axpy";
  jit::KernelCache cache(memory_only());
  auto compiled = jit::compile(spec, options_for("sm_90a"), cache);
  ASSERT_TRUE(compiled) << compiled.error().describe();
  auto loaded = jit::load(**compiled, jit::LoadOptions{1, jit::LoadMethod::library});
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error().kind, device.error().kind) << loaded.error().describe();
}

#ifdef CUTE_DSL_JIT_TEST_DEVICE_LIBRARY_DIR
// link_test.cpp's kernel, linked with the nvcc-built library in both forms.
TEST(GpuLoad, AKernelLinkedWithADeviceLibraryComputesItsAnswer) {
  SKIP_WITHOUT_GPU();
  if (jit::device_arch().value() != CUTE_DSL_JIT_TEST_DEVICE_LIBRARY_ARCH)
    GTEST_SKIP() << "SKIPPED: the test library is built for " << CUTE_DSL_JIT_TEST_DEVICE_LIBRARY_ARCH;
  const std::string source = R"(
extern "C" __device__ float devlib_axpb(float a, float x, float b);
extern "C" __global__ void calls_library(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = devlib_axpb(3.0f, in[i], 1.0f);
}
)";
  const int n = 1000;
  const auto in = random_floats(n, 13);
  for (const char* file : {"axpb.cubin", "libaxpb_lto.a"}) {
    jit::CompileOptions o;
    o.device_libraries.push_back(
        jit::DeviceLibrary::from_file(std::string(CUTE_DSL_JIT_TEST_DEVICE_LIBRARY_DIR) + "/" + file).value());
    auto compiled = compile_source(source, "calls_library", o);
    ASSERT_TRUE(compiled) << file;
    auto kernel = jit::load(*compiled);
    ASSERT_TRUE(kernel) << kernel.error().describe();
    Buffer<float> din(in), dout(std::vector<float>(n, kPoison));
    ASSERT_TRUE(jit::launch(*kernel, grid_of(8, 128), dout.device(), din.device(), n));
    const auto out = dout.read();
    for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], std::fma(3.0f, in[i], 1.0f)) << file << " element " << i;
  }
}
#endif

}  // namespace
