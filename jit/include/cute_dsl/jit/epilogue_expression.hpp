// The GEMM epilogue as a string (issue 11): a small expression language that the JIT turns into
// the epilogue tree the kernel evaluates. This header is its front end: parsing, the checks that
// need no compiler, and a host evaluator (the reference the tests compare kernels with).
//
//   gelu(alpha * acc + bias[col])                       D = that (a single expression)
//   let z = alpha * acc + bias[col]; d = gelu(z); store pre = z; row_absmax amax = d
//
// Grammar (whitespace is free; `#` starts a comment to the end of the line):
//   program    := statement (';' statement)* [';']
//   statement  := 'let' name '=' expr            a binding; later statements may use `name`
//               | 'd' '=' expr                   D (exactly one statement defines D)
//               | 'store' name '=' expr          an auxiliary M x N output
//               | reduction name '=' expr        a reduced output (see below)
//               | expr                           shorthand for `d = expr` (only as the whole program)
//   reduction  := row_sum | col_sum | sum | row_max | col_max | max | row_absmax | col_absmax | absmax
//   expr       := term (('+' | '-') term)*
//   term       := unary (('*' | '/') unary)*
//   unary      := '-' unary | primary
//   primary    := number | '(' expr ')' | name '(' expr (',' expr)* ')'
//               | name '[' 'row' ']' | name '[' 'col' ']' | name '[' 'row' ',' 'col' ']' | name
// Leaves: `acc` (the accumulator), `c` (C, the source tensor), a binding's name, and named inputs
// whose kind follows from their use: `s` a scalar, `v[row]` a vector of M values (one per row),
// `v[col]` a vector of N values (bias, per-channel scales), `t[row, col]` an M x N tensor. A name
// has one kind throughout; an input used several times is one leaf, loaded once per element.
// After `d = ...` or `store t = ...`, the name `d` or `t` stands for that output's f32 value
// (before any conversion to the output's type): `row_absmax amax = d`.
// Functions: relu gelu gelu_tanh silu sigmoid tanh exp abs (1 argument), max min leaky_relu
// drelu dgelu (2: leaky_relu(x, slope), its slope a number or a scalar input; drelu(grad, pre)
// and dgelu(grad, pre) are the backward of relu/gelu at the pre-activation `pre`), clamp fma (3),
// to_bf16 to_f16 to_e4m3 to_e5m2
// (round to nearest even, saturating to the largest finite value: epilogue/convert.hpp).
// Errors name the column (1-based) and show the text with a caret.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "cute_dsl/jit/error.hpp"
#include "cute_dsl/jit/expected.hpp"

namespace cute_dsl::jit::epilogue {

enum class InputKind { scalar, row_vector, col_vector, tensor };
enum class OutputKind { d, store, row_sum, col_sum, sum, row_max, col_max, max, row_absmax, col_absmax, absmax };

enum class NodeKind {
  number,    // value
  acc,       // the accumulator
  c_source,  // C
  input,     // inputs[index]
  negate,    // -args[0]
  add, sub, mul, div,
  call,      // name(args...)
};

struct Node {
  NodeKind kind = NodeKind::number;
  double value = 0;       // number
  int index = -1;         // input
  std::string name;       // call: the function
  std::vector<int> args;  // operands: indices into Program::nodes
  int column = 0;         // where it starts in the text (1-based)
};

struct Input {
  std::string name;
  InputKind kind = InputKind::scalar;
  int column = 0;  // first use
};

struct Output {
  OutputKind kind = OutputKind::d;
  std::string name;  // "d" for D
  int root = -1;     // its expression
  int column = 0;
};

// A parsed program: nodes in an order where every node's operands come before it; each input and
// each of `acc`, `c` is one node however often it is used (so one load per element).
struct Program {
  std::vector<Node> nodes;
  std::vector<Input> inputs;
  std::vector<Output> outputs;  // D first
};

// The program, or an invalid_spec error naming the column.
Expected<Program, JitError> parse_epilogue(std::string_view text);

std::string_view to_string(InputKind kind);
std::string_view to_string(OutputKind kind);
// One line per input and output, then each output's expression in canonical form (fully
// parenthesized): what `cute-dsl jit epilogue` prints.
std::string describe(const Program& program);
// "+", "-", "*", "/" for the binary arithmetic kinds; empty for any other.
std::string_view operator_symbol(NodeKind kind);
// The expression of node `root` in canonical form.
std::string canonical(const Program& program, int root);

// The host reference: the value of node `root` at one element. `input(index, row, col)` gives
// inputs[index]'s value there (a scalar ignores row and col, a row vector col, a column vector
// row). Conversions are the device's own (epilogue/convert.hpp's round_to_format, in double).
struct HostElement {
  double acc = 0;
  double c = 0;
  int row = 0, col = 0;
  std::function<double(int index, int row, int col)> input;
};
double evaluate(const Program& program, int root, const HostElement& element);

// The functions the language knows and how many arguments each takes.
struct FunctionInfo {
  std::string_view name;
  int arity;
};
const std::vector<FunctionInfo>& epilogue_functions();

}  // namespace cute_dsl::jit::epilogue
