// libFuzzer target: arbitrary bytes as a `cute-dsl layout` expression.
//
// Contract under test: the reader, the evaluator and the algebra behind it never crash, hang,
// leak or hit undefined behaviour (ASan + UBSan), whatever the text. Failing with one of our
// exceptions is fine; any other exception escapes and libFuzzer reports it. A layout result
// must also print as text that reads back to the same tree, and a small rank-2 result must
// render as a table and an SVG picture.
#include "cute_dsl/runtime/expression.hpp"
#include "cute_dsl/runtime/svg.hpp"
#include "cute_dsl/runtime/table.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace {

[[noreturn]] void broken(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_layout_expression: %s: %s\n", what, detail.c_str());
  std::abort();
}

void check_layout(const cute_dsl::runtime::Layout& l) {
  using namespace cute_dsl::runtime;
  const std::string text = l.to_string();
  try {
    if (!(parse_layout(text) == l.tree())) broken("print/parse round trip changed the layout", text);
  } catch (const cute_dsl::ParseError& e) {
    broken("a result does not read back", text + " (" + e.what() + ")");
  }
  if (l.rank() == 2 && l.size() <= 4096) {
    const std::string table = layout_table(l);
    if (table.rfind(text + "\n", 0) != 0) broken("table does not start with the layout", text);
    const std::string svg = layout_svg(l);
    if (svg.find("</svg>") == std::string::npos) broken("svg is not closed", text);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const cute_dsl::runtime::Value v = cute_dsl::runtime::evaluate_expression(text);
    const std::string printed = cute_dsl::runtime::to_string(v);
    if (printed.empty()) broken("empty result text", std::string(text));
    if (const auto* l = std::get_if<cute_dsl::runtime::Layout>(&v)) check_layout(*l);
    if (const auto* t = std::get_if<cute_dsl::runtime::Tiler>(&v))
      for (int k = 0; k < t->rank(); ++k) check_layout(t->mode(k));
  } catch (const cute_dsl::ParseError&) {
  } catch (const cute_dsl::ExpressionError&) {
  } catch (const cute_dsl::LayoutError&) {
  }
  return 0;
}
