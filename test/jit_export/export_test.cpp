// The AOT export without a GPU: what render_export/export_kernel write for the elementwise, GEMM
// and custom families, checked against the CUBINs (ELF, parameter layout) and the C++ structs the
// JIT launches with, the files compiled as C99 and C++ by the host compilers, the arch rules, and
// the `cute-dsl jit export` command's errors. The GEMM is exported once for all its tests.
#include "cute_dsl/jit/export.hpp"
#include "cute_dsl/kernels/gemm_sm90.hpp"

#include "jit_test_support.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

namespace jit = cute_dsl::jit;
using jit_test::TempDir;

bool is_elf(const std::string& bytes) { return bytes.size() > 64 && bytes.compare(0, 4, "\x7f" "ELF") == 0; }

int run(const std::string& command, std::string* output) { return jit_test::run_command(command, *output); }

// Compiles `file` alone with the host compilers: as C99 and as C++11 (-Werror: a generated file
// must not warn), syntax only. Returns the first failure's output, or "".
std::string compile_as_c_and_cxx(const std::string& file) {
  const std::string flags = std::string(" -fsyntax-only -Wall -Wextra -Werror ") + CUTE_DSL_TEST_CUDA_INCLUDE_FLAGS + " ";
  std::string out;
  if (run(std::string(CUTE_DSL_TEST_CC) + " -std=c99 -x c" + flags + file, &out) != 0) return "C99: " + out;
  if (run(std::string(CUTE_DSL_TEST_CXX) + " -std=c++11 -x c++" + flags + file, &out) != 0) return "C++11: " + out;
  return {};
}

jit::ExportOptions options(std::vector<std::string> archs, std::string name, std::string dir = {}) {
  jit::ExportOptions o;
  o.archs = std::move(archs);
  o.name = std::move(name);
  o.out_dir = std::move(dir);
  return o;
}

// The GEMM the tests share: bf16, 128x128 tiles, clusters of 2, exported once for sm_90a.
struct SharedGemm {
  TempDir dir;
  jit::Expected<jit::ExportedKernel, jit::JitError> exported = jit::unexpected(jit::JitError{});
  SharedGemm() {
    auto kernel = jit::gemm_sm90_export({}, {.tile_n = 128, .stages = 4, .cluster_m = 2});
    if (!kernel) {
      exported = jit::unexpected(kernel.error());
      return;
    }
    if (auto written = jit::export_kernel(*kernel, options({"sm_90a"}, "gemm_bf16", dir.path())); !written)
      exported = jit::unexpected(written.error());
    else
      exported = jit::render_export(*kernel, options({"sm_90a"}, "gemm_bf16"));  // a memory-cache hit
  }
};
const SharedGemm& shared_gemm() {
  static const SharedGemm g;
  return g;
}

TEST(Export, ElementwiseForTwoArchs) {
  auto kernel = jit::elementwise_export(jit::ElementwiseOp::axpby, jit::ElementType::f32);
  ASSERT_TRUE(kernel) << kernel.error().describe();
  auto e = jit::render_export(*kernel, options({"sm_80", "90a"}, "ew_axpby"));
  ASSERT_TRUE(e) << e.error().describe();
  EXPECT_EQ(e->archs, (std::vector<std::string>{"sm_80", "sm_90a"}));
  ASSERT_EQ(e->cubins.size(), 2u);
  EXPECT_TRUE(is_elf(e->cubins[0]) && is_elf(e->cubins[1]));
  EXPECT_NE(e->cubins[0], e->cubins[1]);
  // out, a, b, n (8 bytes each) and the Axpby functor (two floats), as launch() packs them.
  const std::vector<jit::KernelParameter> want = {{0, 8}, {8, 8}, {16, 8}, {24, 8}, {32, 8}};
  EXPECT_EQ(e->parameters, want);
  EXPECT_NE(e->header.find("#define EW_AXPBY_SYMBOL \"" + e->lowered_name + "\""), std::string::npos);
  EXPECT_NE(e->header.find("#define EW_AXPBY_BLOCK_X 256\n"), std::string::npos);
  EXPECT_NE(e->header.find("#define EW_AXPBY_ARCHS \"sm_80 sm_90a\""), std::string::npos);
  EXPECT_NE(e->header.find("ew_axpby_axpby op;"), std::string::npos);
  EXPECT_NE(e->source.find("ew_axpby_cubin_sm_80[" + std::to_string(e->cubins[0].size()) + "]"), std::string::npos);
  EXPECT_NE(e->source.find("{\"sm_90a\", 9, 0, 1, ew_axpby_cubin_sm_90a}"), std::string::npos);
  // The byte array holds the CUBIN: its first bytes are the ELF magic, in decimal.
  EXPECT_NE(e->source.find("= {\n127,69,76,70,"), std::string::npos);
}

TEST(Export, ElementwiseFilesCompileAsCAndCxx) {
  TempDir dir;
  auto kernel = jit::elementwise_export(jit::ElementwiseOp::add, jit::ElementType::bf16);
  ASSERT_TRUE(kernel) << kernel.error().describe();
  auto written = jit::export_kernel(*kernel, options({"sm_90a"}, "ew_add", dir.path()));
  ASSERT_TRUE(written) << written.error().describe();
  ASSERT_EQ(written->size(), 3u);  // .h, .c, one .cubin
  EXPECT_TRUE(is_elf(jit_test::read_text(dir.path() + "/ew_add.sm_90a.cubin")));
  EXPECT_EQ(compile_as_c_and_cxx(dir.path() + "/ew_add.h"), "");
  EXPECT_EQ(compile_as_c_and_cxx(dir.path() + "/ew_add.c"), "");
  // The empty functor is one byte, as the CUBIN says.
  EXPECT_NE(jit_test::read_text(dir.path() + "/ew_add.c").find("ew_add_params_op_must_be_1_bytes"), std::string::npos);
}

TEST(Export, GemmParametersAreTheLaunchersStruct) {
  const auto& g = shared_gemm();
  ASSERT_TRUE(g.exported) << g.exported.error().describe();
  // One parameter: the GemmSm90Params the JIT's launcher packs (jit/src/gemm_sm90.cpp).
  ASSERT_EQ(g.exported->parameters.size(), 1u);
  EXPECT_EQ(g.exported->parameters[0].size, int(sizeof(cute_dsl::kernels::GemmSm90Params<void>)));
  EXPECT_EQ(g.exported->archs, std::vector<std::string>{"sm_90a"});
  EXPECT_TRUE(is_elf(g.exported->cubins[0]));
  const std::string& h = g.exported->header;
  EXPECT_NE(h.find("#define GEMM_BF16_BLOCK_X 384\n"), std::string::npos);
  EXPECT_NE(h.find("#define GEMM_BF16_CLUSTER_X 2\n"), std::string::npos);
  const jit::GemmSm90Config config{.tile_n = 128, .stages = 4, .cluster_m = 2};
  EXPECT_NE(h.find("#define GEMM_BF16_DYNAMIC_SMEM_BYTES " + std::to_string(jit::gemm_sm90_shared_bytes(config)) + "u"),
            std::string::npos);
  for (const char* f : {"gemm_bf16_make_params(", "gemm_bf16_grid(", "gemm_bf16_run(", "gemm_bf16_problem;"})
    EXPECT_NE(h.find(f), std::string::npos) << f;
}

TEST(Export, GemmFilesCompileAsCAndCxx) {
  const auto& g = shared_gemm();
  ASSERT_TRUE(g.exported) << g.exported.error().describe();
  // The source's checks compare every field offset and the size with the C++ struct's: a
  // layout that differed would not compile here.
  EXPECT_EQ(compile_as_c_and_cxx(g.dir.path() + "/gemm_bf16.h"), "");
  EXPECT_EQ(compile_as_c_and_cxx(g.dir.path() + "/gemm_bf16.c"), "");
  EXPECT_EQ(jit_test::read_text(g.dir.path() + "/gemm_bf16.sm_90a.cubin"), g.exported->cubins[0]);
}

TEST(Export, GemmIsForSm90aOnly) {
  auto kernel = jit::gemm_sm90_export({}, {});
  ASSERT_TRUE(kernel);
  auto e = jit::render_export(*kernel, options({"sm_80"}, "g"));
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("cannot be built for sm_80"), std::string::npos) << e.error().message;
  EXPECT_FALSE(jit::gemm_sm90_export({}, {.tile_n = 96}));  // the kernel's rules, before compiling
}

TEST(Export, CustomKernelTakesItsParametersFromTheCubin) {
  TempDir dir;
  auto written = jit::export_kernel(jit::custom_export(jit_test::elementwise_spec(), {128, 1, 1}), options({"sm_80"}, "scale", dir.path()));
  ASSERT_TRUE(written) << written.error().describe();
  const std::string h = jit_test::read_text(dir.path() + "/scale.h");
  EXPECT_NE(h.find("  unsigned long long p0;\n  unsigned long long p1;\n  unsigned int p2;\n"), std::string::npos) << h;
  EXPECT_EQ(compile_as_c_and_cxx(dir.path() + "/scale.c"), "");
}

TEST(Export, RejectsBadOptions) {
  auto kernel = jit::elementwise_export(jit::ElementwiseOp::copy, jit::ElementType::f32);
  ASSERT_TRUE(kernel);
  auto message = [&](jit::ExportOptions o) {
    auto e = jit::render_export(*kernel, o);
    return e ? std::string("(accepted)") : e.error().message;
  };
  EXPECT_NE(message(options({"sm_80"}, "9lives")).find("not a C identifier"), std::string::npos);
  EXPECT_NE(message(options({}, "k")).find("no arch given"), std::string::npos);
  EXPECT_NE(message(options({"auto"}, "k")).find("'auto'"), std::string::npos);
  EXPECT_NE(message(options({"sm_80", "80"}, "k")).find("sm_80 is given twice"), std::string::npos);
  EXPECT_FALSE(jit::elementwise_export(jit::ElementwiseOp::add, jit::ElementType::i32));
  EXPECT_FALSE(jit::parse_elementwise_op("mul"));
}

TEST(Export, CommandLineErrors) {
  const std::string tool = CUTE_DSL_TEST_TOOL;
  struct Case {
    std::string args, expected;
    int status;
  } cases[] = {
      {"", "give the kind of kernel", 2},
      {"bogus --arch sm_80", "unknown kind 'bogus'", 2},
      {"elementwise --out d --name n", "give at least one --arch", 2},
      {"elementwise --arch sm_80 --name n", "give --out and --name", 2},
      {"elementwise --arch sm_80 --out d --name n --tile-n 64", "unknown argument '--tile-n'", 2},
      {"elementwise --arch sm_80 --out d --name n --ptx", "--ptx does not apply", 2},
      {"elementwise --op mul --arch sm_80 --out d --name n", "unknown elementwise op 'mul'", 1},
      {"gemm --arch sm_80 --out d --name n", "cannot be built for sm_80", 1},
      {"gemm --a-major kk --arch sm_90a --out d --name n", "--a-major is k or mn", 2},
      {"gemm --stages x --arch sm_90a --out d --name n", "--stages needs an integer", 2},
      {"gemm --whole-tiles --arch sm_90a --out d --name n", "--whole-tiles is for fused epilogue kernels", 2},
      {"custom --kernel k --header h.cuh --arch sm_80 --out d --name n", "give --block", 2},
      {"elementwise --arch sm_80 --out d --name 1x", "not a C identifier", 1},
  };
  for (const auto& c : cases) {
    std::string out;
    EXPECT_EQ(run(tool + " jit export " + c.args, &out), c.status) << c.args << "\n" << out;
    EXPECT_NE(out.find("ERROR: "), std::string::npos) << c.args << "\n" << out;
    EXPECT_NE(out.find(c.expected), std::string::npos) << c.args << "\n" << out;
  }
}

TEST(Export, CommandLineWritesTheFiles) {
  TempDir dir;
  std::string out;
  ASSERT_EQ(run(std::string(CUTE_DSL_TEST_TOOL) + " jit export elementwise --op relu --dtype f16 --arch sm_80 --arch sm_90a --out " +
                    dir.path() + " --name relu_f16",
                &out),
            0)
      << out;
  for (const char* f : {"/relu_f16.h", "/relu_f16.c", "/relu_f16.sm_80.cubin", "/relu_f16.sm_90a.cubin"})
    EXPECT_NE(out.find("wrote " + dir.path() + f), std::string::npos) << out;
  EXPECT_TRUE(is_elf(jit_test::read_text(dir.path() + "/relu_f16.sm_80.cubin")));
}

}  // namespace
