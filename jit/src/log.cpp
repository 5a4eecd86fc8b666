#include "cute_dsl/jit/log.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

namespace cute_dsl::jit {

namespace {

// -1: not overridden; else a LogLevel.
std::atomic<int> g_override{-1};

std::mutex& sink_mutex() {
  static std::mutex m;
  return m;
}
LogSink& sink() {
  static LogSink s;
  return s;
}

void emit(LogLevel level, std::string_view message) {
  std::lock_guard lock(sink_mutex());
  if (const LogSink& s = sink()) {
    s(level, message);
    return;
  }
  const std::string_view name = level == LogLevel::warn ? "warning" : to_string(level);
  std::fprintf(stderr, "cute_dsl jit: %.*s: %.*s\n", static_cast<int>(name.size()), name.data(),
               static_cast<int>(message.size()), message.data());
}

}  // namespace

std::string_view to_string(LogLevel level) {
  switch (level) {
    case LogLevel::off: return "off";
    case LogLevel::error: return "error";
    case LogLevel::warn: return "warn";
    case LogLevel::info: return "info";
    case LogLevel::debug: return "debug";
  }
  return "?";
}

std::optional<LogLevel> parse_log_level(std::string_view text) {
  for (LogLevel l : {LogLevel::off, LogLevel::error, LogLevel::warn, LogLevel::info, LogLevel::debug})
    if (text == to_string(l)) return l;
  if (text == "warning") return LogLevel::warn;
  return std::nullopt;
}

LogLevel log_level() {
  if (const int o = g_override.load(std::memory_order_relaxed); o >= 0) return static_cast<LogLevel>(o);
  const char* v = std::getenv("CUTE_DSL_LOG_LEVEL");
  if (!v || !*v) return LogLevel::warn;
  if (const auto parsed = parse_log_level(v)) return *parsed;
  static std::once_flag warned;  // a typo should not silence warnings, nor repeat itself
  std::call_once(warned, [&] {
    emit(LogLevel::warn, std::string("CUTE_DSL_LOG_LEVEL='") + v + "' is not one of off, error, warn, info, debug; using warn");
  });
  return LogLevel::warn;
}

void set_log_level(std::optional<LogLevel> level) {
  g_override.store(level ? static_cast<int>(*level) : -1, std::memory_order_relaxed);
}

void set_log_sink(LogSink s) {
  std::lock_guard lock(sink_mutex());
  sink() = std::move(s);
}

bool log_enabled(LogLevel level) { return level != LogLevel::off && level <= log_level(); }

void log(LogLevel level, std::string_view message) {
  if (log_enabled(level)) emit(level, message);
}

void log_requested(LogLevel level, std::string_view message) {
  if (log_level() != LogLevel::off) emit(level, message);
}

}  // namespace cute_dsl::jit
