// `cute-dsl layout`: evaluate layout-algebra expressions, one from the command line or a stream
// of them on stdin (--batch, as the conformance checker drives it).
#include "commands.hpp"

#include "cute_dsl/runtime/expression.hpp"
#include "cute_dsl/runtime/svg.hpp"
#include "cute_dsl/runtime/table.hpp"
#if CUTE_DSL_TOOL_HAS_JIT
#include "cute_dsl/jit/dump.hpp"  // json_string(), the one JSON string escaper of the tool and the library
#endif

#include <exception>
#include <fstream>
#include <iostream>
#include <span>
#include <string>
#include <string_view>

namespace cute_dsl::tools {
namespace {

constexpr const char* kUsage =
    "usage: cute-dsl layout [--table] [--svg FILE] [--json] EXPR\n"
    "       cute-dsl layout --batch [--json]\n"
    "\n"
    "Evaluates a layout-algebra expression with CuTe's (static) semantics and prints the result:\n"
    "a layout in CuTe notation (shape:stride), an integer, or a tiler [T0,T1,...].\n"
    "\n"
    "  --table      print the layout as CuTe's print_layout table (rank-2 results only)\n"
    "  --svg FILE   also write an SVG picture of the (rank-2) result to FILE\n"
    "  --batch      read one expression per line from stdin and print one line per expression,\n"
    "               'ERROR: <message>' for one that fails; exit status 1 if any failed\n"
    "  --json       print one JSON object instead of the text (with --batch: one per line, an\n"
    "               'error' member for an expression that fails): expression, kind (layout,\n"
    "               integer, tiler), text; a layout adds shape and stride as nested arrays,\n"
    "               size, cosize, rank, depth (and table with --table); an integer adds value;\n"
    "               a tiler adds modes, one layout object each\n"
    "  --help       show this text\n"
    "\n"
    "Exit status: 0 on success, 1 if the expression failed (the message goes to stderr as\n"
    "'ERROR: <message>'), 2 for a usage error.\n"
    "\n"
    "Expressions:\n"
    "  layout   shape:stride, e.g. 8:1, (4,2):(2,1), ((2,2),3):((1,4),2); CuTe's _N is read as N\n"
    "  integer  e.g. 16\n"
    "  tiler    [T0,T1,...], each a layout or an integer n meaning n:1, e.g. [2:1,(2,2):(1,8)]\n"
    "  call     op(arg,...), nestable, e.g. size(coalesce((2,4):(1,2)))\n"
    "\n"
    "Operations:\n";

struct Options {
  bool table = false;
  bool batch = false;
  bool json = false;
  std::string svg_path;
  std::string expression;
};

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

void print_usage(std::ostream& os) { os << kUsage << runtime::operation_signatures(); }

// Returns 0 and fills `o`, or the exit status for a usage error (or --help, -1 → 0).
int parse_options(std::span<char* const> args, Options& o) {
  bool options_done = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (!options_done && a == "--") {
      options_done = true;
    } else if (!options_done && (a == "--help" || a == "-h")) {
      print_usage(std::cout);
      return -1;
    } else if (!options_done && a == "--table") {
      o.table = true;
    } else if (!options_done && a == "--batch") {
      o.batch = true;
    } else if (!options_done && a == "--json") {
#if CUTE_DSL_TOOL_HAS_JIT
      o.json = true;
#else
      std::cerr << "ERROR: --json needs a cute-dsl built with the JIT library (its JSON writer); this one was "
                   "built without NVRTC\n";
      return 2;
#endif
    } else if (!options_done && a == "--svg") {
      if (i + 1 >= args.size()) {
        std::cerr << "ERROR: --svg needs a file name\n";
        return 2;
      }
      o.svg_path = args[++i];
    } else if (!options_done && a.starts_with("--svg=")) {
      o.svg_path = a.substr(6);
    } else if (!options_done && a.size() > 1 && a[0] == '-' && !(a[1] >= '0' && a[1] <= '9')) {
      std::cerr << "ERROR: unknown option '" << a << "'\n\n";
      print_usage(std::cerr);
      return 2;
    } else {
      // Several words are one expression: `cute-dsl layout size( 4:1 )` works unquoted.
      if (!o.expression.empty()) o.expression += ' ';
      o.expression += a;
    }
  }
  if (o.batch && (o.table || !o.svg_path.empty() || !o.expression.empty())) {
    std::cerr << "ERROR: --batch reads expressions from stdin and takes no EXPR, --table or --svg\n";
    return 2;
  }
  if (!o.batch && o.expression.empty()) {
    std::cerr << "ERROR: no expression given\n\n";
    print_usage(std::cerr);
    return 2;
  }
  return 0;
}

#if CUTE_DSL_TOOL_HAS_JIT
// The CuTe notation of a shape or stride, ((2,2),3), as a JSON array, [[2,2],3]: the printer
// writes only integers, commas and parentheses, so brackets for parentheses are the whole change.
std::string nested_array(std::string notation) {
  for (char& c : notation) c = c == '(' ? '[' : c == ')' ? ']' : c;
  return notation;
}

std::string layout_json_members(const runtime::Layout& l) {
  const tree::Tree& t = l.tree();
  return "\"text\": " + jit::json_string(l.to_string()) + ", \"shape\": " + nested_array(runtime::int_tuple_to_string(t)) +
         ", \"stride\": " + nested_array(runtime::stride_to_string(t)) + ", \"size\": " + std::to_string(l.size()) +
         ", \"cosize\": " + std::to_string(l.cosize()) + ", \"rank\": " + std::to_string(l.rank()) +
         ", \"depth\": " + std::to_string(l.depth());
}

// One JSON object, one line: {"expression": ..., "kind": ..., "text": ..., ...}.
std::string value_json(const std::string& expression, const runtime::Value& v, const std::string* table) {
  std::string out = "{\"expression\": " + jit::json_string(expression);
  if (const auto* i = std::get_if<tree::index_t>(&v)) {
    out += ", \"kind\": \"integer\", \"text\": \"" + std::to_string(*i) + "\", \"value\": " + std::to_string(*i);
  } else if (const auto* l = std::get_if<runtime::Layout>(&v)) {
    out += ", \"kind\": \"layout\", " + layout_json_members(*l);
    if (table) out += ", \"table\": " + jit::json_string(*table);
  } else {
    const auto& tiler = std::get<runtime::Tiler>(v);
    out += ", \"kind\": \"tiler\", \"text\": " + jit::json_string(tiler.to_string()) + ", \"modes\": [";
    for (int k = 0; k < tiler.rank(); ++k) out += (k ? ", {" : "{") + layout_json_members(tiler.mode(k)) + "}";
    out += "]";
  }
  return out + "}";
}

std::string error_json(const std::string& expression, const std::string& message) {
  return "{\"expression\": " + jit::json_string(expression) + ", \"error\": " + jit::json_string(message) + "}";
}
#endif

int run_batch([[maybe_unused]] bool json) {
  std::ios::sync_with_stdio(false);
  std::string line;
  bool any_failed = false;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    try {
      const runtime::Value v = runtime::evaluate_expression(line);
#if CUTE_DSL_TOOL_HAS_JIT
      if (json) std::cout << value_json(line, v, nullptr) << '\n';
      else
#endif
        std::cout << runtime::to_string(v) << '\n';
    } catch (const std::exception& e) {
#if CUTE_DSL_TOOL_HAS_JIT
      if (json) std::cout << error_json(line, e.what()) << '\n';
      else
#endif
        std::cout << "ERROR: " << one_line(e.what()) << '\n';
      any_failed = true;
    }
    std::cout.flush();  // a driver may wait for each answer before sending the next line
    if (!std::cout) break;  // nobody reads the answers any more: main() reports it
  }
  return any_failed ? 1 : 0;
}

int run_single(const Options& o) {
  // Everything is computed before anything is printed, so a failure leaves stdout empty.
  std::string out;
  try {
    const runtime::Value v = runtime::evaluate_expression(o.expression);
    const auto* layout = std::get_if<runtime::Layout>(&v);
    if ((o.table || !o.svg_path.empty()) && !layout)
      throw std::invalid_argument(std::string(o.table ? "--table" : "--svg") + " needs a layout, but the result is " +
                                  runtime::kind_name(v) + ": " + runtime::to_string(v));
    out = o.table ? runtime::layout_table(*layout) : runtime::to_string(v) + "\n";
#if CUTE_DSL_TOOL_HAS_JIT
    if (o.json) out = value_json(o.expression, v, o.table ? &out : nullptr) + "\n";
#endif
    if (!o.svg_path.empty()) {
      const std::string svg = runtime::layout_svg(*layout);
      std::ofstream f(o.svg_path, std::ios::binary);
      if (!(f << svg) || !f.flush()) throw std::runtime_error("cannot write the SVG file '" + o.svg_path + "'");
    }
  } catch (const std::exception& e) {
    std::cerr << "ERROR: " << one_line(e.what()) << '\n';
    return 1;
  }
  std::cout << out << std::flush;
  return std::cout ? 0 : 1;
}

}  // namespace

int layout_command(std::span<char* const> args) {
  Options o;
  const int status = parse_options(args, o);
  if (status != 0) return status < 0 ? 0 : status;
  return o.batch ? run_batch(o.json) : run_single(o);
}

}  // namespace cute_dsl::tools
