// `cute-dsl jit compile`: instantiate a kernel template with NVRTC, without a GPU, and print
// what it costs (registers, shared and local memory, read from the CUBIN).
#include "commands.hpp"

#include "cute_dsl/jit/dump.hpp"
#include "cute_dsl/jit/jit.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace cute_dsl::tools {

namespace {

void usage(std::FILE* out) {
  std::fprintf(out,
               "usage: cute-dsl jit compile --header FILE --kernel NAME [--targs 'A, B, ...'] [options]\n"
               "       cute-dsl jit compile --source FILE --kernel NAME [--targs ...] [options]\n"
               "\n"
               "  --header FILE     header that defines the kernel template (read from disk)\n"
               "  --source FILE     a whole source file instead of a header\n"
               "  --include FILE    another header the first one includes by its file name (repeatable)\n"
               "  --kernel NAME     the kernel template, possibly qualified (ns::scale)\n"
               "  --targs TEXT      template arguments: element types (f16 bf16 f32 f64 i8..i64 u8..u64\n"
               "                    f8e4m3 f8e5m2), integers, true/false, layouts ('(4,2):(1,4)'), type:<C++>\n"
               "  --arch ARCH       sm_80, sm_90a, sm_100a, ... (default: CUTE_DSL_ARCH, else the GPU)\n"
               "  --ptx             emit PTX instead of CUBIN\n"
               "  -O N              optimisation level 0..3 (default 3)\n"
               "  --define NAME[=V] a preprocessor definition (repeatable)\n"
               "  --line-info --fast-math --device-asserts --max-registers N\n"
               "  --dump DIR        write the generated source, the binary and a JSON report to DIR\n");
}

int compile_main(std::span<char* const> args) {
  jit::KernelSpec spec;
  jit::CompileOptions options;
  std::string header_path, source_path, targs, dump_dir;
  std::vector<std::string> includes;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string a = args[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "ERROR: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return args[++i];
    };
    if (a == "--help" || a == "-h") { usage(stdout); return 0; }
    else if (a == "--header") header_path = value();
    else if (a == "--source") source_path = value();
    else if (a == "--include") includes.push_back(value());
    else if (a == "--kernel") spec.kernel = value();
    else if (a == "--targs") targs = value();
    else if (a == "--arch") options.arch = value();
    else if (a == "--ptx") options.output = jit::OutputKind::ptx;
    else if (a == "-O") options.opt_level = std::atoi(value());
    else if (a == "--define") options.defines.push_back(value());
    else if (a == "--line-info") options.line_info = true;
    else if (a == "--fast-math") options.fast_math = true;
    else if (a == "--device-asserts") options.device_asserts = true;
    else if (a == "--max-registers") options.max_registers = std::atoi(value());
    else if (a == "--dump") dump_dir = value();
    else {
      std::fprintf(stderr, "ERROR: unknown argument '%s'\n\n", a.c_str());
      usage(stderr);
      return 2;
    }
  }
  if (spec.kernel.empty() || header_path.empty() == source_path.empty()) {
    std::fprintf(stderr, "ERROR: give --kernel and exactly one of --header and --source\n\n");
    usage(stderr);
    return 2;
  }
  auto fail = [](const jit::JitError& e) {
    std::fprintf(stderr, "ERROR: %s", e.describe().c_str());
    return 1;
  };
  for (const auto& path : includes) {
    auto h = jit::load_header_file(path);
    if (!h) return fail(h.error());
    spec.headers.push_back(std::move(*h));
  }
  if (!header_path.empty()) {
    auto h = jit::load_header_file(header_path);
    if (!h) return fail(h.error());
    spec.header = h->name;
    spec.headers.push_back(std::move(*h));
  } else {
    auto s = jit::load_header_file(source_path);
    if (!s) return fail(s.error());
    spec.source = std::move(s->contents);
    spec.source_name = source_path;
  }
  auto parsed = jit::parse_template_args(targs);
  if (!parsed) return fail(parsed.error());
  spec.template_args = std::move(*parsed);

  jit::CompileReport report;
  auto kernel = jit::compile(spec, options, &report);
  if (!kernel) return fail(kernel.error());
  const jit::CompiledKernel& k = **kernel;

  std::printf("kernel:     %s\n", k.name_expression.c_str());
  std::printf("symbol:     %s\n", k.lowered_name.c_str());
  std::printf("arch:       %s\n", k.arch.c_str());
  std::printf("key:        %s\n", k.key.hex().c_str());
  if (report.outcome == jit::CacheOutcome::miss)
    std::printf("cache:      miss (nvrtc %.3f s, total %.3f s)\n", report.nvrtc_seconds, report.total_seconds);
  else
    std::printf("cache:      %s (%.6f s)\n", std::string(jit::to_string(report.outcome)).c_str(), report.total_seconds);
  std::printf("%-11s %zu bytes\n", k.output == jit::OutputKind::cubin ? "cubin:" : "ptx:", k.binary.size());
  if (k.output == jit::OutputKind::cubin) {
    auto u = jit::read_resource_usage(k.binary, k.lowered_name);
    if (!u) return fail(u.error());
    const jit::ResourceUsage& usage = *u;
    std::printf("registers:  %d\n", usage.registers);
    std::printf("shared:     %lld bytes (static; on sm_90+ with the 1 KiB reserved per block)\n", usage.shared_bytes);
    std::printf("local:      %lld bytes per thread%s\n", usage.local_bytes, usage.local_bytes > 0 ? " (stack: spills or local arrays)" : "");
    if (usage.max_threads > 0) std::printf("max threads: %d (__launch_bounds__)\n", usage.max_threads);
  }
  if (!k.log.empty()) std::printf("nvrtc log:\n%s\n", k.log.c_str());

  if (!dump_dir.empty()) {
    auto base = jit::dump_artifacts(spec, k, report, dump_dir);
    if (!base) return fail(base.error());
    std::printf("dumped:     %s.{cu,%s,json}\n", base->c_str(), k.output == jit::OutputKind::cubin ? "cubin" : "ptx");
  }
  return 0;
}

}  // namespace

int jit_command(std::span<char* const> args) {
  if (args.empty() || std::string_view(args[0]) == "--help" || std::string_view(args[0]) == "-h") {
    usage(args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  if (std::string_view(args[0]) == "compile") return compile_main(args.subspan(1));
  std::fprintf(stderr, "ERROR: unknown jit subcommand '%s' (only `compile` exists)\n", args[0]);
  return 2;
}

}  // namespace cute_dsl::tools
