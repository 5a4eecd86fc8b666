// `cute-dsl cache stats|list|clear`: the JIT's disk cache, as CUTE_DSL_CACHE_DIR & co. place it.
#include "commands.hpp"

#include "cute_dsl/jit/cache.hpp"

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
               "usage: cute-dsl cache stats|list|clear [--dir DIR]\n"
               "  stats   the folder, its entries (valid and damaged) and their bytes\n"
               "  list    one line per entry: key, bytes, arch, output, kernel\n"
               "  clear   remove every entry\n"
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
  if (args.size() == 3 && std::string_view(args[1]) == "--dir") {
    config.dir = args[2];
    config.use_disk = true;
  } else if (args.size() != 1) {
    usage(stderr);
    return 2;
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
    std::printf("folder:   %s%s\n", config.dir.c_str(),
                config.use_disk ? "" : " (disk cache disabled by CUTE_DSL_DISABLE_FILE_CACHE)");
    std::printf("entries:  %zu (%llu valid, %llu damaged)\n", entries.size(), static_cast<unsigned long long>(valid),
                static_cast<unsigned long long>(entries.size() - valid));
    std::printf("bytes:    %llu\n", static_cast<unsigned long long>(bytes));
    std::printf("format:   %u\n", jit::kDiskFormatVersion);
    return 0;
  }
  if (what == "list") {
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
