// Compile errors point at the user's file and line and show only the failing lines.
#include "jit_test_support.hpp"

#include <gtest/gtest.h>

namespace {

using namespace jit_test;

constexpr const char* kBadHeader =
    "// line 1: a header with one mistake\n"
    "#pragma once\n"
    "template <class T>\n"
    "__global__ void broken(T* out) {\n"
    "  out[0] = undeclared_name;  // line 5\n"
    "}\n"
    "// line 7: MARKER_NOT_IN_THE_ERROR\n";

TEST(Errors, HeaderErrorNamesTheUsersFileAndLine) {
  TempDir dir;
  const std::string path = dir.path() + "/broken.cuh";
  std::ofstream(path) << kBadHeader;
  jit::KernelSpec spec;
  auto h = jit::load_header_file(path);
  ASSERT_TRUE(h);
  spec.header = h->name;
  spec.headers.push_back(*h);
  spec.kernel = "broken";
  spec.template_args = {jit::TemplateArg::type(jit::ElementType::f32)};
  jit::KernelCache cache(memory_only());
  auto k = jit::compile(spec, options_for("sm_90a"), cache);
  ASSERT_FALSE(k);
  const jit::JitError& e = k.error();
  EXPECT_EQ(e.kind, jit::JitErrorKind::compile);
  EXPECT_NE(e.log.find(path + "(5): error"), std::string::npos) << e.log;
  EXPECT_NE(e.log.find("out[0] = undeclared_name;"), std::string::npos) << "the failing line is shown:\n" << e.log;
  EXPECT_EQ(e.log.find("MARKER_NOT_IN_THE_ERROR"), std::string::npos) << "only failing lines:\n" << e.log;
  EXPECT_NE(e.options.find("-arch=sm_90a"), std::string::npos) << e.options;
  EXPECT_NE(e.message.find("broken<float>"), std::string::npos) << e.message;
  EXPECT_NE(e.describe().find("options: "), std::string::npos);
}

TEST(Errors, SourceErrorNamesTheSourceLine) {
  jit::KernelSpec spec;
  spec.source_name = std::string("my_source.cu");
  spec.source = std::string("__global__ void k() {}\n\n__global__ void k2() { int x = ; }\n");
  spec.kernel = "k2";
  jit::KernelCache cache(memory_only());
  auto k = jit::compile(spec, options_for("sm_80"), cache);
  ASSERT_FALSE(k);
  EXPECT_NE(k.error().log.find("my_source.cu(3): error"), std::string::npos) << k.error().log;
}

TEST(Errors, WithADumpFolderTheErrorNamesTheDumpedSource) {
  TempDir dir;
  jit::KernelSpec spec;
  spec.source_name = std::string("dumped.cu");
  spec.source = std::string("__global__ void k() { int x = ; }\n");
  spec.kernel = "k";
  jit::CompileOptions options = options_for("sm_90a");
  options.dump.dir = dir.path();
  jit::KernelCache cache(memory_only());
  auto k = jit::compile(spec, options, cache);
  ASSERT_FALSE(k);
  const std::string& log = k.error().log;
  const auto at = log.find("generated source: " + dir.path() + "/");
  ASSERT_NE(at, std::string::npos) << log;
  const std::string path = log.substr(at + 18, log.find('\n', at) - at - 18);
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("int x = ; }"), std::string::npos) << path << ":\n" << text;
  // Without a folder nothing is written and the error says nothing of one.
  options.dump.dir.clear();
  auto again = jit::compile(spec, options, cache);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().log.find("generated source:"), std::string::npos) << again.error().log;
}

TEST(Errors, LineNumbersSurviveGeneratedIncludes) {
  // An f16 argument makes the generated source include <cuda_fp16.h> first; #line keeps the
  // user's numbering.
  jit::KernelSpec spec;
  spec.source_name = std::string("typed.cu");
  spec.source = std::string("template <class T>\n__global__ void k(T* p) {\n  p[0] = nope;\n}\n");
  spec.kernel = "k";
  spec.template_args = jit::parse_template_args("f16").value();
  jit::KernelCache cache(memory_only());
  auto k = jit::compile(spec, options_for("sm_90a"), cache);
  ASSERT_FALSE(k);
  EXPECT_NE(k.error().log.find("typed.cu(3): error"), std::string::npos) << k.error().log;
}

TEST(Errors, MissingHeaderHasAHint) {
  jit::KernelSpec spec;
  spec.source = std::string("#include \"not_there.cuh\"\n__global__ void k() {}\n");
  spec.kernel = "k";
  jit::KernelCache cache(memory_only());
  auto k = jit::compile(spec, options_for("sm_90a"), cache);
  ASSERT_FALSE(k);
  EXPECT_NE(k.error().hint.find("KernelSpec::headers"), std::string::npos) << k.error().describe();
}

TEST(Errors, MissingCudaHeadersSaySo) {
  ::setenv("CUDA_HOME", "/nonexistent/cuda", 1);  // overrides the build-time toolkit
  EXPECT_TRUE(jit::cuda_include_dirs().empty());
  jit::KernelCache cache(memory_only());
  auto k = jit::compile(elementwise_spec("f16, 32:1, 32"), options_for("sm_90a"), cache);
  ::unsetenv("CUDA_HOME");
  ASSERT_FALSE(k);
  EXPECT_NE(k.error().log.find("cuda_fp16.h"), std::string::npos) << k.error().describe();
  EXPECT_NE(k.error().hint.find("CUDA_HOME"), std::string::npos) << k.error().describe();
  EXPECT_FALSE(jit::cuda_include_dirs().empty()) << "the build-time toolkit again";
}

TEST(Errors, WrongKernelNameOrArguments) {
  auto spec = elementwise_spec();
  spec.kernel = "cute_dsl_jit_test::no_such_kernel";
  jit::KernelCache cache(memory_only());
  auto k = jit::compile(spec, options_for("sm_90a"), cache);
  ASSERT_FALSE(k);
  EXPECT_EQ(k.error().kind, jit::JitErrorKind::compile);
  EXPECT_NE(k.error().log.find("no_such_kernel"), std::string::npos) << k.error().describe();
}

TEST(Errors, ArchIsValidated) {
  jit::KernelCache cache(memory_only());
  for (const char* bad : {"sm_75a", "sm_999", "banana", "sm_"}) {
    auto k = jit::compile(elementwise_spec(), options_for(bad), cache);
    ASSERT_FALSE(k) << bad;
    EXPECT_EQ(k.error().kind, jit::JitErrorKind::invalid_option) << bad;
  }
  auto k = jit::compile(elementwise_spec(), options_for("sm_999"), cache);
  EXPECT_NE(k.error().hint.find("sm_90"), std::string::npos) << "lists the supported archs: " << k.error().hint;
  EXPECT_EQ(jit::resolve_arch("90A").value(), "sm_90a");
  EXPECT_EQ(jit::resolve_arch("compute_80").value(), "sm_80");
}

TEST(Errors, BadOptionsAndSpecs) {
  jit::KernelCache cache(memory_only());
  auto o = options_for("sm_90a");
  o.opt_level = 4;
  EXPECT_EQ(jit::compile(elementwise_spec(), o, cache).error().kind, jit::JitErrorKind::invalid_option);
  o = options_for("sm_90a");
  o.defines = {"A B"};
  EXPECT_EQ(jit::compile(elementwise_spec(), o, cache).error().kind, jit::JitErrorKind::invalid_option);
  auto spec = elementwise_spec();
  spec.source = std::string("__global__ void k() {}");
  EXPECT_EQ(jit::compile(spec, options_for("sm_90a"), cache).error().kind, jit::JitErrorKind::invalid_spec);
  EXPECT_EQ(jit::load_header_file("/no/such/header.cuh").error().kind, jit::JitErrorKind::io);
}

}  // namespace
