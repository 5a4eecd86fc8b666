// The driver is loaded at run time: its absence is a clear error, the toolkit's stub is refused,
// and with a GPU the auto arch comes from the device.
#include "jit_test_support.hpp"

#include <gtest/gtest.h>

namespace {

using namespace jit_test;

TEST(Driver, MissingDriverIsAClearError) {
  auto d = jit::load_driver();
  if (d) GTEST_SKIP() << "a CUDA driver is present (" << d->device_count << " devices): nothing to check";
  EXPECT_EQ(d.error().kind, jit::JitErrorKind::no_driver);
  EXPECT_NE(d.error().message.find("libcuda.so.1"), std::string::npos) << d.error().describe();
  EXPECT_NE(d.error().hint.find("compiling works without one"), std::string::npos) << d.error().describe();
}

TEST(Driver, ToolkitStubIsNotADriver) {
  const std::string stub = CUTE_DSL_STUB_LIBCUDA;
  if (stub.empty() || !std::filesystem::exists(stub)) GTEST_SKIP() << "no stub libcuda.so in this toolkit";
  // The stub under the versioned name, first on the search path of a child process.
  TempDir dir;
  std::filesystem::create_symlink(stub, dir.path() + "/libcuda.so.1");
  std::string out;
  ASSERT_EQ(run_command("LD_LIBRARY_PATH=" + dir.path() + " " + self_path() + " --probe-driver", out), 0) << out;
  EXPECT_NE(out.find("cuInit failed"), std::string::npos) << out;
  EXPECT_NE(out.find("no usable CUDA driver"), std::string::npos) << out;
  EXPECT_NE(out.find("stub"), std::string::npos) << out;
}

TEST(Driver, AutoArchNeedsAGpuOrCuteDslArch) {
  ::unsetenv("CUTE_DSL_ARCH");
  auto device = jit::device_arch();
  auto arch = jit::resolve_arch("auto");
  if (device) {
    ASSERT_TRUE(arch);
    EXPECT_EQ(*arch, *device);
    std::printf("GPU present: auto arch is %s\n", arch->c_str());
  } else {
    ASSERT_FALSE(arch);
    EXPECT_NE(arch.error().message.find("needs a GPU"), std::string::npos) << arch.error().describe();
    EXPECT_NE(arch.error().hint.find("CUTE_DSL_ARCH"), std::string::npos) << arch.error().describe();
  }
  ::setenv("CUTE_DSL_ARCH", "sm_100a", 1);
  EXPECT_EQ(jit::resolve_arch("auto").value(), "sm_100a");
  EXPECT_EQ(jit::resolve_arch("sm_80").value(), "sm_80") << "an explicit arch wins over CUTE_DSL_ARCH";
  ::unsetenv("CUTE_DSL_ARCH");
}

}  // namespace
