// `cute-dsl`: the command-line face of CuteDSL. This file only dispatches to subcommands.
#include "commands.hpp"

#include "cute_dsl/config.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <span>
#include <string_view>

namespace {

using cute_dsl::tools::Command;

constexpr Command kCommands[] = {
    {"layout", "evaluate a layout-algebra expression, e.g. composition((4,2):(1,4),2:2)",
     cute_dsl::tools::layout_command},
#if CUTE_DSL_TOOL_HAS_JIT
    {"jit", "compile a kernel template with NVRTC (no GPU needed): report its resources, warm the cache, export it for C",
     cute_dsl::tools::jit_command},
    {"cache", "inspect or clear the JIT's disk cache: stats | list | clear", cute_dsl::tools::cache_command},
#endif
#if CUTE_DSL_TOOL_HAS_DEMO
    {"demo", "JIT-compile the library's kernels; with a GPU, run, check and time them against a reference",
     cute_dsl::tools::demo_command},
#endif
};

void print_usage(std::FILE* out) {
  std::fprintf(out,
               "usage: cute-dsl <command> [arguments]\n"
               "\n"
               "commands:\n");
  for (const Command& c : kCommands)
    std::fprintf(out, "  %-10.*s %.*s\n", static_cast<int>(c.name.size()), c.name.data(),
                 static_cast<int>(c.summary.size()), c.summary.data());
  std::fprintf(out,
               "\n"
               "Run `cute-dsl <command> --help` (or `cute-dsl help <command>`) for the arguments of one command.\n");
}

// A command whose output could not be written (a full disk, `> /dev/full`) has failed, whatever it
// computed: flush what is buffered and turn a write error into an ERROR line and status 1.
int finish(int status) {
  errno = 0;
  std::cout.flush();  // in sync with stdio, this is where a buffered write fails first
  const bool flushed = std::fflush(stdout) == 0;
  const int error = errno;
  if (flushed && !std::ferror(stdout) && std::cout) return status;
  std::fprintf(stderr, "ERROR: cannot write the output: %s\n",
               error != 0 ? std::strerror(error) : "a write to standard output failed");
  return status == 0 ? 1 : status;
}

int run(const Command& c, std::span<char* const> args) { return finish(c.main(args)); }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    print_usage(stderr);
    return 2;
  }
  const std::string_view name = argv[1];
  if (name == "help" && argc == 3) {  // `cute-dsl help layout` is `cute-dsl layout --help`
    static char help_flag[] = "--help";
    char* help_args[] = {help_flag};
    for (const Command& c : kCommands)
      if (c.name == argv[2]) return run(c, help_args);
    std::fprintf(stderr, "ERROR: unknown command '%s'\n\n", argv[2]);
    print_usage(stderr);
    return 2;
  }
  if (name == "--help" || name == "-h" || name == "help") {
    print_usage(stdout);
    return finish(0);
  }
  if (name == "--version") {
    std::printf("cute-dsl %d.%d.%d\n", CUTE_DSL_VERSION_MAJOR, CUTE_DSL_VERSION_MINOR, CUTE_DSL_VERSION_PATCH);
    return finish(0);
  }
  for (const Command& c : kCommands)
    if (c.name == name) return run(c, std::span<char* const>(argv + 2, static_cast<std::size_t>(argc - 2)));
  std::fprintf(stderr, "ERROR: unknown command '%s'\n\n", argv[1]);
  print_usage(stderr);
  return 2;
}
