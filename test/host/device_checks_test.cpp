// The checks of device_checks.cuh on the host compiler, at compile time and at run time.
#include "device_checks.cuh"

#include <gtest/gtest.h>

TEST(DeviceChecks, HostCompiler) {
  for (int n = 1; n < 10; ++n) EXPECT_TRUE(cute_dsl_device_checks::all(n)) << n;
}
