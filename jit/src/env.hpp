// The JIT's environment variables (docs/env.md), read in one place. A compile past the memory
// level takes one Environment snapshot and hands it to every stage and observer (dump, report,
// timing): none of them calls getenv on its own, so one compile sees one consistent environment.
// Values are read strictly: a value that is not one of the spellings a variable takes is a warning
// in the log and the default, never a silent guess.
#pragma once

#include "cute_dsl/jit/options.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace cute_dsl::jit::detail {

// A boolean variable: 1/true/yes/on and 0/false/no/off (any case); unset or empty: `fallback`;
// anything else: a warning and `fallback`.
bool env_bool(const char* name, bool fallback = false);

// A byte count: decimal digits only, within 64 bits; unset or empty: nothing; anything else
// ("-1", "4G", an overflow): a warning and nothing.
std::optional<std::uint64_t> env_bytes(const char* name);

// A string variable; unset and empty are both "".
std::string env_string(const char* name);

// Every CUTE_DSL_* variable a compile uses (and the CUDA folders), read once. Exceptions, on
// purpose: CUTE_DSL_LOG_LEVEL is read by log_level() (a long-lived program may change it);
// CUTE_DSL_ARCH through resolve_arch (once per process for "auto"); CUTE_DSL_JIT_WORKER by warmup.
struct Environment {
  // The cache (CacheConfig::from_environment): folder, switch, cap.
  std::string cache_dir;  // CUTE_DSL_CACHE_DIR, else $XDG_CACHE_HOME/cute_dsl, else $HOME/.cache/cute_dsl
  bool disable_file_cache = false;
  std::optional<std::uint64_t> cache_max_bytes;
  // Observers.
  DumpOptions dump;  // CUTE_DSL_DUMP_DIR and CUTE_DSL_KEEP (keep_all when unset or malformed)
  bool print_source = false;    // CUTE_DSL_PRINT_SOURCE
  bool time_profiling = false;  // CUTE_DSL_JIT_TIME_PROFILING
  // Where CUDA lives (CUDA's headers, cuobjdump): both empty means the toolkit found at build time.
  std::string cuda_home, cuda_path;  // CUDA_HOME, CUDA_PATH
};

// Reads them all now (warnings for malformed values go to the log).
Environment read_environment();

}  // namespace cute_dsl::jit::detail
