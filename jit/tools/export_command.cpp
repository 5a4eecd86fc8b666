// `cute-dsl jit export`: a kernel compiled for one or more archs and written as a C header, a C
// source with the CUBINs embedded, and the CUBINs (jit/export.hpp). No GPU needed.
#include "cli_number.hpp"
#include "jit_cli.hpp"

#include "cute_dsl/jit/export.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace cute_dsl::tools {

void export_usage(std::FILE* out) {
  std::fprintf(out,
               "usage: cute-dsl jit export elementwise --op OP --dtype T           --arch ARCH... --out DIR --name PREFIX\n"
               "       cute-dsl jit export gemm [GEMM options]                     --arch sm_90a  --out DIR --name PREFIX\n"
               "       cute-dsl jit export custom --header FILE --kernel NAME [--targs ...] --block X[,Y,Z]\n"
               "                               [--cluster X[,Y,Z]] [--smem BYTES] --arch ARCH... --out DIR --name PREFIX\n"
               "\n"
               "Writes DIR/PREFIX.h (C99/C++: parameter struct, symbol, block, cluster, shared memory,\n"
               "PREFIX_load/_launch), DIR/PREFIX.c (the CUBINs embedded; needs only the CUDA Driver API) and\n"
               "DIR/PREFIX.<arch>.cubin. docs/09_jit_export.md.\n"
               "  --arch ARCH       an arch to build for (repeatable; the load picks by compute capability)\n"
               "  --out DIR         output folder (created)\n"
               "  --name PREFIX     C prefix of every name in the files (a C identifier)\n"
               "  elementwise:      --op copy|add|axpby|relu|gelu|silu, --dtype f32|f64|f16|bf16\n"
               "  gemm:             --a bf16|f16 (A and B), --d bf16|f16|f32 (C and D), --a-major k|mn,\n"
               "                    --b-major k|mn, --tile-m 128|64|192, --tile-n 48|64|96|128|160|192|224|256, --stages N,\n"
               "                    --cluster-m 1|2, --ping-pong (defaults: jit::GemmSm90Config's)\n"
               "  custom:           --header/--source/--include/--kernel/--targs as for `jit compile`;\n"
               "                    parameters are declared p0, p1, ... from the CUBIN's layout\n"
               "  -O, --define, --line-info, --fast-math, --device-asserts, --max-registers, --no-lto,\n"
               "  --link, --hook: as for `jit compile`\n");
}

namespace {

int usage_error(const std::string& message) {
  std::fprintf(stderr, "ERROR: %s\n\n", message.c_str());
  export_usage(stderr);
  return 2;
}

// "256" or "16,8" or "2,1,1" -> Dim3; false when malformed.
bool parse_dim3(const std::string& text, jit::Dim3& d) {
  unsigned v[3] = {1, 1, 1};
  std::size_t at = 0;
  for (int i = 0; i < 3 && at <= text.size(); ++i) {
    const std::size_t comma = text.find(',', at);
    const std::size_t end = comma == std::string::npos ? text.size() : comma;
    const auto n = parse_integer(std::string_view(text).substr(at, end - at), 1, 1 << 30);
    if (!n) return false;
    v[i] = static_cast<unsigned>(*n);
    at = end + 1;
    if (comma == std::string::npos) {
      d = {v[0], v[1], v[2]};
      return true;
    }
  }
  return false;
}

}  // namespace

int export_main(std::span<char* const> args) {
  if (args.empty()) return usage_error("give the kind of kernel: elementwise, gemm or custom");
  const std::string kind = args[0];
  if (kind == "--help" || kind == "-h") {
    export_usage(stdout);
    return 0;
  }
  if (kind != "elementwise" && kind != "gemm" && kind != "custom")
    return usage_error("unknown kind '" + kind + "' (elementwise, gemm or custom)");
  jit::ExportOptions options;
  SpecArguments spec_args;
  std::string op = "add", dtype = "f32", block, cluster;
  unsigned smem = 0;
  jit::GemmSm90Types types;
  jit::GemmSm90Config config;
  bool ok = true;
  args = args.subspan(1);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string a = args[i];
    if (a == "--help" || a == "-h") { export_usage(stdout); return 0; }
    else if (a == "--arch") options.archs.push_back(next_value(args, i));
    else if (a == "--out") options.out_dir = next_value(args, i);
    else if (a == "--name") options.name = next_value(args, i);
    else if (kind == "elementwise" && a == "--op") op = next_value(args, i);
    else if (kind == "elementwise" && a == "--dtype") dtype = next_value(args, i);
    else if (kind == "gemm" && a == "--whole-tiles") return usage_error("--whole-tiles is for fused epilogue kernels (`jit epilogue --gemm`), not the plain GEMM");
    else if (kind == "gemm" && parse_gemm_option(a, args, i, types, config, ok)) {}
    else if (kind == "custom" && a == "--block") block = next_value(args, i);
    else if (kind == "custom" && a == "--cluster") cluster = next_value(args, i);
    else if (kind == "custom" && a == "--smem") smem = static_cast<unsigned>(next_integer(args, i, 0, 1 << 30));
    else if (kind == "custom" && parse_spec_option(a, args, i, spec_args)) {}
    else if (a == "--ptx") return usage_error("the export writes CUBINs; --ptx does not apply");
    else if (!parse_code_option(a, args, i, options.compile))
      return usage_error("unknown argument '" + a + "' for `jit export " + kind + "`");
  }
  if (!ok) return 2;
  if (options.archs.empty()) return usage_error("give at least one --arch");
  if (options.out_dir.empty() || options.name.empty()) return usage_error("give --out and --name");

  auto fail = [](const jit::JitError& e) {
    std::fprintf(stderr, "ERROR: %s", e.describe().c_str());
    return 1;
  };
  jit::Expected<jit::ExportKernel, jit::JitError> kernel = jit::ExportKernel{};
  if (kind == "elementwise") {
    auto parsed_op = jit::parse_elementwise_op(op);
    if (!parsed_op) return fail(parsed_op.error());
    auto type = jit::parse_element_type(dtype);
    if (!type) return fail(type.error());
    kernel = jit::elementwise_export(*parsed_op, *type);
  } else if (kind == "gemm") {
    kernel = jit::gemm_sm90_export(types, config);
  } else {
    if (spec_args.kernel.empty() || spec_args.header_path.empty() == spec_args.source_path.empty())
      return usage_error("give --kernel and exactly one of --header and --source");
    jit::Dim3 b, c;
    if (block.empty() || !parse_dim3(block, b)) return usage_error("give --block X[,Y,Z] (positive integers)");
    if (!cluster.empty() && !parse_dim3(cluster, c)) return usage_error("--cluster takes X[,Y,Z] (positive integers)");
    auto spec = build_spec(spec_args);
    if (!spec) return fail(spec.error());
    kernel = jit::custom_export(std::move(*spec), b, c, smem);
  }
  if (!kernel) return fail(kernel.error());
  auto written = jit::export_kernel(*kernel, options);
  if (!written) return fail(written.error());
  for (const auto& path : *written) std::printf("wrote %s\n", path.c_str());
  return 0;
}

}  // namespace cute_dsl::tools
