// `cute-dsl jit compile`: instantiate a kernel template with NVRTC, without a GPU, and print
// what it costs (registers, shared and local memory, read from the CUBIN). Also `jit warmup`, and
// the dispatch to `jit export` (export_command.cpp), which shares the option parsing below.
#include "cli_number.hpp"
#include "commands.hpp"
#include "jit_cli.hpp"

#include "cute_dsl/jit/dump.hpp"
#include "cute_dsl/jit/jit.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

namespace cute_dsl::tools {

namespace {

void usage(std::FILE* out) {
  std::fprintf(out,
               "usage: cute-dsl jit compile --header FILE --kernel NAME [--targs 'A, B, ...'] [options]\n"
               "       cute-dsl jit compile --source FILE --kernel NAME [--targs ...] [options]\n"
               "\n"
               "  --header FILE     header that defines the kernel template (read from disk; a library header\n"
               "                    such as cute_dsl/kernels/gemm_sm90.hpp is taken from the JIT's own copy)\n"
               "  --source FILE     a whole source file instead of a header\n"
               "  --include FILE    another header the first one includes by its file name (repeatable)\n"
               "  --kernel NAME     the kernel template, possibly qualified (ns::scale)\n"
               "  --targs TEXT      template arguments: element types (f16 bf16 f32 f64 i8..i64 u8..u64\n"
               "                    f8e4m3 f8e5m2), integers, true/false, layouts ('(4,2):(1,4)'), type:<C++>\n"
               "  --arch ARCH       sm_80, sm_90a, sm_100a, ... (default: CUTE_DSL_ARCH, else the GPU)\n"
               "  --ptx             emit PTX instead of CUBIN\n"
               "  -O N              optimisation level 0..3 (default 3)\n"
               "  --define NAME[=V] a preprocessor definition (repeatable)\n"
               "  --line-info --fast-math --device-asserts --max-registers N (0..255, 0: no cap)\n"
               "  --no-lto          no link-time optimisation (CUBIN straight from NVRTC)\n"
               "  --link FILE       a device library to link: LTO-IR, CUBIN, fatbin, PTX, nvcc -dc object, .a\n"
               "  --hook HOOK       a check or transform at a stage (repeatable; docs/07_jit_hooks.md):\n"
               "                    forbid-local-memory, max-registers=N, max-shared=BYTES,\n"
               "                    min-blocks-per-sm=N[,threads=T] (each [,warn]: warn, do not reject),\n"
               "                    prepend-file=PATH\n"
               "  --dump DIR        write the generated source, the binary and a JSON report to DIR\n"
               "  --json            print the result as one JSON object instead of text\n");
}

}  // namespace

const char* next_value(std::span<char* const> args, std::size_t& i) {
  if (i + 1 >= args.size()) {
    std::fprintf(stderr, "ERROR: %s needs a value\n", args[i]);
    std::exit(2);
  }
  return args[++i];
}

long long next_integer(std::span<char* const> args, std::size_t& i, long long min, long long max) {
  const char* option = args[i];
  const char* text = next_value(args, i);
  const auto value = parse_integer(text, min, max);
  if (!value) {
    std::fputs(integer_error(option, text, min, max).c_str(), stderr);
    std::exit(2);
  }
  return *value;
}

bool parse_code_option(const std::string& a, std::span<char* const> args, std::size_t& i, jit::CompileOptions& o) {
  if (a == "--arch") o.arch = next_value(args, i);
  else if (a == "--ptx") o.output = jit::OutputKind::ptx;
  else if (a == "-O") o.opt_level = static_cast<int>(next_integer(args, i, 0, 3));
  else if (a == "--define") o.defines.push_back(next_value(args, i));
  else if (a == "--line-info") o.line_info = true;
  else if (a == "--fast-math") o.fast_math = true;
  else if (a == "--device-asserts") o.device_asserts = true;
  else if (a == "--max-registers") o.max_registers = static_cast<int>(next_integer(args, i, 0, 255));
  else if (a == "--no-lto") o.lto = false;
  else if (a == "--hook") {
    auto hook = jit::parse_hook(next_value(args, i));
    if (!hook) {
      std::fprintf(stderr, "ERROR: %s", hook.error().describe().c_str());
      std::exit(2);
    }
    o.hooks.push_back(std::move(hook).value());
  }
  else if (a == "--link") {
    auto lib = jit::DeviceLibrary::from_file(next_value(args, i));
    if (!lib) {
      std::fprintf(stderr, "ERROR: %s", lib.error().describe().c_str());
      std::exit(2);
    }
    o.device_libraries.push_back(std::move(lib).value());
  }
  else return false;
  return true;
}

bool parse_spec_option(const std::string& a, std::span<char* const> args, std::size_t& i, SpecArguments& s) {
  if (a == "--header") s.header_path = next_value(args, i);
  else if (a == "--source") s.source_path = next_value(args, i);
  else if (a == "--include") s.includes.push_back(next_value(args, i));
  else if (a == "--kernel") s.kernel = next_value(args, i);
  else if (a == "--targs") s.targs = next_value(args, i);
  else return false;
  return true;
}

jit::Expected<jit::KernelSpec, jit::JitError> build_spec(const SpecArguments& s) {
  jit::KernelSpec spec;
  spec.kernel = s.kernel;
  for (const auto& path : s.includes) {
    auto h = jit::load_header_file(path);
    if (!h) return jit::unexpected(h.error());
    spec.headers.push_back(std::move(*h));
  }
  if (!s.header_path.empty() && s.header_path.starts_with("cute_dsl/") && !std::filesystem::exists(s.header_path)) {
    spec.header = s.header_path;  // one of the library's headers, embedded in the JIT: found by this name
  } else if (!s.header_path.empty()) {
    auto h = jit::load_header_file(s.header_path);
    if (!h) return jit::unexpected(h.error());
    spec.header = h->name;
    spec.headers.push_back(std::move(*h));
  } else {
    auto src = jit::load_header_file(s.source_path);
    if (!src) return jit::unexpected(src.error());
    spec.source = std::move(src->contents);
    spec.source_name = s.source_path;
  }
  auto parsed = jit::parse_template_args(s.targs);
  if (!parsed) return jit::unexpected(parsed.error());
  spec.template_args = std::move(*parsed);
  return spec;
}

namespace {

void warmup_usage(std::FILE* out) {
  std::fprintf(out,
               "usage: cute-dsl jit warmup --list FILE [--arch ARCH] [--workers N] [--threads] [options]\n"
               "\n"
               "Compiles every kernel of FILE into the disk cache, several processes at once. FILE has one\n"
               "kernel per line, three fields separated by '|':\n"
               "    HEADER | KERNEL | TEMPLATE ARGUMENTS\n"
               "e.g. 'kernels/elementwise.cuh | my_ns::scale | f32, (4,8):(8,1), 128'. HEADER is read from\n"
               "disk (relative to FILE's folder); the arguments use --targs' syntax; '#' starts a comment.\n"
               "\n"
               "  --workers N       worker processes, 1..1024 (default: the number of CPUs)\n"
               "  --threads         threads of this process instead of worker processes\n"
               "  --include FILE    another header the kernels include by file name (repeatable)\n"
               "  --arch, -O, --define, --ptx, --line-info, --fast-math, --device-asserts,\n"
               "  --max-registers: as for `jit compile`\n"
               "Exit status: 0 when every kernel compiled, 1 when one failed (each failure is printed).\n");
}

std::string trimmed(std::string s) {
  const auto b = s.find_first_not_of(" \t\r");
  const auto e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

int warmup_main(std::span<char* const> args) {
  jit::CompileOptions options;
  jit::WarmupOptions warmup;
  std::string list_path;
  std::vector<std::string> includes;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string a = args[i];
    auto value = [&] { return next_value(args, i); };
    if (a == "--help" || a == "-h") { warmup_usage(stdout); return 0; }
    else if (a == "--list") list_path = value();
    else if (a == "--workers") warmup.workers = static_cast<int>(next_integer(args, i, 1, 1024));
    else if (a == "--threads") warmup.use_processes = false;
    else if (a == "--include") includes.push_back(value());
    else if (!parse_code_option(a, args, i, options)) {
      std::fprintf(stderr, "ERROR: unknown argument '%s'\n\n", a.c_str());
      warmup_usage(stderr);
      return 2;
    }
  }
  if (list_path.empty()) {
    warmup_usage(stderr);
    return 2;
  }
  auto fail = [](const jit::JitError& e) {
    std::fprintf(stderr, "ERROR: %s", e.describe().c_str());
    return 1;
  };
  auto list_file = jit::load_header_file(list_path);  // any text file
  if (!list_file) return fail(list_file.error());
  const std::string list = std::move(list_file->contents);
  const auto slash = list_path.find_last_of('/');
  const std::string base = slash == std::string::npos ? std::string() : list_path.substr(0, slash + 1);
  std::vector<jit::InMemoryHeader> extra;
  for (const auto& path : includes) {
    auto h = jit::load_header_file(path);
    if (!h) return fail(h.error());
    extra.push_back(std::move(*h));
  }
  std::vector<jit::KernelSpec> specs;
  std::size_t line_number = 0;
  for (std::size_t at = 0; at < list.size();) {
    const auto end = std::min(list.find('\n', at), list.size());
    std::string line = list.substr(at, end - at);
    at = end + 1;
    ++line_number;
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    if (trimmed(line).empty()) continue;
    const auto bar1 = line.find('|'), bar2 = line.find('|', bar1 == std::string::npos ? bar1 : bar1 + 1);
    if (bar1 == std::string::npos || bar2 == std::string::npos) {
      std::fprintf(stderr, "ERROR: %s:%zu: expected 'HEADER | KERNEL | TEMPLATE ARGUMENTS'\n", list_path.c_str(), line_number);
      return 2;
    }
    std::string header = trimmed(line.substr(0, bar1));
    if (!header.empty() && header[0] != '/') header = base + header;
    auto h = jit::load_header_file(header);
    if (!h) return fail(h.error());
    auto targs = jit::parse_template_args(trimmed(line.substr(bar2 + 1)));
    if (!targs) return fail(targs.error());
    jit::KernelSpec spec;
    spec.header = h->name;
    spec.headers = extra;
    spec.headers.push_back(std::move(*h));
    spec.kernel = trimmed(line.substr(bar1 + 1, bar2 - bar1 - 1));
    spec.template_args = std::move(*targs);
    specs.push_back(std::move(spec));
  }
  // The progress and how it ran, unless the user turned logging off.
  if (jit::log_level() != jit::LogLevel::off) jit::set_log_level(std::max(jit::log_level(), jit::LogLevel::info));
  const auto results = jit::warmup(specs, options, warmup);
  int failed = 0;
  for (std::size_t i = 0; i < results.size(); ++i)
    if (!results[i].kernel) {
      ++failed;
      std::fprintf(stderr, "ERROR: %s:\n%s", specs[i].name_expression().c_str(), results[i].kernel.error().describe().c_str());
    }
  std::printf("warmed up:  %zu of %zu kernels\n", results.size() - failed, results.size());
  return failed ? 1 : 0;
}

int compile_main(std::span<char* const> args) {
  SpecArguments spec_args;
  jit::CompileOptions options;
  std::string dump_dir;
  bool json = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string a = args[i];
    if (a == "--help" || a == "-h") { usage(stdout); return 0; }
    else if (a == "--dump") dump_dir = next_value(args, i);
    else if (a == "--json") json = true;
    else if (!parse_spec_option(a, args, i, spec_args) && !parse_code_option(a, args, i, options)) {
      std::fprintf(stderr, "ERROR: unknown argument '%s'\n\n", a.c_str());
      usage(stderr);
      return 2;
    }
  }
  if (spec_args.kernel.empty() || spec_args.header_path.empty() == spec_args.source_path.empty()) {
    std::fprintf(stderr, "ERROR: give --kernel and exactly one of --header and --source\n\n");
    usage(stderr);
    return 2;
  }
  auto built = build_spec(spec_args);
  if (!built) {
    std::fprintf(stderr, "ERROR: %s", built.error().describe().c_str());
    return 1;
  }
  return compile_and_report(*built, std::move(options), dump_dir, json);
}

}  // namespace

int compile_and_report(const jit::KernelSpec& spec, jit::CompileOptions options, const std::string& dump_dir, bool json) {
  auto fail = [](const jit::JitError& e) {
    std::fprintf(stderr, "ERROR: %s", e.describe().c_str());
    return 1;
  };
  // The dump observes this compile (its source and PTX are the compile's own, never made again).
  if (!dump_dir.empty()) options.dump = jit::DumpOptions{dump_dir, jit::keep_all};
  jit::CompileReport report;
  auto kernel = jit::compile(spec, options, &report);
  if (!kernel) return fail(kernel.error());
  const jit::CompiledKernel& k = **kernel;

  std::optional<jit::ResourceUsage> usage;
  if (k.output == jit::OutputKind::cubin) {
    auto u = jit::read_resource_usage(k.binary, k.lowered_name);
    if (!u) return fail(u.error());
    usage = *u;
  }
  const std::string& dumped = report.dumped;
  if (!dump_dir.empty() && dumped.empty())
    return fail(jit::JitError{jit::JitErrorKind::io, "cannot write the dump of " + k.name_expression + " to " + dump_dir,
                              {}, {}, "check that --dump names a writable folder"});
  const char* output = k.output == jit::OutputKind::cubin ? "cubin" : "ptx";

  if (json) {
    std::printf("{\"kernel\": %s, \"symbol\": %s, \"arch\": %s, \"key\": \"%s\", \"cache\": \"%s\",\n"
                " \"nvrtc_seconds\": %.6f, \"link_seconds\": %.6f, \"total_seconds\": %.6f, \"output\": \"%s\", \"bytes\": %zu",
                jit::json_string(k.name_expression).c_str(), jit::json_string(k.lowered_name).c_str(),
                jit::json_string(k.arch).c_str(), k.key.hex().c_str(), std::string(jit::to_string(report.outcome)).c_str(),
                report.nvrtc_seconds, report.link_seconds, report.total_seconds, output, k.binary.size());
    if (usage)
      std::printf(",\n \"resources\": {\"registers\": %d, \"shared_bytes\": %lld, \"local_bytes\": %lld, \"max_threads\": %d}",
                  usage->registers, usage->shared_bytes, usage->local_bytes, usage->max_threads);
    std::printf(",\n \"log\": %s, \"dumped\": %s}\n", jit::json_string(k.log).c_str(),
                dumped.empty() ? "null" : jit::json_string(dumped).c_str());
    return 0;
  }
  std::printf("kernel:     %s\n", k.name_expression.c_str());
  std::printf("symbol:     %s\n", k.lowered_name.c_str());
  std::printf("arch:       %s\n", k.arch.c_str());
  std::printf("key:        %s\n", k.key.hex().c_str());
  if (report.outcome == jit::CacheOutcome::miss)
    std::printf("cache:      miss (nvrtc %.3f s, link %.3f s, total %.3f s)\n", report.nvrtc_seconds,
                report.link_seconds, report.total_seconds);
  else
    std::printf("cache:      %s (%.6f s)\n", std::string(jit::to_string(report.outcome)).c_str(), report.total_seconds);
  std::printf("%-11s %zu bytes\n", (std::string(output) + ":").c_str(), k.binary.size());
  if (usage) {
    std::printf("registers:  %d\n", usage->registers);
    std::printf("shared:     %lld bytes (static; on sm_90+ with the 1 KiB reserved per block)\n", usage->shared_bytes);
    std::printf("local:      %lld bytes per thread%s\n", usage->local_bytes,
                usage->local_bytes > 0 ? " (stack: spills or local arrays)" : "");
    if (usage->max_threads > 0) std::printf("max threads: %d (__launch_bounds__)\n", usage->max_threads);
  }
  if (!k.log.empty()) std::printf("nvrtc log:\n%s\n", k.log.c_str());
  if (!dumped.empty())
    std::printf("dumped:     %s.* (see its .json; SASS %s)\n", dumped.c_str(),
                jit::sass_tool().empty() ? "skipped: no cuobjdump or nvdisasm found" : "included");
  return 0;
}

bool parse_gemm_option(const std::string& a, std::span<char* const> args, std::size_t& i, jit::GemmSm90Types& types,
                       jit::GemmSm90Config& config, bool& ok) {
  auto major = [&](const char* text) {
    const std::string t = text;
    if (t == "k") return jit::GemmMajor::k;
    if (t == "mn") return jit::GemmMajor::mn;
    std::fprintf(stderr, "ERROR: %s is k or mn, not '%s'\n", a.c_str(), text);
    ok = false;
    return jit::GemmMajor::k;
  };
  if (a == "--a" || a == "--d") {
    auto t = jit::parse_element_type(next_value(args, i));
    if (!t) {
      std::fprintf(stderr, "ERROR: %s", t.error().describe().c_str());
      ok = false;
    } else {
      (a == "--a" ? types.a : types.d) = *t;
    }
  } else if (a == "--a-major") types.a_major = major(next_value(args, i));
  else if (a == "--b-major") types.b_major = major(next_value(args, i));
  else if (a == "--tile-m") config.tile_m = static_cast<int>(next_integer(args, i, 1, 1024));
  else if (a == "--tile-n") config.tile_n = static_cast<int>(next_integer(args, i, 1, 1024));
  else if (a == "--stages") config.stages = static_cast<int>(next_integer(args, i, 1, 64));
  else if (a == "--cluster-m") config.cluster_m = static_cast<int>(next_integer(args, i, 1, 16));
  else if (a == "--ping-pong") config.ping_pong = true;
  else if (a == "--whole-tiles") config.edge_tiles = false;
  else return false;
  return true;
}

int jit_command(std::span<char* const> args) {
  if (args.empty() || std::string_view(args[0]) == "--help" || std::string_view(args[0]) == "-h") {
    std::FILE* out = args.empty() ? stderr : stdout;
    usage(out);
    std::fputc('\n', out);
    warmup_usage(out);
    std::fputc('\n', out);
    export_usage(out);
    std::fputc('\n', out);
    epilogue_usage(out);
    return args.empty() ? 2 : 0;
  }
  if (std::string_view(args[0]) == "compile") return compile_main(args.subspan(1));
  if (std::string_view(args[0]) == "warmup") return warmup_main(args.subspan(1));
  if (std::string_view(args[0]) == "export") return export_main(args.subspan(1));
  if (std::string_view(args[0]) == "epilogue") return epilogue_main(args.subspan(1));
  std::fprintf(stderr, "ERROR: unknown jit subcommand '%s' (`compile`, `warmup`, `export` or `epilogue`)\n", args[0]);
  return 2;
}

}  // namespace cute_dsl::tools
