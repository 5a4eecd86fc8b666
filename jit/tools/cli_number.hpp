// Strict reading of the numbers that command-line options take (-O, --max-registers, --workers,
// --elements, --runs): the whole argument must be a decimal integer within the option's range.
// atoi() read "2x" as 2, "abc" as 0 and 99999999999 as whatever the overflow gave; this refuses
// them all, and the caller prints one ERROR line naming the option and the range.
#pragma once

#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace cute_dsl::tools {

// The integer `text` spells, when it is nothing but an optional '-' and decimal digits (no sign
// '+', no spaces, no suffix) and lies in [min, max]; nothing otherwise (overflow included).
inline std::optional<long long> parse_integer(std::string_view text, long long min, long long max) {
  long long value = 0;
  const char* const end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end || value < min || value > max) return std::nullopt;
  return value;
}

// "ERROR: -O needs an integer in 0..3, not '2x'\n"
inline std::string integer_error(std::string_view option, std::string_view text, long long min, long long max) {
  constexpr std::size_t shown = 40;  // the argument is echoed, but not a megabyte of it
  std::string echo(text.substr(0, shown));
  if (text.size() > shown) echo += "...";
  return "ERROR: " + std::string(option) + " needs an integer in " + std::to_string(min) + ".." +
         std::to_string(max) + ", not '" + echo + "'\n";
}

}  // namespace cute_dsl::tools
