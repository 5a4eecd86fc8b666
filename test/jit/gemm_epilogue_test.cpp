// The epilogue language's back end (cute_dsl/jit/gemm_epilogue.hpp): the generated fused GEMM
// compiles with NVRTC for sm_90a (no GPU needed) for a five-node program with a store and a
// reduction, its parameter struct lists what the program reads and writes, and refusals.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "cute_dsl/jit/gemm_epilogue.hpp"
#include "cute_dsl/jit/jit.hpp"

namespace {

namespace jit = cute_dsl::jit;
namespace ep = cute_dsl::jit::epilogue;

ep::Program parse(const char* text) {
  auto p = ep::parse_epilogue(text);
  EXPECT_TRUE(p.has_value()) << (p ? "" : p.error().message);
  return p ? *p : ep::Program{};
}

TEST(GemmEpilogue, FieldsFollowTheProgram) {
  const ep::Program p = parse("let z = alpha * acc + bias[col] + c; d = gelu(z); store pre = z; row_absmax amax = d; "
                              "col_sum dbias = g[row, col]");
  std::string names;
  for (const jit::GemmEpilogueField& f : jit::gemm_epilogue_fields(p)) names += f.name + " ";
  EXPECT_EQ(names, "alpha bias g g_ld pre pre_ld amax dbias c c_ld ");
}

TEST(GemmEpilogue, BiasGeluWithStoreAndReductionCompilesForSm90a) {
  // Five nodes on the way to D (alpha * acc + bias[col], gelu), a store and a row abs-max.
  const ep::Program p = parse("let z = alpha * acc + bias[col]; d = gelu(z); store pre = z; row_absmax amax = d");
  jit::GemmSm90Types types;  // bf16 in and out, both K-major
  jit::GemmSm90Config config;
  config.tile_n = 128, config.stages = 6, config.cluster_m = 1;
  auto spec = jit::gemm_sm90_epilogue_spec(types, config, p, jit::ElementType::bf16);
  ASSERT_TRUE(spec.has_value()) << spec.error().message;
  EXPECT_NE(spec->source.find("ep::gelu("), std::string::npos) << spec->source;
  EXPECT_NE(spec->source.find("ep::row_abs_max<"), std::string::npos) << spec->source;
  jit::CompileOptions options;
  options.arch = "sm_90a";
  jit::KernelCache cache(jit::CacheConfig{false, {}});
  const auto start = std::chrono::steady_clock::now();
  auto kernel = jit::compile(*spec, options, cache);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(kernel.has_value()) << kernel.error().describe() << "\n" << spec->source;
  RecordProperty("cold_compile_seconds", std::to_string(seconds));
  std::printf("fused GEMM (bias + GELU + store + row abs-max), cold compile: %.2f s\n", seconds);
  auto usage = jit::read_resource_usage((*kernel)->binary, (*kernel)->lowered_name);
  ASSERT_TRUE(usage.has_value());
  EXPECT_EQ(usage->max_threads, 384);
  std::printf("  registers %d, local (spills) %lld bytes per thread, static shared %lld bytes\n", usage->registers,
              usage->local_bytes, usage->shared_bytes);

  // Without edge tiles: the bounds-checked epilogue path is not compiled (a smaller CUBIN, what
  // the back end's time follows), no spills either; its name says so, its key differs.
  config.edge_tiles = false;
  EXPECT_EQ(jit::to_string(config), "128x128x64 s6 c1x1 whole-tiles");
  auto whole_spec = jit::gemm_sm90_epilogue_spec(types, config, p, jit::ElementType::bf16);
  ASSERT_TRUE(whole_spec.has_value()) << whole_spec.error().message;
  EXPECT_NE(whole_spec->source, spec->source);
  auto whole = jit::compile(*whole_spec, options, cache);
  ASSERT_TRUE(whole.has_value()) << whole.error().describe();
  EXPECT_LT((*whole)->binary.size() * 10, (*kernel)->binary.size() * 8) << "whole tiles: at least 20% less code";
  auto whole_usage = jit::read_resource_usage((*whole)->binary, (*whole)->lowered_name);
  ASSERT_TRUE(whole_usage.has_value());
  EXPECT_EQ(whole_usage->local_bytes, 0);
  std::printf("  without edge tiles: CUBIN %zu bytes (with: %zu)\n", (*whole)->binary.size(), (*kernel)->binary.size());
}

TEST(GemmEpilogue, WholeTilesAreMultiplesOfTheClusterTile) {
  jit::GemmSm90Config c;  // 128 x 256, clusters of 2
  EXPECT_TRUE(jit::gemm_sm90_whole_tiles(c, 256, 512));
  EXPECT_FALSE(jit::gemm_sm90_whole_tiles(c, 128, 512));  // one CTA tile row of a two-CTA cluster
  EXPECT_FALSE(jit::gemm_sm90_whole_tiles(c, 256, 384));
  c.tile_m = 64, c.tile_n = 128, c.cluster_m = 1;
  EXPECT_TRUE(jit::gemm_sm90_whole_tiles(c, 64, 128));
  EXPECT_FALSE(jit::gemm_sm90_whole_tiles(c, 65, 128));
}

// Every function, operator, input kind and output kind of the language in one program: the
// generated tree must compile (a wrong name or signature in the code generator fails here).
TEST(GemmEpilogue, EveryConstructCompiles) {
  // Each construct once, on leaves (the C++ tree is a tree: a reused subexpression is copied).
  const ep::Program p = parse(
      "d = fma(acc, s, v[row]) - w[col] / 2 + -t[row, col] * c + relu(acc) + gelu(acc) + gelu_tanh(acc) + silu(acc)"
      " + sigmoid(acc) + tanh(acc) + exp(-abs(acc)) + max(acc, 0.5) + min(acc, s) + clamp(acc, -1, 1)"
      " + leaky_relu(acc, 0.1) + leaky_relu(acc, s) + to_bf16(acc) + to_f16(drelu(acc, c)) + to_e4m3(dgelu(acc, c))"
      " + to_e5m2(acc);"
      "store aux = relu(acc); row_sum a = acc; col_sum b = acc; sum e = acc; row_max f = acc; col_max g = acc;"
      " max h = acc; row_absmax i = acc; col_absmax j = acc; absmax k = acc");
  jit::GemmSm90Types types;
  types.d = jit::ElementType::f32;
  jit::GemmSm90Config config;
  config.tile_n = 64, config.stages = 8, config.cluster_m = 1;
  auto spec = jit::gemm_sm90_epilogue_spec(types, config, p, jit::ElementType::f16);
  ASSERT_TRUE(spec.has_value()) << spec.error().message;
  jit::CompileOptions options;
  options.arch = "sm_90a";
  jit::KernelCache cache(jit::CacheConfig{false, {}});
  auto kernel = jit::compile(*spec, options, cache);
  ASSERT_TRUE(kernel.has_value()) << kernel.error().describe() << "\n" << spec->source;
}

TEST(GemmEpilogue, RefusesWhatTheGemmRefuses) {
  const ep::Program p = parse("relu(acc)");
  jit::GemmSm90Types types;
  jit::GemmSm90Config config;
  config.tile_n = 96;
  auto spec = jit::gemm_sm90_epilogue_spec(types, config, p);
  ASSERT_FALSE(spec.has_value());
  EXPECT_NE(spec.error().message.find("tile_n"), std::string::npos) << spec.error().message;
  // The 192-row tile runs plain GEMMs only (not run with a tree on a GPU): refused by name.
  jit::GemmSm90Config tall = config;
  tall.tile_m = 192, tall.tile_n = 192, tall.stages = 4, tall.cluster_m = 2;
  auto tall_spec = jit::gemm_sm90_epilogue_spec(types, tall, p);
  ASSERT_FALSE(tall_spec.has_value());
  EXPECT_NE(tall_spec.error().message.find("tile_m 192 runs plain GEMMs only, not epilogue trees"), std::string::npos)
      << tall_spec.error().message;
  config.tile_n = 128;
  EXPECT_FALSE(jit::gemm_sm90_epilogue_spec(types, config, p, jit::ElementType::i32).has_value());
  // Bindings reused in layers double the tree at each layer: refused before NVRTC sees it.
  const ep::Program deep = parse("let a = acc * s; let b = a + a * a; let c2 = b + b * b; let e = c2 + c2 * c2; let f = e + e * e; d = f + f * f");
  auto big = jit::gemm_sm90_epilogue_spec(types, config, deep);
  ASSERT_FALSE(big.has_value());
  EXPECT_NE(big.error().message.find("nodes (a binding is copied where it is used)"), std::string::npos) << big.error().message;
}

}  // namespace
