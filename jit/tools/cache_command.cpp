// `cute-dsl cache stats|list|clear`: the JIT's disk cache, as CUTE_DSL_CACHE_DIR & co. place it.
#include "commands.hpp"

#include "cute_dsl/jit/cache.hpp"
#include "cute_dsl/jit/dump.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

namespace cute_dsl::tools {

namespace {

void usage(std::FILE* out) {
  std::fprintf(out,
               "usage: cute-dsl cache stats|list|clear [--dir DIR] [--json]\n"
               "  stats   the folder, its entries (valid and damaged) and their bytes\n"
               "  list    one line per entry: key, bytes, arch, output, kernel\n"
               "  clear   remove every entry\n"
               "  --json  stats and list: one JSON document instead of text\n"
               "  the folder is --dir, else CUTE_DSL_CACHE_DIR, else $XDG_CACHE_HOME/cute_dsl, else ~/.cache/cute_dsl\n");
}

}  // namespace

int cache_command(std::span<char* const> args) {
  if (args.empty()) {
    usage(stderr);
    return 2;
  }
  const std::string_view what = args[0];
  for (const char* a : args)
    if (std::string_view(a) == "--help" || std::string_view(a) == "-h") {
      usage(stdout);
      return 0;
    }
  jit::CacheConfig config = jit::CacheConfig::from_environment();
  bool json = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (a == "--dir" && i + 1 < args.size()) {
      config.dir = args[++i];
      config.use_disk = true;
    } else if (a == "--json") {
      json = true;
    } else {
      std::fprintf(stderr, "ERROR: %s\n\n", a == "--dir" ? "--dir needs a value" : ("unknown argument '" + std::string(a) + "'").c_str());
      usage(stderr);
      return 2;
    }
  }
  if (config.dir.empty()) {
    std::fprintf(stderr, "ERROR: no cache folder (HOME unset and CUTE_DSL_CACHE_DIR not given)\n");
    return 1;
  }
  // A missing or unreadable folder is an error, not an empty cache.
  std::error_code ec;
  const auto status = std::filesystem::status(config.dir, ec);
  if (!std::filesystem::exists(status)) {
    std::fprintf(stderr, "ERROR: the cache folder %s does not exist (nothing was cached there)\n", config.dir.c_str());
    return 1;
  }
  if (!std::filesystem::is_directory(status)) {
    std::fprintf(stderr, "ERROR: %s is not a folder\n", config.dir.c_str());
    return 1;
  }
  if (::access(config.dir.c_str(), R_OK | X_OK | (what == "clear" ? W_OK : 0)) != 0) {
    std::fprintf(stderr, "ERROR: cannot %s the cache folder %s: %s\n", what == "clear" ? "change" : "read",
                 config.dir.c_str(), std::strerror(errno));
    return 1;
  }
  if (what == "stats") {
    const auto entries = jit::list_disk_entries(config.dir);
    std::uint64_t bytes = 0, valid = 0;
    for (const auto& e : entries) {
      bytes += e.file_bytes;
      valid += e.valid;
    }
    if (json) {
      std::printf("{\"folder\": %s, \"disk_cache_enabled\": %s, \"entries\": %zu, \"valid\": %llu, \"damaged\": %llu, "
                  "\"bytes\": %llu, \"format\": %u}\n",
                  jit::json_string(config.dir).c_str(), config.use_disk ? "true" : "false", entries.size(),
                  static_cast<unsigned long long>(valid), static_cast<unsigned long long>(entries.size() - valid),
                  static_cast<unsigned long long>(bytes), jit::kDiskFormatVersion);
      return 0;
    }
    std::printf("folder:   %s%s\n", config.dir.c_str(),
                config.use_disk ? "" : " (disk cache disabled by CUTE_DSL_DISABLE_FILE_CACHE)");
    std::printf("entries:  %zu (%llu valid, %llu damaged)\n", entries.size(), static_cast<unsigned long long>(valid),
                static_cast<unsigned long long>(entries.size() - valid));
    std::printf("bytes:    %llu\n", static_cast<unsigned long long>(bytes));
    std::printf("format:   %u\n", jit::kDiskFormatVersion);
    return 0;
  }
  if (what == "list") {
    if (json) {
      const auto entries = jit::list_disk_entries(config.dir);
      std::printf("[");
      for (std::size_t i = 0; i < entries.size(); ++i) {
        const auto& e = entries[i];
        std::printf("%s\n  {\"file\": %s, \"bytes\": %llu, \"valid\": %s", i ? "," : "", jit::json_string(e.file).c_str(),
                    static_cast<unsigned long long>(e.file_bytes), e.valid ? "true" : "false");
        if (e.valid)
          std::printf(", \"key\": \"%s\", \"arch\": %s, \"output\": \"%s\", \"kernel\": %s", e.key.hex().c_str(),
                      jit::json_string(e.arch).c_str(), e.output == jit::OutputKind::cubin ? "cubin" : "ptx",
                      jit::json_string(e.name_expression).c_str());
        std::printf("}");
      }
      std::printf("%s]\n", entries.empty() ? "" : "\n");
      return 0;
    }
    for (const auto& e : jit::list_disk_entries(config.dir)) {
      if (e.valid)
        std::printf("%s  %8llu  %-8s %-5s %s\n", e.key.hex().c_str(), static_cast<unsigned long long>(e.file_bytes),
                    e.arch.c_str(), e.output == jit::OutputKind::cubin ? "cubin" : "ptx", e.name_expression.c_str());
      else
        std::printf("%s  %8llu  (damaged or from another format version)\n", e.file.c_str(),
                    static_cast<unsigned long long>(e.file_bytes));
    }
    return 0;
  }
  if (what == "clear") {
    const auto removed = jit::clear_disk_entries(config.dir);
    std::printf("removed %llu files from %s\n", static_cast<unsigned long long>(removed), config.dir.c_str());
    if (const auto left = jit::list_disk_entries(config.dir).size(); left > 0) {
      std::fprintf(stderr, "ERROR: %zu entries could not be removed from %s\n", left, config.dir.c_str());
      return 1;
    }
    return 0;
  }
  std::fprintf(stderr, "ERROR: unknown cache subcommand '%s'\n", args[0]);
  usage(stderr);
  return 2;
}

}  // namespace cute_dsl::tools
