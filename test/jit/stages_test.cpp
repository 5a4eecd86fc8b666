// The compile pipeline's stages one at a time (stages.hpp), and the promise that observers (dumps,
// reports) never compile: nvrtc_compilations() counts every NVRTC run of the process.
#include "jit_test_support.hpp"

#include "cute_dsl/jit/stages.hpp"

#include <gtest/gtest.h>

namespace {

using namespace jit_test;

bool is_elf(std::string_view bytes) { return bytes.size() > 4 && bytes.substr(0, 4) == "\x7f" "ELF"; }

TEST(Stages, DescribeRunsNoNvrtcAndGivesCompilesKey) {
  const std::uint64_t before = jit::nvrtc_compilations();
  auto request = jit::describe_request(elementwise_spec(), options_for("sm_90a"));
  ASSERT_TRUE(request) << request.error().describe();
  EXPECT_EQ(jit::nvrtc_compilations(), before) << "describing is NVRTC-free";
  EXPECT_EQ(request->arch, "sm_90a");
  EXPECT_EQ(request->name_expression, elementwise_spec().name_expression());
  EXPECT_NE(request->source.find("#include \"elementwise.cuh\""), std::string::npos) << request->source;
  EXPECT_FALSE(request->want_ptx);
  EXPECT_TRUE(jit::describe_request(elementwise_spec(), options_for("sm_90a"), true)->want_ptx);

  jit::KernelCache cache(memory_only());
  auto k = jit::compile(elementwise_spec(), options_for("sm_90a"), cache);
  ASSERT_TRUE(k) << k.error().describe();
  EXPECT_EQ((*k)->key, request->key) << "compile() keys by the described request";

  jit::KernelSpec bad = elementwise_spec();
  bad.kernel.clear();
  auto invalid = jit::describe_request(bad, options_for("sm_90a"));
  ASSERT_FALSE(invalid);
  EXPECT_EQ(invalid.error().kind, jit::JitErrorKind::invalid_spec);
  EXPECT_FALSE(jit::describe_request(elementwise_spec(), options_for("banana")));
}

TEST(Stages, FrontEndThenBackEndMakeWhatCompileMakes) {
  const jit::CompileOptions options = options_for("sm_90a");
  auto request = jit::describe_request(elementwise_spec(), options);
  ASSERT_TRUE(request) << request.error().describe();
  const std::uint64_t before = jit::nvrtc_compilations();
  auto front = jit::run_front_end(*request, elementwise_spec());
  ASSERT_TRUE(front) << front.error().describe();
  EXPECT_EQ(jit::nvrtc_compilations(), before + 1);
  EXPECT_EQ(front->kind, jit::FrontEndCode::ltoir) << "LTO is the default";
  EXPECT_TRUE(front->ptx.empty()) << "NVRTC makes no PTX with -dlto, and none was wanted";
  EXPECT_GT(front->seconds, 0);
  const std::string lowered = front->lowered_name;
  auto back = jit::run_back_end(*request, std::move(*front), options);
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(jit::nvrtc_compilations(), before + 1) << "the back end runs nvJitLink, not NVRTC";
  EXPECT_TRUE(is_elf(back->binary));
  EXPECT_GT(back->seconds, 0);

  jit::KernelCache cache(memory_only());
  auto k = jit::compile(elementwise_spec(), options, cache);
  ASSERT_TRUE(k) << k.error().describe();
  EXPECT_EQ((*k)->lowered_name, lowered);
  EXPECT_EQ((*k)->binary, back->binary) << "the composition is compile()";
}

TEST(Stages, OneNvrtcProgramGivesPtxAndCubin) {
  jit::CompileOptions options = options_for("sm_90a");
  options.lto = false;  // NVRTC runs ptxas itself and keeps the PTX it compiled
  auto request = jit::describe_request(elementwise_spec(), options, true);
  ASSERT_TRUE(request) << request.error().describe();
  const std::uint64_t before = jit::nvrtc_compilations();
  auto front = jit::run_front_end(*request, elementwise_spec());
  ASSERT_TRUE(front) << front.error().describe();
  EXPECT_EQ(jit::nvrtc_compilations(), before + 1);
  EXPECT_EQ(front->kind, jit::FrontEndCode::cubin);
  EXPECT_TRUE(is_elf(front->code));
  EXPECT_NE(front->ptx.find(".entry " + front->lowered_name), std::string::npos) << front->ptx.substr(0, 400);
  auto back = jit::run_back_end(*request, std::move(*front), options);
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(back->seconds, 0) << "nothing past NVRTC ran";
  EXPECT_NE(back->ptx.find(".entry"), std::string::npos);
}

TEST(Stages, LtoPtxComesFromTheSameLtoIr) {
  const jit::CompileOptions options = options_for("sm_90a");
  auto request = jit::describe_request(elementwise_spec(), options, true);
  ASSERT_TRUE(request) << request.error().describe();
  const std::uint64_t before = jit::nvrtc_compilations();
  auto front = jit::run_front_end(*request, elementwise_spec());
  ASSERT_TRUE(front) << front.error().describe();
  auto back = jit::run_back_end(*request, std::move(*front), options);
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(jit::nvrtc_compilations(), before + 1);
  EXPECT_NE(back->ptx.find(".entry"), std::string::npos) << back->ptx.substr(0, 400);
  EXPECT_GT(back->ptx_seconds, 0);
  jit::KernelCache cache(memory_only());
  auto k = jit::compile(elementwise_spec(), options, cache);
  ASSERT_TRUE(k) << k.error().describe();
  EXPECT_EQ((*k)->binary, back->binary) << "asking for the PTX does not change the CUBIN";
}

TEST(Stages, FrontEndErrorsCarryTheMappedLog) {
  jit::KernelSpec spec = elementwise_spec();
  spec.kernel = "cute_dsl_jit_test::no_such_kernel";
  auto request = jit::describe_request(spec, options_for("sm_90a"));
  ASSERT_TRUE(request) << "nothing is compiled yet, so nothing is wrong yet";
  auto front = jit::run_front_end(*request, spec);
  ASSERT_FALSE(front);
  EXPECT_EQ(front.error().kind, jit::JitErrorKind::compile);
  EXPECT_NE(front.error().log.find("no_such_kernel"), std::string::npos) << front.error().describe();
}

// The dump keeps the source, PTX, CUBIN and report of one compile, from that compile: one NVRTC
// run (the PTX once came from a second, PTX-only compile), and none for a dump of a hit.
TEST(Stages, TheDumpPathCompilesOnce) {
  TempDir dump;
  jit::KernelCache cache(memory_only());
  jit::CompileOptions options = options_for("sm_90a");
  options.dump = jit::DumpOptions{dump.path(), jit::keep_source | jit::keep_ptx | jit::keep_cubin};
  const std::uint64_t before = jit::nvrtc_compilations();
  jit::CompileReport report;
  auto k = jit::compile(elementwise_spec(), options, cache, &report);
  ASSERT_TRUE(k) << k.error().describe();
  EXPECT_EQ(jit::nvrtc_compilations(), before + 1) << "one NVRTC program for the kernel and its dump";
  ASSERT_FALSE(report.dumped.empty());
  EXPECT_NE(read_text(report.dumped + ".ptx").find(".entry " + (*k)->lowered_name), std::string::npos);
  EXPECT_EQ(read_text(report.dumped + ".cubin"), (*k)->binary);
  EXPECT_EQ(read_text(report.dumped + ".cu"), report.source);

  TempDir dump2;  // a memory hit dumps what it has (no PTX) and compiles nothing
  options.dump.dir = dump2.path();
  ASSERT_TRUE(jit::compile(elementwise_spec(), options, cache, &report));
  EXPECT_EQ(report.outcome, jit::CacheOutcome::memory_hit);
  EXPECT_EQ(jit::nvrtc_compilations(), before + 1);
  EXPECT_NE(read_text(report.dumped + ".json").find("no PTX: a cache hit keeps the CUBIN only"), std::string::npos);

  // The environment's dump folder, read once per compile, the same way.
  TempDir dump3;
  {
    ScopedEnv dir("CUTE_DSL_DUMP_DIR", dump3.path().c_str());
    ScopedEnv keep("CUTE_DSL_KEEP", "ptx");
    jit::KernelCache fresh(memory_only());
    ASSERT_TRUE(jit::compile(elementwise_spec(), options_for("sm_90a"), fresh, &report));
  }
  EXPECT_EQ(jit::nvrtc_compilations(), before + 2);
  EXPECT_NE(read_text(report.dumped + ".ptx").find(".entry"), std::string::npos);
}

TEST(Stages, ReportSplitsFrontEndFromBackEnd) {
  TempDir dump;
  jit::KernelCache cache(memory_only());
  jit::CompileOptions options = options_for("sm_90a");
  options.dump = jit::DumpOptions{dump.path(), 0};
  jit::CompileReport report;
  ASSERT_TRUE(jit::compile(elementwise_spec(), options, cache, &report));
  EXPECT_GT(report.nvrtc_seconds, 0);
  EXPECT_GT(report.link_seconds, 0) << "LTO + ptxas in nvJitLink";
  EXPECT_EQ(report.ptx_seconds, 0) << "no PTX was wanted";
  const std::string json = read_text(report.dumped + ".json");
  EXPECT_NE(json.find("\"front_end\": "), std::string::npos) << json;
  EXPECT_NE(json.find("\"back_end\": "), std::string::npos) << json;
}

}  // namespace
