// `cute-dsl jit epilogue 'EXPRESSION' [--gemm [GEMM options] [--element T] [--emit FILE]]`: checks
// a GEMM epilogue written in the epilogue language (cute_dsl/jit/epilogue_expression.hpp) and
// prints its inputs and outputs, each output's expression in canonical form. With --gemm it also
// generates the fused Hopper GEMM (cute_dsl/jit/gemm_epilogue.hpp), compiles it with NVRTC (no
// GPU needed) and prints what `jit compile` prints: the kernel, its cache key and resources.
// A bad expression gets `ERROR: ...` with a caret under the column, and exit status 1.
#include <cstdio>
#include <fstream>
#include <string>
#include <string_view>

#include "cute_dsl/jit/epilogue_expression.hpp"
#include "cute_dsl/jit/gemm_epilogue.hpp"
#include "jit_cli.hpp"

namespace cute_dsl::tools {

void epilogue_usage(std::FILE* out) {
  std::fputs(
      "usage: cute-dsl jit epilogue 'EXPRESSION' [--gemm [GEMM options] [--element T] [--emit FILE] [options]]\n"
      "  Checks a GEMM epilogue written in the epilogue language and prints what it means: its\n"
      "  inputs (scalar, row vector v[row], column vector v[col], tensor t[row, col]) and its\n"
      "  outputs (D, `store` tensors, reductions), each in canonical form.\n"
      "  --gemm           also generate the fused Hopper GEMM and compile it (NVRTC, no GPU):\n"
      "                   prints the kernel, its cache key and resources; --arch defaults to sm_90a\n"
      "  GEMM options     --a bf16|f16, --d bf16|f16|f32, --a-major k|mn, --b-major k|mn,\n"
      "                   --tile-m 128|64, --tile-n 48|64|96|128|160|192|224|256, --stages N, --cluster-m 1|2, --ping-pong,\n"
      "                   --whole-tiles (no bounds-checked epilogue path: launches need M a multiple of\n"
      "                   tile_m x cluster_m and N of tile_n; compiles in about half the time)\n"
      "  --element T      the element type of vector and tensor inputs and stored outputs (default f32)\n"
      "  --emit FILE      write the generated CUDA source to FILE\n"
      "  Examples:\n"
      "    cute-dsl jit epilogue 'gelu(alpha * acc + bias[col])'\n"
      "    cute-dsl jit epilogue 'let z = acc + bias[col]; d = gelu(z); store pre = z; row_absmax amax = d' --gemm\n"
      "  The language: docs/11_epilogue_language.md.\n",
      out);
}

int epilogue_main(std::span<char* const> args) {
  std::string text, emit, element = "f32";
  bool gemm = false, have_text = false, ok = true;
  jit::GemmSm90Types types;
  jit::GemmSm90Config config;
  config.tile_n = 128, config.stages = 6, config.cluster_m = 1;  // the variant the heuristic uses most
  jit::CompileOptions options;
  options.arch = "sm_90a";
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string a = args[i];
    if (a == "--help" || a == "-h") {
      epilogue_usage(stdout);
      return 0;
    } else if (a == "--gemm") {
      gemm = true;
    } else if (a == "--emit") {
      emit = next_value(args, i);
    } else if (a == "--element") {
      element = next_value(args, i);
    } else if (parse_gemm_option(a, args, i, types, config, ok) || parse_code_option(a, args, i, options)) {
    } else if (!a.starts_with("--") && !have_text) {
      text = a, have_text = true;
    } else {
      std::fprintf(stderr, "ERROR: unknown argument '%s' for `jit epilogue`\n", a.c_str());
      epilogue_usage(stderr);
      return 2;
    }
  }
  if (!ok) return 2;
  if (!have_text) {
    std::fputs("ERROR: `jit epilogue` needs the expression (quote it)\n", stderr);
    epilogue_usage(stderr);
    return 2;
  }
  auto program = jit::epilogue::parse_epilogue(text);
  if (!program) {
    std::fprintf(stderr, "ERROR: %s\n%s\n", program.error().message.c_str(), program.error().log.c_str());
    return 1;
  }
  std::fputs(jit::epilogue::describe(*program).c_str(), stdout);
  if (!gemm) return 0;

  auto element_type = jit::parse_element_type(element);
  if (!element_type) {
    std::fprintf(stderr, "ERROR: %s", element_type.error().describe().c_str());
    return 2;
  }
  auto spec = jit::gemm_sm90_epilogue_spec(types, config, *program, *element_type);
  if (!spec) {
    std::fprintf(stderr, "ERROR: %s\n", spec.error().message.c_str());
    return 1;
  }
  if (!emit.empty()) {
    std::ofstream out(emit);
    if (!(out << spec->source)) {
      std::fprintf(stderr, "ERROR: cannot write %s\n", emit.c_str());
      return 1;
    }
  }
  std::printf("gemm:       %s, A/B %s, D %s\n", jit::to_string(config).c_str(), std::string(jit::to_string(types.a)).c_str(),
              std::string(jit::to_string(types.d)).c_str());
  return compile_and_report(*spec, std::move(options), {}, false);
}

}  // namespace cute_dsl::tools
