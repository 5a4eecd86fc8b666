// What the `cute-dsl jit` subcommands share (defined in jit_command.cpp): reading option values,
// the code-generation flags, and the kernel description (--header/--source, --kernel, --targs).
#pragma once

#include "cute_dsl/jit/gemm_sm90.hpp"
#include "cute_dsl/jit/jit.hpp"

#include <cstddef>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

namespace cute_dsl::tools {

// The value after args[i], advancing i; exits with status 2 when there is none.
const char* next_value(std::span<char* const> args, std::size_t& i);

// The integer after args[i] (see cli_number.hpp), advancing i; exits with status 2 when there is
// none or it is not an integer in [min, max].
long long next_integer(std::span<char* const> args, std::size_t& i, long long min, long long max);

// The code-generation flags of `compile`, `warmup` and `export`; false when args[i] is not one of them.
bool parse_code_option(const std::string& a, std::span<char* const> args, std::size_t& i, jit::CompileOptions& o);

// --header FILE | --source FILE, --include FILE..., --kernel NAME, --targs TEXT.
struct SpecArguments {
  std::string header_path, source_path, kernel, targs;
  std::vector<std::string> includes;
};
bool parse_spec_option(const std::string& a, std::span<char* const> args, std::size_t& i, SpecArguments& s);
// Reads the files and parses the template arguments (a library header by its cute_dsl/ name).
jit::Expected<jit::KernelSpec, jit::JitError> build_spec(const SpecArguments& s);

// `cute-dsl jit export` (export_command.cpp).
// The Hopper GEMM's kernel options (--a, --d, --a-major, --b-major, --tile-m, --tile-n,
// --stages, --cluster-m, --ping-pong) into `types` / `config`; false when args[i] is not one of
// them. A bad value prints `ERROR: ...` and clears `ok`.
bool parse_gemm_option(const std::string& a, std::span<char* const> args, std::size_t& i, jit::GemmSm90Types& types,
                       jit::GemmSm90Config& config, bool& ok);

// Compiles `spec` with `options` and prints the kernel, its cache key and resources (`jit
// compile`'s report; JSON with `json`); `dump_dir` non-empty keeps the intermediates there.
// Returns the tool's exit status.
int compile_and_report(const jit::KernelSpec& spec, jit::CompileOptions options, const std::string& dump_dir, bool json);

int export_main(std::span<char* const> args);
void export_usage(std::FILE* out);
int epilogue_main(std::span<char* const> args);  // epilogue_command.cpp
void epilogue_usage(std::FILE* out);

}  // namespace cute_dsl::tools
