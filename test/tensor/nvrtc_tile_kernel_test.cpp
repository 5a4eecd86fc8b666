// The GPU test's kernel (tile_axpby_kernel.cuh) compiled with NVRTC, as the JIT would compile a
// kernel built on tensors: the whole tensor layer must instantiate there, not just parse.
// Host-only: needs NVRTC, no GPU.
#include <gtest/gtest.h>

#include <string>

#include "nvrtc_compile.hpp"

namespace {

TEST(Nvrtc, TileKernelCompiles) {
  const std::string source = R"(
#include "tile_axpby_kernel.cuh"
using namespace cute_dsl_tensor_test;
template __global__ void cute_dsl_tensor_test::tile_axpby_kernel<ColMajorTile>(float const*, float const*, float*, int, int, float, float);
template __global__ void cute_dsl_tensor_test::tile_axpby_kernel<RowMajorTile>(float const*, float const*, float*, int, int, float, float);
)";
  auto options = cute_dsl_test::nvrtc_default_options();
  options.push_back(std::string("-I") + CUTE_DSL_TENSOR_TEST_DIR);
  auto out = cute_dsl_test::nvrtc_compile(source, "tile_kernel.cu", options);
  EXPECT_TRUE(out.ok) << out.log;
  std::cout << "NVRTC " << cute_dsl_test::nvrtc_version() << ": " << out.seconds << " s\n";
}

}  // namespace
