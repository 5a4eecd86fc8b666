// The subcommands of the `cute-dsl` program. Each lives in its own <name>_command.cpp and is
// registered in main.cpp's table; later ones (jit, cache, demo) follow the same shape.
#pragma once

#include <span>
#include <string_view>

namespace cute_dsl::tools {

// `args` excludes the program and subcommand names. Returns the process exit status.
using CommandMain = int (*)(std::span<char* const> args);

struct Command {
  std::string_view name;
  std::string_view summary;  // one line, for `cute-dsl --help`
  CommandMain main;
};

int layout_command(std::span<char* const> args);
int jit_command(std::span<char* const> args);    // jit_command.cpp (built with CuteDSL::jit)
int cache_command(std::span<char* const> args);  // cache_command.cpp (built with CuteDSL::jit)
int demo_command(std::span<char* const> args);   // demo_command.cpp (CuteDSL::jit + the CUDA runtime)

}  // namespace cute_dsl::tools
