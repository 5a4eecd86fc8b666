// The fused GEMM's epilogue parameter struct (gemm_epilogue_arguments): the C layout the
// generated kernel declares, and the errors for missing, unknown or empty bindings. No GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "cute_dsl/jit/gemm_epilogue.hpp"

namespace {

namespace jit = cute_dsl::jit;
namespace ep = cute_dsl::jit::epilogue;

// The same fields as a C struct: the layout the bytes must have.
struct Expected {
  float alpha;
  const float* bias;
  const float* g;
  long long g_ld;
  float* pre;
  long long pre_ld;
  float* amax;
};

TEST(GemmEpilogueArguments, CLayoutOfTheFields) {
  auto program = ep::parse_epilogue("let z = alpha * acc + bias[col] + g[row, col]; d = z; store pre = z; row_absmax amax = d");
  ASSERT_TRUE(program);
  float bias[1], g[1], pre[1], amax[1];
  auto bytes = jit::gemm_epilogue_arguments(
      *program, {{"alpha", 1.5f}, {"bias", 0, bias}, {"g", 0, g, 7}, {"pre", 0, pre, 9}, {"amax", 0, amax}});
  ASSERT_TRUE(bytes) << bytes.error().message;
  ASSERT_EQ(bytes->size(), sizeof(Expected));
  Expected e;
  std::memcpy(&e, bytes->data(), sizeof e);
  EXPECT_EQ(e.alpha, 1.5f);
  EXPECT_EQ(e.bias, bias);
  EXPECT_EQ(e.g, g);
  EXPECT_EQ(e.g_ld, 7);
  EXPECT_EQ(e.pre, pre);
  EXPECT_EQ(e.pre_ld, 9);
  EXPECT_EQ(e.amax, amax);
}

TEST(GemmEpilogueArguments, MissingUnknownOrEmptyBindingsAreErrors) {
  auto program = ep::parse_epilogue("acc * s + v[row]");
  ASSERT_TRUE(program);
  float v[1];
  auto missing = jit::gemm_epilogue_arguments(*program, {{"s", 2.f}});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("'v' has no binding"), std::string::npos) << missing.error().message;
  auto unknown = jit::gemm_epilogue_arguments(*program, {{"s", 2.f}, {"v", 0, v}, {"w", 1.f}});
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("named 'w'"), std::string::npos) << unknown.error().message;
  auto null = jit::gemm_epilogue_arguments(*program, {{"s", 2.f}, {"v", 0, nullptr}});
  ASSERT_FALSE(null);
  EXPECT_NE(null.error().message.find("'v' needs a device pointer"), std::string::npos) << null.error().message;
  auto tensor = ep::parse_epilogue("acc + t[row, col]");
  ASSERT_TRUE(tensor);
  auto no_ld = jit::gemm_epilogue_arguments(*tensor, {{"t", 0, v}});  // the leading dimension left at 0
  ASSERT_FALSE(no_ld);
  EXPECT_NE(no_ld.error().message.find("'t' needs its leading dimension (ld >= 1)"), std::string::npos) << no_ld.error().message;
}

}  // namespace
