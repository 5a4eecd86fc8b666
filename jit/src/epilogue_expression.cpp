// The epilogue language's front end (cute_dsl/jit/epilogue_expression.hpp): a recursive-descent
// parser over a small tokenizer, the checks, the canonical printer and the host evaluator.
#include "cute_dsl/jit/epilogue_expression.hpp"

#include "cute_dsl/epilogue/convert.hpp"
#include "cute_dsl/epilogue/functors.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

namespace cute_dsl::jit::epilogue {

const std::vector<FunctionInfo>& epilogue_functions() {
  static const std::vector<FunctionInfo> functions = {
      {"relu", 1},       {"gelu", 1},  {"gelu_tanh", 1}, {"silu", 1},   {"sigmoid", 1},  {"tanh", 1},
      {"exp", 1},        {"abs", 1},   {"max", 2},       {"min", 2},    {"leaky_relu", 2}, {"drelu", 2},
      {"dgelu", 2},      {"clamp", 3}, {"fma", 3},       {"to_bf16", 1}, {"to_f16", 1},  {"to_e4m3", 1},
      {"to_e5m2", 1}};
  return functions;
}

namespace {

const FunctionInfo* find_function(std::string_view name) {
  for (const FunctionInfo& f : epilogue_functions())
    if (f.name == name) return &f;
  return nullptr;
}

std::optional<OutputKind> reduction_of(std::string_view word) {
  static const std::pair<std::string_view, OutputKind> table[] = {
      {"row_sum", OutputKind::row_sum},       {"col_sum", OutputKind::col_sum},       {"sum", OutputKind::sum},
      {"row_max", OutputKind::row_max},       {"col_max", OutputKind::col_max},       {"max", OutputKind::max},
      {"row_absmax", OutputKind::row_absmax}, {"col_absmax", OutputKind::col_absmax}, {"absmax", OutputKind::absmax}};
  for (const auto& [w, kind] : table)
    if (w == word) return kind;
  return std::nullopt;
}

bool reserved(std::string_view name) {
  return name == "acc" || name == "c" || name == "row" || name == "col" || name == "let" || name == "store" ||
         name == "d" || find_function(name) != nullptr || reduction_of(name).has_value();
}

enum class Tok { end, number, name, punct };

struct Token {
  Tok kind = Tok::end;
  std::string text;
  double value = 0;
  int column = 0;  // 1-based
};

// The error for `column`: one line, plus the text with a caret under the column.
JitError error_at(std::string_view text, int column, const std::string& what) {
  JitError e;
  e.kind = JitErrorKind::invalid_spec;
  e.message = "epilogue, column " + std::to_string(column) + ": " + what;
  // The line holding the column, and the caret under it.
  std::size_t begin = 0, at = std::size_t(column > 0 ? column - 1 : 0);
  if (at > text.size()) at = text.size();
  for (std::size_t i = 0; i < at; ++i)
    if (text[i] == '\n') begin = i + 1;
  std::size_t end = text.find('\n', at);
  if (end == std::string_view::npos) end = text.size();
  e.log = std::string(text.substr(begin, end - begin)) + "\n" + std::string(at - begin, ' ') + "^";
  return e;
}

// How an error names the token it found.
std::string found(const Token& t) { return t.kind == Tok::end ? "found the end" : "found '" + t.text + "'"; }

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Expected<Program, JitError> run() {
    if (auto r = tokenize(); !r) return unexpected(r.error());
    int bare_expressions = 0, statements = 0;
    while (peek().kind != Tok::end) {
      ++statements;
      if (auto r = statement(bare_expressions); !r) return unexpected(r.error());
      if (peek().kind == Tok::punct && peek().text == ";") {
        next();
      } else if (peek().kind != Tok::end) {
        return unexpected(error_at(text_, peek().column, "expected ';' or the end after a statement, " + found(peek())));
      }
    }
    if (statements == 0) return unexpected(error_at(text_, 1, "empty epilogue: write an expression for D, e.g. 'alpha * acc'"));
    if (bare_expressions > 0 && statements > 1)
      return unexpected(error_at(text_, bare_column_, "in a program of several statements, D is written 'd = ...'"));
    int d_count = 0;
    for (const Output& o : program_.outputs) d_count += o.kind == OutputKind::d;
    if (d_count == 0) return unexpected(error_at(text_, int(text_.size()) + 1, "no statement defines D ('d = ...')"));
    // D first, then the others in the order written.
    std::stable_partition(program_.outputs.begin(), program_.outputs.end(), [](const Output& o) { return o.kind == OutputKind::d; });
    return std::move(program_);
  }

 private:
  Expected<Ok, JitError> tokenize() {
    std::size_t i = 0;
    while (i < text_.size()) {
      const char ch = text_[i];
      if (std::isspace(static_cast<unsigned char>(ch))) {
        ++i;
      } else if (ch == '#') {
        while (i < text_.size() && text_[i] != '\n') ++i;
      } else if (std::isdigit(static_cast<unsigned char>(ch)) || (ch == '.' && i + 1 < text_.size() && std::isdigit(static_cast<unsigned char>(text_[i + 1])))) {
        const std::string rest(text_.substr(i));
        char* end = nullptr;
        const double v = std::strtod(rest.c_str(), &end);
        const std::size_t n = std::size_t(end - rest.c_str());
        tokens_.push_back({Tok::number, rest.substr(0, n), v, int(i) + 1});
        i += n;
      } else if (std::isalpha(static_cast<unsigned char>(ch)) || ch == '_') {
        std::size_t j = i;
        while (j < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[j])) || text_[j] == '_')) ++j;
        tokens_.push_back({Tok::name, std::string(text_.substr(i, j - i)), 0, int(i) + 1});
        i = j;
      } else if (std::string_view("()[],;+-*/=").find(ch) != std::string_view::npos) {
        tokens_.push_back({Tok::punct, std::string(1, ch), 0, int(i) + 1});
        ++i;
      } else {
        return unexpected(error_at(text_, int(i) + 1, std::string("unexpected character '") + ch + "'"));
      }
    }
    tokens_.push_back({Tok::end, "", 0, int(text_.size()) + 1});
    return Ok{};
  }

  const Token& peek(int ahead = 0) const {
    const std::size_t at = pos_ + std::size_t(ahead);
    return at < tokens_.size() ? tokens_[at] : tokens_.back();
  }
  const Token& next() { return tokens_[pos_ < tokens_.size() - 1 ? pos_++ : pos_]; }
  bool is_punct(const Token& t, char ch) const { return t.kind == Tok::punct && t.text.size() == 1 && t.text[0] == ch; }

  Expected<Ok, JitError> expect(char ch, const std::string& context) {
    if (!is_punct(peek(), ch))
      return unexpected(error_at(text_, peek().column, std::string("expected '") + ch + "' " + context + ", " + found(peek())));
    next();
    return Ok{};
  }

  Expected<Ok, JitError> add_output(OutputKind kind, const Token& name, int root) {
    for (const Output& o : program_.outputs)
      if (o.name == name.text)
        return unexpected(error_at(text_, name.column, "'" + name.text + "' is already an output (column " + std::to_string(o.column) + ")"));
    program_.outputs.push_back({kind, name.text, root, name.column});
    // D and stored tensors name their (f32) values for the statements after them; a reduction's
    // result is not an element value.
    if (kind == OutputKind::d || kind == OutputKind::store) values_[name.text] = root;
    return Ok{};
  }

  // A name that a statement introduces (binding or output): not reserved, not taken.
  Expected<Ok, JitError> check_new_name(const Token& name) {
    if (name.kind != Tok::name) return unexpected(error_at(text_, name.column, "expected a name, " + found(name)));
    if (reserved(name.text)) return unexpected(error_at(text_, name.column, "'" + name.text + "' is a reserved word"));
    if (bindings_.count(name.text)) return unexpected(error_at(text_, name.column, "'" + name.text + "' is already bound by 'let'"));
    if (values_.count(name.text)) return unexpected(error_at(text_, name.column, "'" + name.text + "' is already an output"));
    if (inputs_.count(name.text))
      return unexpected(error_at(text_, name.column, "'" + name.text + "' is already an input (column " +
                                                         std::to_string(program_.inputs[inputs_.at(name.text)].column) + ")"));
    return Ok{};
  }

  Expected<Ok, JitError> statement(int& bare_expressions) {
    const Token& t = peek();
    if (t.kind == Tok::name && t.text == "let") {
      next();
      const Token name = next();
      if (auto r = check_new_name(name); !r) return r;
      if (auto r = expect('=', "after the name of a 'let'"); !r) return r;
      auto e = expr();
      if (!e) return unexpected(e.error());
      bindings_[name.text] = *e;
      return Ok{};
    }
    if (t.kind == Tok::name && t.text == "d" && is_punct(peek(1), '=')) {
      const Token name = next();
      next();
      auto e = expr();
      if (!e) return unexpected(e.error());
      return add_output(OutputKind::d, name, *e);
    }
    std::optional<OutputKind> kind;
    if (t.kind == Tok::name && t.text == "store" && peek(1).kind == Tok::name) kind = OutputKind::store;
    else if (t.kind == Tok::name && peek(1).kind == Tok::name) kind = reduction_of(t.text);
    if (kind) {
      next();
      const Token name = next();
      if (auto r = check_new_name(name); !r) return r;
      if (auto r = expect('=', "after the output's name"); !r) return r;
      auto e = expr();
      if (!e) return unexpected(e.error());
      return add_output(*kind, name, *e);
    }
    ++bare_expressions;
    if (bare_column_ == 0) bare_column_ = t.column;
    auto e = expr();
    if (!e) return unexpected(e.error());
    Token d{Tok::name, "d", 0, t.column};
    return add_output(OutputKind::d, d, *e);
  }

  int push(Node n) {
    program_.nodes.push_back(std::move(n));
    return int(program_.nodes.size()) - 1;
  }

  // A left-associative level of two operators over operands parsed by `operand`.
  Expected<int, JitError> binary_level(char op1, NodeKind k1, char op2, NodeKind k2, Expected<int, JitError> (Parser::*operand)()) {
    auto lhs = (this->*operand)();
    if (!lhs) return lhs;
    while (is_punct(peek(), op1) || is_punct(peek(), op2)) {
      const Token op = next();
      auto rhs = (this->*operand)();
      if (!rhs) return rhs;
      lhs = push({op.text[0] == op1 ? k1 : k2, 0, -1, {}, {*lhs, *rhs}, op.column});
    }
    return lhs;
  }
  Expected<int, JitError> expr() { return binary_level('+', NodeKind::add, '-', NodeKind::sub, &Parser::term); }
  Expected<int, JitError> term() { return binary_level('*', NodeKind::mul, '/', NodeKind::div, &Parser::unary); }

  Expected<int, JitError> unary() {
    if (is_punct(peek(), '-')) {
      const Token op = next();
      auto operand = unary();
      if (!operand) return operand;
      return push({NodeKind::negate, 0, -1, {}, {*operand}, op.column});
    }
    return primary();
  }

  // The single node of `acc` / `c`, made on first use.
  int leaf(int& slot, NodeKind kind, int column) {
    if (slot < 0) slot = push({kind, 0, -1, {}, {}, column});
    return slot;
  }

  Expected<int, JitError> input(const Token& name, InputKind kind) {
    if (auto it = inputs_.find(name.text); it != inputs_.end()) {
      const Input& in = program_.inputs[it->second];
      if (in.kind != kind)
        return unexpected(error_at(text_, name.column, "'" + name.text + "' is used here as a " + std::string(to_string(kind)) +
                                                           " but at column " + std::to_string(in.column) + " as a " +
                                                           std::string(to_string(in.kind))));
      return input_nodes_[it->second];
    }
    const int index = int(program_.inputs.size());
    program_.inputs.push_back({name.text, kind, name.column});
    inputs_[name.text] = index;
    input_nodes_.push_back(push({NodeKind::input, 0, index, {}, {}, name.column}));
    return input_nodes_.back();
  }

  Expected<int, JitError> primary() {
    const Token t = next();
    if (t.kind == Tok::number) return push({NodeKind::number, t.value, -1, {}, {}, t.column});
    if (is_punct(t, '(')) {
      auto e = expr();
      if (!e) return e;
      if (auto r = expect(')', "to close the '(' at column " + std::to_string(t.column)); !r) return unexpected(r.error());
      return e;
    }
    if (t.kind != Tok::name) return unexpected(error_at(text_, t.column, "expected a value, " + found(t)));
    if (is_punct(peek(), '(')) {
      const FunctionInfo* f = find_function(t.text);
      if (!f) return unexpected(error_at(text_, t.column, "unknown function '" + t.text + "'"));
      next();
      std::vector<int> args;
      while (true) {
        auto a = expr();
        if (!a) return a;
        args.push_back(*a);
        if (is_punct(peek(), ',')) {
          next();
          continue;
        }
        if (auto r = expect(')', "after the arguments of " + t.text); !r) return unexpected(r.error());
        break;
      }
      if (int(args.size()) != f->arity)
        return unexpected(error_at(text_, t.column, t.text + " takes " + std::to_string(f->arity) + " argument" +
                                                        (f->arity == 1 ? "" : "s") + ", not " + std::to_string(args.size())));
      if (t.text == "leaky_relu") {  // the device functor holds its slope: one value for the whole tensor
        const Node& slope = program_.nodes[std::size_t(args[1])];
        const bool constant = slope.kind == NodeKind::number ||
                              (slope.kind == NodeKind::input && program_.inputs[std::size_t(slope.index)].kind == InputKind::scalar);
        if (!constant) return unexpected(error_at(text_, slope.column, "leaky_relu's slope must be a number or a scalar input"));
      }
      return push({NodeKind::call, 0, -1, t.text, std::move(args), t.column});
    }
    if (auto v = values_.find(t.text); v != values_.end() && !is_punct(peek(), '[')) return v->second;
    if (t.text == "acc") return leaf(acc_, NodeKind::acc, t.column);
    if (t.text == "c") return leaf(c_, NodeKind::c_source, t.column);
    if (find_function(t.text)) return unexpected(error_at(text_, t.column, "'" + t.text + "' is a function: call it, " + t.text + "(...)"));
    if (reserved(t.text)) return unexpected(error_at(text_, t.column, "'" + t.text + "' cannot be used as a value here"));
    if (auto b = bindings_.find(t.text); b != bindings_.end()) {
      if (is_punct(peek(), '[')) return unexpected(error_at(text_, peek().column, "'" + t.text + "' is a 'let' binding: it takes no index"));
      return b->second;
    }
    if (!is_punct(peek(), '[')) return input(t, InputKind::scalar);
    next();
    const Token first = next();
    if (first.kind != Tok::name || (first.text != "row" && first.text != "col"))
      return unexpected(error_at(text_, first.column, "an index is [row], [col] or [row, col], " + found(first)));
    InputKind kind = first.text == "row" ? InputKind::row_vector : InputKind::col_vector;
    if (is_punct(peek(), ',')) {
      next();
      const Token second = next();
      if (first.text != "row" || second.kind != Tok::name || second.text != "col")
        return unexpected(error_at(text_, second.column, "a tensor is indexed [row, col]"));
      kind = InputKind::tensor;
    }
    if (auto r = expect(']', "to close the index of " + t.text); !r) return unexpected(r.error());
    return input(t, kind);
  }

  std::string_view text_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  Program program_;
  std::map<std::string, int> bindings_;  // name -> node
  std::map<std::string, int> values_;    // D ("d") and stored outputs defined so far -> node
  std::map<std::string, int> inputs_;    // name -> index in program_.inputs
  std::vector<int> input_nodes_;         // input index -> node
  int acc_ = -1, c_ = -1;
  int bare_column_ = 0;
};

// The device tree's own functors (epilogue/functors.hpp, convert.hpp), evaluated in double: the
// reference computes exactly what the kernel computes, at higher precision.
double call(const std::string& f, const std::vector<double>& a) {
  namespace ep = cute_dsl::epilogue;
  if (f == "relu") return ep::Relu{}(a[0]);
  if (f == "gelu") return ep::GeluErf{}(a[0]);
  if (f == "gelu_tanh") return ep::GeluTanh{}(a[0]);
  if (f == "silu") return ep::Silu{}(a[0]);
  if (f == "sigmoid") return ep::Sigmoid{}(a[0]);
  if (f == "tanh") return ep::Tanh{}(a[0]);
  if (f == "exp") return ep::Exp{}(a[0]);
  if (f == "abs") return std::fabs(a[0]);
  if (f == "max") return ep::Max{}(a[0], a[1]);
  if (f == "min") return ep::Min{}(a[0], a[1]);
  if (f == "leaky_relu") return ep::LeakyRelu{float(a[1])}(a[0]);
  if (f == "drelu") return ep::DRelu{}(a[0], a[1]);
  if (f == "dgelu") return ep::DGeluErf{}(a[0], a[1]);
  if (f == "clamp") return ep::Clamp{}(a[0], a[1], a[2]);
  if (f == "fma") return ep::Fma{}(a[0], a[1], a[2]);
  if (f == "to_bf16") return ep::ToBf16{}(a[0]);
  if (f == "to_f16") return ep::ToFp16{}(a[0]);
  if (f == "to_e4m3") return ep::ToFp8E4M3{}(a[0]);
  if (f == "to_e5m2") return ep::ToFp8E5M2{}(a[0]);
  return NAN;  // unreachable: the parser admits only epilogue_functions()
}

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  // The shortest text that reads back the same.
  for (int digits = 1; digits <= 17; ++digits) {
    char s[32];
    std::snprintf(s, sizeof s, "%.*g", digits, v);
    if (std::strtod(s, nullptr) == v) return s;
  }
  return buf;
}

}  // namespace

Expected<Program, JitError> parse_epilogue(std::string_view text) { return Parser(text).run(); }

std::string_view to_string(InputKind kind) {
  switch (kind) {
    case InputKind::scalar: return "scalar";
    case InputKind::row_vector: return "row vector";
    case InputKind::col_vector: return "column vector";
    case InputKind::tensor: return "tensor";
  }
  return "?";
}

std::string_view to_string(OutputKind kind) {
  switch (kind) {
    case OutputKind::d: return "D";
    case OutputKind::store: return "store";
    case OutputKind::row_sum: return "row_sum";
    case OutputKind::col_sum: return "col_sum";
    case OutputKind::sum: return "sum";
    case OutputKind::row_max: return "row_max";
    case OutputKind::col_max: return "col_max";
    case OutputKind::max: return "max";
    case OutputKind::row_absmax: return "row_absmax";
    case OutputKind::col_absmax: return "col_absmax";
    case OutputKind::absmax: return "absmax";
  }
  return "?";
}

std::string_view operator_symbol(NodeKind kind) {
  switch (kind) {
    case NodeKind::add: return "+";
    case NodeKind::sub: return "-";
    case NodeKind::mul: return "*";
    case NodeKind::div: return "/";
    default: return {};
  }
}

std::string canonical(const Program& p, int root) {
  const Node& n = p.nodes[std::size_t(root)];
  auto arg = [&](int i) { return canonical(p, n.args[std::size_t(i)]); };
  switch (n.kind) {
    case NodeKind::number: return number_text(n.value);
    case NodeKind::acc: return "acc";
    case NodeKind::c_source: return "c";
    case NodeKind::input: {
      const Input& in = p.inputs[std::size_t(n.index)];
      switch (in.kind) {
        case InputKind::scalar: return in.name;
        case InputKind::row_vector: return in.name + "[row]";
        case InputKind::col_vector: return in.name + "[col]";
        case InputKind::tensor: return in.name + "[row, col]";
      }
      return in.name;
    }
    case NodeKind::negate: return "(-" + arg(0) + ")";
    case NodeKind::add:
    case NodeKind::sub:
    case NodeKind::mul:
    case NodeKind::div: return "(" + arg(0) + " " + std::string(operator_symbol(n.kind)) + " " + arg(1) + ")";
    case NodeKind::call: {
      std::string s = n.name + "(";
      for (std::size_t i = 0; i < n.args.size(); ++i) s += (i ? ", " : "") + arg(int(i));
      return s + ")";
    }
  }
  return "?";
}

std::string describe(const Program& p) {
  std::string s;
  for (const Input& in : p.inputs) s += "input " + in.name + ": " + std::string(to_string(in.kind)) + "\n";
  for (const Output& o : p.outputs)
    s += (o.kind == OutputKind::d ? std::string("d") : std::string(to_string(o.kind)) + " " + o.name) + " = " +
         canonical(p, o.root) + "\n";
  return s;
}

double evaluate(const Program& p, int root, const HostElement& e) {
  const Node& n = p.nodes[std::size_t(root)];
  std::vector<double> a;
  for (int arg : n.args) a.push_back(evaluate(p, arg, e));
  switch (n.kind) {
    case NodeKind::number: return n.value;
    case NodeKind::acc: return e.acc;
    case NodeKind::c_source: return e.c;
    case NodeKind::input: return e.input(n.index, e.row, e.col);
    case NodeKind::negate: return -a[0];
    case NodeKind::add: return a[0] + a[1];
    case NodeKind::sub: return a[0] - a[1];
    case NodeKind::mul: return a[0] * a[1];
    case NodeKind::div: return a[0] / a[1];
    case NodeKind::call: return call(n.name, a);
  }
  return NAN;
}

}  // namespace cute_dsl::jit::epilogue
