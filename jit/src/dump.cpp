#include "cute_dsl/jit/dump.hpp"

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace cute_dsl::jit {

namespace {

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

std::string json_escape(std::string_view s) {
  std::string out;
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
  return out;
}

bool write_file(const std::filesystem::path& p, std::string_view bytes) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(f);
}

}  // namespace

Expected<std::string, JitError> dump_artifacts(const KernelSpec& spec, const CompiledKernel& k,
                                               const CompileReport& report, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  const std::string base = (fs::path(dir) / (sanitize(k.name_expression) + "." + k.key.hex().substr(0, 8))).string();
  const bool cubin = k.output == OutputKind::cubin;
  std::string json = "{\n  \"name\": \"" + json_escape(k.name_expression) + "\",\n  \"lowered_name\": \"" +
                     json_escape(k.lowered_name) + "\",\n  \"arch\": \"" + k.arch + "\",\n  \"key\": \"" + k.key.hex() +
                     "\",\n  \"output\": \"" + (cubin ? "cubin" : "ptx") + "\",\n  \"cache\": \"" +
                     std::string(to_string(report.outcome)) + "\",\n  \"nvrtc_seconds\": " +
                     std::to_string(report.nvrtc_seconds) + ",\n  \"total_seconds\": " +
                     std::to_string(report.total_seconds);
  if (cubin)
    if (auto u = read_resource_usage(k.binary, k.lowered_name))
      json += ",\n  \"registers\": " + std::to_string(u->registers) + ",\n  \"shared_bytes\": " +
              std::to_string(u->shared_bytes) + ",\n  \"local_bytes\": " + std::to_string(u->local_bytes) +
              ",\n  \"max_threads\": " + std::to_string(u->max_threads);
  json += "\n}\n";
  if (!write_file(base + ".cu", generate_source(spec)) || !write_file(base + (cubin ? ".cubin" : ".ptx"), k.binary) ||
      !write_file(base + ".json", json))
    return unexpected(JitError{JitErrorKind::io, "cannot write the artifacts of " + k.name_expression + " to " + dir,
                               {}, {}, "check that CUTE_DSL_DUMP_DIR (or --dump) names a writable folder"});
  return base;
}

}  // namespace cute_dsl::jit
