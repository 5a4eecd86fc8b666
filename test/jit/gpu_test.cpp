// With a GPU (the device tool), checks what only a GPU can: the CUBIN the JIT produced loads and
// computes the right answer, and the resources read from its ELF agree with the driver's own
// figures. The Driver API calls here are test scaffolding (dlsym on the already-loaded driver);
// the library's own load and launch path is tested in gpu_launch_test.cpp. Without a GPU every
// test skips, saying so.
#include "jit_test_support.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace {

using namespace jit_test;

struct TestDriver {
  using Ctx = void*;
  using Mod = void*;
  using Fn = void*;
  using Ptr = unsigned long long;
  int (*primary_ctx_retain)(Ctx*, int) = nullptr;
  int (*ctx_set_current)(Ctx) = nullptr;
  int (*module_load_data)(Mod*, const void*) = nullptr;
  int (*module_get_function)(Fn*, Mod, const char*) = nullptr;
  int (*func_get_attribute)(int*, int, Fn) = nullptr;
  int (*mem_alloc)(Ptr*, std::size_t) = nullptr;
  int (*mem_free)(Ptr) = nullptr;
  int (*htod)(Ptr, const void*, std::size_t) = nullptr;
  int (*dtoh)(void*, Ptr, std::size_t) = nullptr;
  int (*launch)(Fn, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*, void**, void**) = nullptr;
  int (*synchronize)() = nullptr;
};

template <class F>
void sym(void* h, const char* name, F& f) {
  f = reinterpret_cast<F>(dlsym(h, name));
  ASSERT_NE(f, nullptr) << name;
}

// Skips (visibly) without a usable GPU; else a current context on device 0.
bool setup(TestDriver& d) {
  auto info = jit::load_driver();
  if (!info || info->device_count == 0) return false;
  void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  EXPECT_NE(h, nullptr);
  sym(h, "cuDevicePrimaryCtxRetain", d.primary_ctx_retain);
  sym(h, "cuCtxSetCurrent", d.ctx_set_current);
  sym(h, "cuModuleLoadData", d.module_load_data);
  sym(h, "cuModuleGetFunction", d.module_get_function);
  sym(h, "cuFuncGetAttribute", d.func_get_attribute);
  sym(h, "cuMemAlloc_v2", d.mem_alloc);
  sym(h, "cuMemFree_v2", d.mem_free);
  sym(h, "cuMemcpyHtoD_v2", d.htod);
  sym(h, "cuMemcpyDtoH_v2", d.dtoh);
  sym(h, "cuLaunchKernel", d.launch);
  sym(h, "cuCtxSynchronize", d.synchronize);
  TestDriver::Ctx ctx = nullptr;
  EXPECT_EQ(d.primary_ctx_retain(&ctx, 0), 0);
  EXPECT_EQ(d.ctx_set_current(ctx), 0);
  return true;
}

TestDriver::Fn load(TestDriver& d, const jit::CompiledKernel& k) {
  TestDriver::Mod mod = nullptr;
  TestDriver::Fn fn = nullptr;
  EXPECT_EQ(d.module_load_data(&mod, k.binary.data()), 0);
  EXPECT_EQ(d.module_get_function(&fn, mod, k.lowered_name.c_str()), 0);
  return fn;
}

TEST(Gpu, CompiledKernelComputesTheRightAnswer) {
  TestDriver d;
  if (!setup(d)) GTEST_SKIP() << "SKIPPED: no usable CUDA driver or GPU here; this test runs on the device tool";
  const std::string arch = jit::device_arch().value();
  jit::KernelCache cache(memory_only());
  auto k = jit::compile(elementwise_spec("f32, (4,8):(8,1), 128"), options_for(arch), cache);
  ASSERT_TRUE(k) << k.error().describe();
  TestDriver::Fn fn = load(d, **k);
  ASSERT_NE(fn, nullptr);
  std::vector<float> in(32), out(32, -1.f);
  std::mt19937 rng(7);
  for (float& x : in) x = std::uniform_real_distribution<float>(-4, 4)(rng);
  TestDriver::Ptr din = 0, dout = 0;
  ASSERT_EQ(d.mem_alloc(&din, 128), 0);
  ASSERT_EQ(d.mem_alloc(&dout, 128), 0);
  ASSERT_EQ(d.htod(din, in.data(), 128), 0);
  ASSERT_EQ(d.htod(dout, out.data(), 128), 0);
  float alpha = 2.5f;
  void* args[] = {&dout, &din, &alpha};
  ASSERT_EQ(d.launch(fn, 1, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr), 0);
  ASSERT_EQ(d.synchronize(), 0);
  ASSERT_EQ(d.dtoh(out.data(), dout, 128), 0);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(out[i], 2.5f * in[i]) << i;  // (4,8):(8,1) is a bijection on 0..31
  d.mem_free(din);
  d.mem_free(dout);
}

TEST(Gpu, ResourcesFromTheCubinMatchTheDriver) {
  TestDriver d;
  if (!setup(d)) GTEST_SKIP() << "SKIPPED: no usable CUDA driver or GPU here; this test runs on the device tool";
  const std::string arch = jit::device_arch().value();
  jit::KernelSpec staged;
  staged.source = std::string(
      "template <int N> __global__ void __launch_bounds__(256) staged(float* out, int k) {\n"
      "  __shared__ float tile[N]; float local[512];\n"
      "  for (int i = 0; i < 512; ++i) local[i] = out[i * k];\n"
      "  tile[threadIdx.x % N] = local[k & 511]; __syncthreads();\n"
      "  out[threadIdx.x] = tile[(threadIdx.x + 1) % N];\n}\n");
  staged.kernel = "staged";
  staged.template_args = {jit::TemplateArg::integer(300)};
  jit::KernelCache cache(memory_only());
  for (const auto& spec : {elementwise_spec(), elementwise_spec("f64, (64,64):(64,1), 256"), staged}) {
    auto k = jit::compile(spec, options_for(arch), cache);
    ASSERT_TRUE(k) << k.error().describe();
    const auto usage = jit::read_resource_usage((*k)->binary, (*k)->lowered_name).value();
    TestDriver::Fn fn = load(d, **k);
    ASSERT_NE(fn, nullptr);
    int regs = -1, shared = -1, local = -1, threads = -1;
    d.func_get_attribute(&threads, 0, fn);
    d.func_get_attribute(&shared, 1, fn);
    d.func_get_attribute(&local, 3, fn);
    d.func_get_attribute(&regs, 4, fn);
    std::printf("%s on %s: ELF regs %d shared %lld local %lld | driver regs %d shared %d local %d max threads %d\n",
                (*k)->name_expression.substr(0, 40).c_str(), arch.c_str(), usage.registers, usage.shared_bytes,
                usage.local_bytes, regs, shared, local, threads);
    EXPECT_EQ(usage.registers, regs);
    EXPECT_EQ(usage.local_bytes, local);
    // The driver may leave out the 1 KiB the system reserves on sm_90+; the ELF counts it.
    EXPECT_TRUE(usage.shared_bytes == shared || usage.shared_bytes == shared + 1024)
        << usage.shared_bytes << " vs " << shared;
  }
}

}  // namespace
