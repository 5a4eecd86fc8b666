// An SVG picture of a rank-2 layout: one cell per (row, column) coordinate, rows walking mode 0
// and columns mode 1, each cell filled with a colour chosen by its offset and labelled with it.
//
// Why colour by offset: cells that alias (same offset) get the same colour, and neighbouring
// offsets get clearly different hues (steps of the golden angle), so both broadcast strides and
// the traversal order are visible at a glance. Plain SVG 1.1 text, no fonts or scripts needed.
#pragma once

#include "cute_dsl/config.hpp"

#if CUTE_DSL_HOST_ONLY_CODE
#include "cute_dsl/runtime/table.hpp"

#include <string>

namespace cute_dsl::runtime {

namespace detail {

// Hue in degrees for an offset: multiples of ~137.5° (the golden angle) spread consecutive
// offsets around the wheel; integer arithmetic keeps the output identical on every platform.
inline int offset_hue(tree::index_t offset) {
  const tree::index_t h = (offset % 360) * 1375 / 10 % 360;
  return static_cast<int>(h < 0 ? h + 360 : h);
}

inline std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace detail

// The picture as a complete SVG document.
inline std::string layout_svg(const Layout& l) {
  const auto grid = offset_grid(l, "svg");
  const std::size_t rows = grid.size(), cols = grid.empty() ? 0 : grid[0].size();
  constexpr int cell = 36, margin = 40, caption = 28;
  const int left = margin, top = margin + caption;
  const int width = left + static_cast<int>(cols) * cell + margin / 2;
  const int height = top + static_cast<int>(rows) * cell + margin / 2;
  const std::string title = detail::xml_escape(l.to_string());
  auto num = [](long long v) { return std::to_string(v); };

  std::string s;
  s += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + num(width) + "\" height=\"" +
       num(height) + "\" viewBox=\"0 0 " + num(width) + " " + num(height) + "\">\n";
  s += "<title>" + title + "</title>\n";
  s += "<rect x=\"0\" y=\"0\" width=\"" + num(width) + "\" height=\"" + num(height) + "\" fill=\"white\"/>\n";
  s += "<g font-family=\"monospace\" font-size=\"13\" text-anchor=\"middle\" dominant-baseline=\"central\">\n";
  s += "<text x=\"" + num(width / 2) + "\" y=\"" + num(margin / 2) + "\" font-size=\"15\">" + title + "</text>\n";
  for (std::size_t c = 0; c < cols; ++c)  // column indices (mode 1) above the grid
    s += "<text class=\"col-index\" x=\"" + num(left + static_cast<long long>(c) * cell + cell / 2) + "\" y=\"" +
         num(top - cell / 2) + "\" fill=\"#555\">" + num(static_cast<long long>(c)) + "</text>\n";
  for (std::size_t r = 0; r < rows; ++r) {
    const long long y = top + static_cast<long long>(r) * cell;
    s += "<text class=\"row-index\" x=\"" + num(left - cell / 2) + "\" y=\"" + num(y + cell / 2) +
         "\" fill=\"#555\">" + num(static_cast<long long>(r)) + "</text>\n";
    for (std::size_t c = 0; c < cols; ++c) {
      const long long x = left + static_cast<long long>(c) * cell;
      const tree::index_t v = grid[r][c];
      s += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(cell) + "\" height=\"" + num(cell) +
           "\" fill=\"hsl(" + num(detail::offset_hue(v)) + ",70%,78%)\" stroke=\"black\"/>";
      s += "<text x=\"" + num(x + cell / 2) + "\" y=\"" + num(y + cell / 2) + "\">" + num(v) + "</text>\n";
    }
  }
  s += "</g>\n</svg>\n";
  return s;
}

}  // namespace cute_dsl::runtime
#endif  // CUTE_DSL_HOST_ONLY_CODE
