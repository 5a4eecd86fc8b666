// `cute-dsl`: the command-line face of CuteDSL. This file only dispatches to subcommands.
#include "commands.hpp"

#include "cute_dsl/config.hpp"

#include <cstdio>
#include <span>
#include <string_view>

namespace {

using cute_dsl::tools::Command;

constexpr Command kCommands[] = {
    {"layout", "evaluate a layout-algebra expression, e.g. composition((4,2):(1,4),2:2)",
     cute_dsl::tools::layout_command},
#if CUTE_DSL_TOOL_HAS_JIT
    {"jit", "compile a kernel template instantiation with NVRTC (no GPU needed) and report its resources",
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
               "Run `cute-dsl <command> --help` for the arguments of one command.\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    print_usage(stderr);
    return 2;
  }
  const std::string_view name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    print_usage(stdout);
    return 0;
  }
  if (name == "--version") {
    std::printf("cute-dsl %d.%d.%d\n", CUTE_DSL_VERSION_MAJOR, CUTE_DSL_VERSION_MINOR, CUTE_DSL_VERSION_PATCH);
    return 0;
  }
  for (const Command& c : kCommands)
    if (c.name == name) return c.main(std::span<char* const>(argv + 2, static_cast<std::size_t>(argc - 2)));
  std::fprintf(stderr, "ERROR: unknown command '%s'\n\n", argv[1]);
  print_usage(stderr);
  return 2;
}
