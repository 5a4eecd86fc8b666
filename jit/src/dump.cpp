#include "cute_dsl/jit/dump.hpp"

#include "cute_dsl/jit/log.hpp"

#include "process.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>

namespace cute_dsl::jit {

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

namespace {

namespace fs = std::filesystem;

// Letters and digits kept, every other run of characters becomes one '_'; at most 64 characters.
std::string sanitize(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c))) out.push_back(c);
    else if (out.empty() || out.back() != '_') out.push_back('_');
    if (out.size() == 64) break;
  }
  return out;
}

std::string json_list(const std::vector<std::string>& v) {
  std::string out = "[";
  for (const auto& s : v) out += (out.size() > 1 ? ", " : "") + json_string(s);
  return out + "]";
}

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", s);
  return buf;
}

bool write_file(const fs::path& p, std::string_view bytes) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(f);
}

std::string_view cache_word(CacheOutcome o) {
  switch (o) {
    case CacheOutcome::memory_hit: return "memory";
    case CacheOutcome::disk_hit: return "disk";
    case CacheOutcome::miss: return "compiled";
  }
  return "?";
}

std::string options_json(const CompileOptions& o) {
  return std::string("{\"arch\": ") + json_string(o.arch) + ", \"opt_level\": " + std::to_string(o.opt_level) +
         ", \"line_info\": " + (o.line_info ? "true" : "false") + ", \"device_asserts\": " +
         (o.device_asserts ? "true" : "false") + ", \"fast_math\": " + (o.fast_math ? "true" : "false") +
         ", \"max_registers\": " + std::to_string(o.max_registers) + ", \"defines\": " + json_list(o.defines) +
         ", \"extra_options\": " + json_list(o.extra_options) + ", \"output\": \"" +
         (o.output == OutputKind::cubin ? "cubin" : "ptx") + "\", \"lto\": " + (o.lto ? "true" : "false") +
         ", \"device_libraries\": " + std::to_string(o.device_libraries.size()) + "}";
}

}  // namespace

Expected<unsigned, JitError> parse_keep(std::string_view text) {
  unsigned bits = 0;
  while (!text.empty()) {
    const auto comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item == "source") bits |= keep_source;
    else if (item == "ptx") bits |= keep_ptx;
    else if (item == "cubin") bits |= keep_cubin;
    else if (item == "sass") bits |= keep_sass;
    else if (item == "all") bits |= keep_all;
    else if (item != "none" && !item.empty())
      return unexpected(JitError{JitErrorKind::invalid_option,
                                 "CUTE_DSL_KEEP item '" + std::string(item) + "' is not one of source, ptx, cubin, sass, all, none",
                                 {}, {}, {}});
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return bits;
}

const std::string& sass_tool() {
  static const std::string tool = [] {
    std::string t = detail::find_program("cuobjdump");
    if (t.empty()) t = detail::find_program("nvdisasm");
    return t;
  }();
  return tool;
}

Expected<std::string, JitError> dump_artifacts(const KernelSpec& spec, const CompileOptions& options,
                                               const CompiledKernel& k, const CompileReport& report,
                                               const DumpOptions& d) {
  std::error_code ec;
  fs::create_directories(d.dir, ec);
  const std::string base = (fs::path(d.dir) / (sanitize(k.name_expression) + "." + k.key.hex().substr(0, 8))).string();
  const bool cubin = k.output == OutputKind::cubin;
  auto io_error = [&](const std::string& what) {
    return JitError{JitErrorKind::io, "cannot write " + what + " of " + k.name_expression + " to " + d.dir, {}, {},
                    "check that CUTE_DSL_DUMP_DIR (or DumpOptions::dir, or --dump) names a writable folder"};
  };
  std::vector<std::string> files, notes;
  auto keep = [&](const std::string& suffix, std::string_view bytes) {
    if (!write_file(base + suffix, bytes)) return false;
    files.push_back(fs::path(base + suffix).filename().string());
    return true;
  };

  // The source NVRTC compiled (after source hooks); a memory hit has none of its own: the
  // generated source, before hooks.
  if ((d.keep & keep_source) && !keep(".cu", report.source.empty() ? generate_source(spec) : report.source))
    return unexpected(io_error("the source"));
  // The PTX the stages made (never a compile of its own); a cache hit holds the binary only.
  const std::string_view ptx = !report.ptx.empty() ? std::string_view(report.ptx)
                               : k.output == OutputKind::ptx ? std::string_view(k.binary) : std::string_view();
  if (d.keep & keep_ptx) {
    if (!ptx.empty()) {
      if (!keep(".ptx", ptx)) return unexpected(io_error("the PTX"));
    } else {
      notes.push_back(std::string("no PTX: ") + (report.outcome == CacheOutcome::miss
                                                     ? "this compile made none (ask for it with keep_ptx)"
                                                     : "a cache hit keeps the CUBIN only; the PTX is written when the kernel is compiled"));
    }
  }
  if (cubin && (d.keep & keep_cubin) && !keep(".cubin", k.binary)) return unexpected(io_error("the CUBIN"));
  std::string sass_with = "none";
  if (cubin && (d.keep & keep_sass)) {
    if (sass_tool().empty()) {
      notes.push_back("no SASS: neither cuobjdump nor nvdisasm was found (PATH, CUDA_HOME/bin, CUDA_PATH/bin, "
                      "the build's toolkit)");
      static std::once_flag said;
      std::call_once(said, [&] { log(LogLevel::warn, notes.back()); });
    } else {
      // The disassemblers read files: the kept CUBIN, or a temporary copy.
      const bool temporary = !(d.keep & keep_cubin);
      const std::string cubin_path = base + (temporary ? ".cubin.tmp" : ".cubin");
      if (temporary && !write_file(cubin_path, k.binary)) return unexpected(io_error("the CUBIN for SASS"));
      const bool objdump = fs::path(sass_tool()).filename() == "cuobjdump";
      const std::vector<std::string> argv = objdump ? std::vector<std::string>{sass_tool(), "-sass", cubin_path}
                                                    : std::vector<std::string>{sass_tool(), cubin_path};
      const int status = detail::run_program(argv, base + ".sass");
      if (temporary) fs::remove(cubin_path, ec);
      if (status == 0) {
        files.push_back(fs::path(base + ".sass").filename().string());
        sass_with = sass_tool();
      } else {
        fs::remove(base + ".sass", ec);
        notes.push_back("no SASS: " + sass_tool() + " failed (status " + std::to_string(status) + ")");
      }
    }
  }

  std::string json = "{\n  \"name\": " + json_string(k.name_expression) + ",\n  \"lowered_name\": " +
                     json_string(k.lowered_name) + ",\n  \"kernel\": " + json_string(spec.kernel) +
                     ",\n  \"arch\": " + json_string(k.arch) + ",\n  \"key\": \"" + k.key.hex() +
                     "\",\n  \"output\": \"" + (cubin ? "cubin" : "ptx") + "\",\n  \"options\": " +
                     options_json(options) + ",\n  \"cache\": \"" + std::string(cache_word(report.outcome)) +
                     "\",\n  \"stages_seconds\": {\"source_generation\": " + seconds(report.source_seconds) +
                     ", \"cache_lookup\": " + seconds(report.cache_lookup_seconds) +
                     ", \"nvrtc_compile\": " + seconds(report.nvrtc_seconds) +
                     ", \"link\": " + seconds(report.link_seconds) +
                     ", \"front_end\": " + seconds(report.nvrtc_seconds) +
                     ", \"back_end\": " + seconds(report.link_seconds) +
                     ", \"back_end_ptx\": " + seconds(report.ptx_seconds) +
                     ", \"disk_write\": " + seconds(report.disk_write_seconds) +
                     ", \"total\": " + seconds(report.total_seconds) + "}";
  if (cubin)
    if (auto u = read_resource_usage(k.binary, k.lowered_name))
      json += ",\n  \"resources\": {\"registers\": " + std::to_string(u->registers) +
              ", \"shared_bytes\": " + std::to_string(u->shared_bytes) +
              ", \"local_bytes\": " + std::to_string(u->local_bytes) +
              ", \"spills\": " + (u->local_bytes > 0 ? "true" : "false") +
              ", \"max_threads\": " + std::to_string(u->max_threads) + "}";
  json += ",\n  \"sass_tool\": " + json_string(sass_with) + ",\n  \"files\": " + json_list(files) +
          ",\n  \"notes\": " + json_list(notes) + "\n}\n";
  if (!write_file(base + ".json", json)) return unexpected(io_error("the JSON report"));
  return base;
}

Expected<std::string, JitError> dump_artifacts(const KernelSpec& spec, const CompiledKernel& kernel,
                                               const CompileReport& report, const std::string& dir) {
  CompileOptions options;
  options.arch = kernel.arch;
  options.output = kernel.output;
  return dump_artifacts(spec, options, kernel, report, DumpOptions{dir, keep_all});
}

namespace detail {

void observe_compile(const KernelSpec& spec, const CompileOptions& options, const CompiledKernel& k,
                     CompileReport& report, const DumpOptions& dump, bool time_profiling) {
  if (!dump.dir.empty()) {
    if (auto written = dump_artifacts(spec, options, k, report, dump)) {
      report.dumped = *written;
      log(LogLevel::debug, "dumped " + k.name_expression + " to " + *written + ".*");
    } else {
      log(LogLevel::warn, written.error().describe());
    }
  }
  if (!time_profiling || report.outcome == CacheOutcome::memory_hit) return;
  char line[640];
  std::snprintf(line, sizeof line,
                "time %s for %s (%s): source %.4f s, disk lookup %.4f s, front end: nvrtc %.4f s, "
                "back end: nvJitLink LTO + ptxas and hooks %.4f s, disk write %.4f s, total %.4f s",
                k.name_expression.c_str(), k.arch.c_str(), std::string(cache_word(report.outcome)).c_str(),
                report.source_seconds, report.cache_lookup_seconds, report.nvrtc_seconds, report.link_seconds,
                report.disk_write_seconds, report.total_seconds);
  log_requested(LogLevel::info, line);
}

JitError observe_failure(JitError e, const CompileRequest& request, const DumpOptions& dump) {
  if (dump.dir.empty() || e.kind != JitErrorKind::compile) return e;
  std::error_code ec;
  fs::create_directories(dump.dir, ec);
  const std::string path =
      (fs::path(dump.dir) / (sanitize(request.name_expression) + "." + request.key.hex().substr(0, 8) + ".cu")).string();
  if (!write_file(path, request.source)) return e;
  if (!e.log.empty() && e.log.back() != '\n') e.log += '\n';
  e.log += "generated source: " + path + "\n";
  return e;
}

}  // namespace detail

}  // namespace cute_dsl::jit
