// Reading the JIT's environment variables strictly (docs/env.md): a value that is not one of the
// spellings a variable takes is a warning in the log and the default, never a silent guess.
#pragma once

#include <cstdint>
#include <optional>

namespace cute_dsl::jit::detail {

// A boolean variable: 1/true/yes/on and 0/false/no/off (any case); unset or empty: `fallback`;
// anything else: a warning and `fallback`.
bool env_bool(const char* name, bool fallback = false);

// A byte count: decimal digits only, within 64 bits; unset or empty: nothing; anything else
// ("-1", "4G", an overflow): a warning and nothing.
std::optional<std::uint64_t> env_bytes(const char* name);

}  // namespace cute_dsl::jit::detail
