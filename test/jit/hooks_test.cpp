// User hooks at the stages (hooks.hpp): the three example hooks, a custom PTX transform, the key,
// and the command-line spelling.
#include "jit_test_support.hpp"

#include <gtest/gtest.h>

#include <mutex>
#include <vector>

namespace {

using namespace jit_test;

jit::CompileOptions with_hook(jit::Hook hook, std::string arch = "sm_90a") {
  jit::CompileOptions o = options_for(arch);
  o.hooks.push_back(std::move(hook));
  return o;
}

// A kernel with an array indexed at run time: it lives in local memory, whatever the registers.
jit::KernelSpec stack_array_spec() {
  jit::KernelSpec spec;
  spec.source = "__global__ void stack_array(float* out, int i) {\n"
                "  float a[64];\n"
                "  for (int j = 0; j < 64; ++j) a[j] = out[j];\n"
                "  out[0] = a[i & 63];\n"
                "}\n";
  spec.source_name = "stack_array.cu";
  spec.kernel = "stack_array";
  return spec;
}

std::vector<std::string> captured_warnings(auto&& body) {
  std::mutex m;
  std::vector<std::string> lines;
  jit::set_log_sink([&](jit::LogLevel level, std::string_view text) {
    std::lock_guard lock(m);
    if (level == jit::LogLevel::warn) lines.emplace_back(text);
  });
  body();
  jit::set_log_sink({});
  return lines;
}

TEST(Hooks, PrependSourceTransformsTheSourceAndTheKey) {
  jit::KernelCache cache(memory_only());
  jit::CompileReport report;
  // The kernel's header does not define CUTE_DSL_HOOKED; the hook makes an #error of it visible.
  auto plain = jit::compile(elementwise_spec(), options_for("sm_90a"), cache);
  auto hooked = jit::compile(elementwise_spec(), with_hook(jit::hooks::prepend_source("flag", "#define CUTE_DSL_HOOKED 1")),
                             cache, &report);
  ASSERT_TRUE(plain && hooked) << (plain ? hooked.error().describe() : plain.error().describe());
  EXPECT_EQ(report.outcome, jit::CacheOutcome::miss) << "a hook is part of the memory key";
  EXPECT_TRUE(report.source.starts_with("#define CUTE_DSL_HOOKED 1\n")) << report.source;
  EXPECT_NE((*plain)->key, (*hooked)->key);
  auto other = jit::compile(elementwise_spec(), with_hook(jit::hooks::prepend_source("flag", "#define CUTE_DSL_HOOKED 2")), cache);
  ASSERT_TRUE(other);
  EXPECT_NE((*other)->key, (*hooked)->key) << "the text is in the hook's version";

  auto broken = jit::compile(elementwise_spec(), with_hook(jit::hooks::prepend_source("bad", "#error hooked in")), cache);
  ASSERT_FALSE(broken);
  EXPECT_NE(broken.error().log.find("hooked in"), std::string::npos) << broken.error().describe();
}

TEST(Hooks, ResourceBudgetRejectsOrWarns) {
  jit::KernelCache cache(memory_only());
  auto rejected = jit::compile(elementwise_spec(), with_hook(jit::hooks::resource_budget({.max_registers = 2})), cache);
  ASSERT_FALSE(rejected);
  EXPECT_EQ(rejected.error().kind, jit::JitErrorKind::hook);
  EXPECT_NE(rejected.error().message.find("registers per thread, over the budget of 2"), std::string::npos)
      << rejected.error().describe();
  EXPECT_NE(rejected.error().message.find("resource-budget(registers=2)"), std::string::npos) << rejected.error().message;
  EXPECT_NE(rejected.error().message.find("cute_dsl_jit_test::scale<"), std::string::npos);

  const auto warnings = captured_warnings([&] {
    auto warned = jit::compile(elementwise_spec(),
                               with_hook(jit::hooks::resource_budget({.max_registers = 2}, jit::HookAction::warn)), cache);
    EXPECT_TRUE(warned) << warned.error().describe();
  });
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("over the budget of 2"), std::string::npos) << warnings[0];

  EXPECT_TRUE(jit::compile(elementwise_spec(), with_hook(jit::hooks::resource_budget({.max_registers = 128})), cache));
  // Occupancy: 128 threads (its __launch_bounds__) of a few registers: 32 blocks fit by registers.
  auto occupancy = jit::compile(elementwise_spec(), with_hook(jit::hooks::resource_budget({.min_blocks_per_sm = 64})), cache);
  ASSERT_FALSE(occupancy);
  EXPECT_NE(occupancy.error().message.find("threads fit on one SM"), std::string::npos) << occupancy.error().message;
  EXPECT_TRUE(jit::compile(elementwise_spec(), with_hook(jit::hooks::resource_budget({.min_blocks_per_sm = 8})), cache));
}

TEST(Hooks, ForbidLocalMemoryChecksThePtx) {
  jit::KernelCache cache(memory_only());
  EXPECT_TRUE(jit::compile(elementwise_spec(), with_hook(jit::hooks::forbid_local_memory()), cache));
  const std::uint64_t before = jit::nvrtc_compilations();
  auto k = jit::compile(stack_array_spec(), with_hook(jit::hooks::forbid_local_memory()), cache);
  ASSERT_FALSE(k);
  EXPECT_EQ(jit::nvrtc_compilations(), before + 1);
  EXPECT_EQ(k.error().kind, jit::JitErrorKind::hook);
  EXPECT_NE(k.error().message.find("its PTX declares local memory"), std::string::npos) << k.error().describe();
  EXPECT_TRUE(jit::compile(stack_array_spec(), options_for("sm_90a"), cache)) << "without the hook it compiles";
  jit::CompileOptions no_lto = with_hook(jit::hooks::forbid_local_memory());
  no_lto.lto = false;  // NVRTC's own PTX, same verdict
  EXPECT_FALSE(jit::compile(stack_array_spec(), no_lto, cache));
}

TEST(Hooks, APtxTransformIsWhatPtxasCompiles) {
  int seen = 0;
  jit::Hook marker{"ptx-marker", "1", {}, {}, {}};
  marker.on_ptx = [&](std::string& ptx, const jit::HookContext& where) -> jit::HookResult {
    ++seen;
    EXPECT_FALSE(where.lowered_name.empty());
    EXPECT_NE(ptx.find(".entry " + std::string(where.lowered_name)), std::string::npos);
    ptx += "\n// rewritten by a hook\n";
    return jit::Ok{};
  };
  std::string cubin_seen;
  marker.on_cubin = [&](std::string_view cubin, const jit::HookContext&) -> jit::HookResult {
    cubin_seen = cubin;
    return jit::Ok{};
  };
  for (bool lto : {true, false}) {
    jit::KernelCache cache(memory_only());
    jit::CompileOptions o = with_hook(marker);
    o.lto = lto;
    jit::CompileReport report;
    auto k = jit::compile(elementwise_spec(), o, cache, &report);
    ASSERT_TRUE(k) << k.error().describe();
    EXPECT_NE(report.ptx.find("rewritten by a hook"), std::string::npos);
    EXPECT_EQ(cubin_seen, (*k)->binary);
    auto usage = jit::read_resource_usage((*k)->binary, (*k)->lowered_name);
    ASSERT_TRUE(usage) << usage.error().describe();
    EXPECT_EQ(usage->max_threads, 128);
    ASSERT_TRUE(jit::compile(elementwise_spec(), o, cache, &report));
    EXPECT_EQ(report.outcome, jit::CacheOutcome::memory_hit) << "hits run no hook";
  }
  EXPECT_EQ(seen, 2);
}

TEST(Hooks, NameAndVersionAreTheKey) {
  jit::KernelCache cache(memory_only());
  jit::Hook check{"my-check", "1", {}, {}, [](std::string_view, const jit::HookContext&) -> jit::HookResult { return jit::Ok{}; }};
  auto a = jit::compile(elementwise_spec(), with_hook(check), cache);
  check.version = "2";
  jit::CompileReport report;
  auto b = jit::compile(elementwise_spec(), with_hook(check), cache, &report);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(report.outcome, jit::CacheOutcome::miss);
  EXPECT_NE((*a)->key, (*b)->key);
  check.on_cubin = {};  // the callbacks are not: same name and version, same kernel
  ASSERT_TRUE(jit::compile(elementwise_spec(), with_hook(check), cache, &report));
  EXPECT_EQ(report.outcome, jit::CacheOutcome::memory_hit);
}

TEST(Hooks, ParseTheCommandLineSpelling) {
  EXPECT_EQ(jit::parse_hook("forbid-local-memory")->name, "forbid-local-memory");
  EXPECT_EQ(jit::parse_hook("forbid-local-memory,warn")->name, "forbid-local-memory,warn");
  EXPECT_EQ(jit::parse_hook("max-registers=128")->name, "resource-budget(registers=128)");
  EXPECT_EQ(jit::parse_hook("max-shared=4096,warn")->name, "resource-budget(shared=4096),warn");
  EXPECT_EQ(jit::parse_hook("min-blocks-per-sm=2,threads=256")->name, "resource-budget(blocks-per-sm=2,threads=256)");
  EXPECT_TRUE(jit::parse_hook("max-registers=128")->on_cubin);
  TempDir dir;
  {
    std::ofstream(dir.path() + "/prelude.cuh") << "#define FROM_FILE 1\n";
  }
  auto file = jit::parse_hook("prepend-file=" + dir.path() + "/prelude.cuh");
  ASSERT_TRUE(file) << file.error().describe();
  EXPECT_EQ(file->name, "prepend:prelude.cuh");
  for (const char* bad : {"max-registers", "max-registers=0", "max-registers=300", "max-registers=12x", "no-such-hook=1",
                          "forbid-local-memory=1", "max-shared=10,loud", "prepend-file=", "prepend-file=/nonexistent/x.h"}) {
    auto h = jit::parse_hook(bad);
    ASSERT_FALSE(h) << bad;
    EXPECT_NE(h.error().message.size(), 0u);
  }
}

}  // namespace
