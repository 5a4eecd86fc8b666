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

}  // namespace cute_dsl::jit::detail
