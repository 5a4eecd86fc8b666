#include "env.hpp"

#include "cute_dsl/jit/log.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <string>
#include <system_error>

namespace cute_dsl::jit::detail {

bool env_bool(const char* name, bool fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  std::string s(v);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  if (s == "1" || s == "true" || s == "yes" || s == "on") return true;
  if (s == "0" || s == "false" || s == "no" || s == "off") return false;
  log(LogLevel::warn, std::string(name) + "='" + v + "' is not 1/true/yes/on or 0/false/no/off; ignored");
  return fallback;
}

std::optional<std::uint64_t> env_bytes(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return std::nullopt;
  const std::string_view s(v);
  std::uint64_t n = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (error == std::errc() && end == s.data() + s.size()) return n;
  log(LogLevel::warn, std::string(name) + "='" + v + "' is not a byte count (decimal digits, below 2^64); ignored");
  return std::nullopt;
}

std::string env_string(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

Environment read_environment() {
  Environment e;
  if (std::string d = env_string("CUTE_DSL_CACHE_DIR"); !d.empty()) e.cache_dir = std::move(d);
  else if (std::string x = env_string("XDG_CACHE_HOME"); !x.empty()) e.cache_dir = x + "/cute_dsl";
  else if (std::string h = env_string("HOME"); !h.empty()) e.cache_dir = h + "/.cache/cute_dsl";
  e.disable_file_cache = env_bool("CUTE_DSL_DISABLE_FILE_CACHE");
  e.cache_max_bytes = env_bytes("CUTE_DSL_CACHE_MAX_BYTES");
  e.dump.dir = env_string("CUTE_DSL_DUMP_DIR");
  if (const std::string keep = env_string("CUTE_DSL_KEEP"); !keep.empty() && !e.dump.dir.empty()) {
    if (auto bits = parse_keep(keep)) e.dump.keep = *bits;
    else log(LogLevel::warn, bits.error().message + "; keeping everything");
  }
  e.print_source = env_bool("CUTE_DSL_PRINT_SOURCE");
  e.time_profiling = env_bool("CUTE_DSL_JIT_TIME_PROFILING");
  e.cuda_home = env_string("CUDA_HOME");
  e.cuda_path = env_string("CUDA_PATH");
  return e;
}

}  // namespace cute_dsl::jit::detail
