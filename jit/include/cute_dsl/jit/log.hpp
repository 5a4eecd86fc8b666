// The JIT's one logging sink: every message the library prints goes through log(), which drops
// what is below the level and hands the rest to the sink (stderr unless a callback is set).
//
// CUTE_DSL_LOG_LEVEL picks the level (off, error, warn, info, debug; default warn) until
// set_log_level() overrides it. CUTE_DSL_PRINT_SOURCE=1 and CUTE_DSL_JIT_TIME_PROFILING=1 ask for
// their lines explicitly, so they are emitted at every level except `off`.
#pragma once

#include "cute_dsl/config.hpp"  // first: the C++20 check

#include <functional>
#include <optional>
#include <string_view>

namespace cute_dsl::jit {

enum class LogLevel { off, error, warn, info, debug };

std::string_view to_string(LogLevel level);                       // "off", "error", "warn", ...
std::optional<LogLevel> parse_log_level(std::string_view text);   // accepts "warning" too

// The level in force: set_log_level()'s, else CUTE_DSL_LOG_LEVEL's (read at each call, so that a
// test or a long-lived program may change it), else warn.
LogLevel log_level();
void set_log_level(std::optional<LogLevel> level);  // nullopt: back to the environment

// The sink receives one message per call, without a trailing newline. An empty function restores
// the default, which writes "cute_dsl jit: <level>: <message>\n" to stderr. Calls may come from
// any thread; the sink is called under a lock, one message at a time.
using LogSink = std::function<void(LogLevel level, std::string_view message)>;
void set_log_sink(LogSink sink);

bool log_enabled(LogLevel level);
void log(LogLevel level, std::string_view message);
// For lines the user asked for by name (print source, time profiling): shown unless the level is off.
void log_requested(LogLevel level, std::string_view message);

}  // namespace cute_dsl::jit
