// `cute-dsl jit epilogue 'EXPRESSION'`: parses a GEMM epilogue written in the epilogue language
// (cute_dsl/jit/epilogue_expression.hpp) and prints its inputs and outputs, each output's
// expression in canonical (fully parenthesized) form; a bad expression gets `ERROR: ...` with a
// caret under the column, and exit status 1. No GPU and no compiler needed.
#include <cstdio>
#include <string>
#include <string_view>

#include "cute_dsl/jit/epilogue_expression.hpp"
#include "jit_cli.hpp"

namespace cute_dsl::tools {

void epilogue_usage(std::FILE* out) {
  std::fputs(
      "usage: cute-dsl jit epilogue 'EXPRESSION'\n"
      "  Checks a GEMM epilogue written in the epilogue language and prints what it means: its\n"
      "  inputs (scalar, row vector v[row], column vector v[col], tensor t[row, col]) and its\n"
      "  outputs (D, `store` tensors, reductions), each in canonical form. Examples:\n"
      "    cute-dsl jit epilogue 'gelu(alpha * acc + bias[col])'\n"
      "    cute-dsl jit epilogue 'let z = acc + bias[col]; d = gelu(z); store pre = z; row_absmax amax = d'\n"
      "  The language: docs/11_epilogue_language.md.\n",
      out);
}

int epilogue_main(std::span<char* const> args) {
  if (args.size() == 1 && (std::string_view(args[0]) == "--help" || std::string_view(args[0]) == "-h")) {
    epilogue_usage(stdout);
    return 0;
  }
  if (args.size() != 1) {
    std::fputs("ERROR: `jit epilogue` takes exactly one argument, the expression (quote it)\n", stderr);
    epilogue_usage(stderr);
    return 2;
  }
  auto program = jit::epilogue::parse_epilogue(args[0]);
  if (!program) {
    std::fprintf(stderr, "ERROR: %s\n%s\n", program.error().message.c_str(), program.error().log.c_str());
    return 1;
  }
  std::fputs(jit::epilogue::describe(*program).c_str(), stdout);
  return 0;
}

}  // namespace cute_dsl::tools
