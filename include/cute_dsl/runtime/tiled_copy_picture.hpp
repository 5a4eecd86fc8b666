// Pictures of a TiledCopy: which thread holds which element of the tile, on the source and on
// the destination side (CuTe's print_latex of a TiledCopy, as text and SVG).
//
//   std::cout << cute_dsl::runtime::tiled_copy_table(tc);         // two grids of "T<thread>V<value>"
//   std::ofstream("copy.svg") << cute_dsl::runtime::tiled_copy_svg(tc);
//
// Rows walk the tile's mode 0 (M), columns mode 1 (N); a 1-D tiler is drawn as one column. When
// several threads hold the same element (ldmatrix's source rows are given by 8 of 32 threads in
// its x1 form; the others repeat them), the cell names the lowest thread. Colours (SVG) follow the
// thread, so one thread's elements stand out on both sides.
#pragma once

#include "cute_dsl/config.hpp"

#if CUTE_DSL_HOST_ONLY_CODE
#include "cute_dsl/atom/tiled_copy.hpp"
#include "cute_dsl/runtime/svg.hpp"
#include "cute_dsl/runtime/table.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace cute_dsl::runtime {

// The owner of each tile element: (thread, value), or (-1, -1) for elements nobody holds.
struct CopyOwner {
  int thread = -1;
  int value = -1;
};
struct CopyOwnerGrid {
  int rows = 0, cols = 0;
  std::vector<CopyOwner> cells;  // column-major, rows*cols
  const CopyOwner& at(int r, int c) const { return cells[std::size_t(r + c * rows)]; }
};

// `ThrVal` maps ((thread...), (value...)) -> index in the tile (column-major over the tiler).
template <class ThrVal, class Tiler>
CopyOwnerGrid copy_owner_grid() {
  CopyOwnerGrid g;
  if constexpr (is_tuple_v<Tiler>) {
    g.rows = int(size<0>(Tiler{}));
    g.cols = int(size(Tiler{})) / g.rows;
  } else {
    g.rows = int(Tiler{});
    g.cols = 1;
  }
  g.cells.resize(std::size_t(g.rows) * std::size_t(g.cols));
  const int threads = int(size<0>(ThrVal{})), values = int(size<1>(ThrVal{}));
  for (int t = 0; t < threads; ++t)
    for (int v = 0; v < values; ++v) {
      const long long idx = static_cast<long long>(ThrVal{}(t, v));
      if (idx < 0 || idx >= static_cast<long long>(g.cells.size())) continue;
      CopyOwner& cell = g.cells[std::size_t(idx)];
      if (cell.thread < 0 || t < cell.thread) cell = CopyOwner{t, v};
    }
  return g;
}

namespace detail {
inline std::string owner_text(const CopyOwner& o) {
  if (o.thread < 0) return "-";
  std::string s = "T";  // appended in place: g++ 12 warns falsely (-Wrestrict) on "T" + to_string(...)
  s += std::to_string(o.thread);
  s += 'V';
  s += std::to_string(o.value);
  return s;
}

inline std::string owner_table(const CopyOwnerGrid& g, const std::string& title) {
  std::size_t width = 1;
  for (const auto& o : g.cells) width = std::max(width, owner_text(o).size());
  width = std::max(width, std::to_string(g.cols - 1).size());
  const std::size_t label = std::max<std::size_t>(2, std::to_string(g.rows - 1).size());
  const std::string indent(label + 2, ' ');
  std::string rule = indent;
  for (int c = 0; c < g.cols; ++c) rule.append(1, '+').append(width + 2, '-');
  rule += "+\n";
  std::string out = title + "\n" + indent;
  for (int c = 0; c < g.cols; ++c) out.append("  ").append(pad_left(std::to_string(c), width)).append(" ");
  out += "\n";
  for (int r = 0; r < g.rows; ++r) {
    out += rule + pad_left(std::to_string(r), label) + "  ";
    for (int c = 0; c < g.cols; ++c) out += "| " + pad_left(owner_text(g.at(r, c)), width) + " ";
    out += "|\n";
  }
  return out + rule;
}

inline void owner_svg_grid(std::string& s, const CopyOwnerGrid& g, int left, int top, const std::string& title) {
  constexpr int cell = 44;
  auto num = [](long long v) { return std::to_string(v); };
  s += "<text x=\"" + num(left + g.cols * cell / 2) + "\" y=\"" + num(top - 30) + "\" font-size=\"15\">" +
       xml_escape(title) + "</text>\n";
  for (int c = 0; c < g.cols; ++c)
    s += "<text class=\"col-index\" x=\"" + num(left + c * cell + cell / 2) + "\" y=\"" + num(top - 10) +
         "\" fill=\"#555\">" + num(c) + "</text>\n";
  for (int r = 0; r < g.rows; ++r) {
    const int y = top + r * cell;
    s += "<text class=\"row-index\" x=\"" + num(left - 14) + "\" y=\"" + num(y + cell / 2) + "\" fill=\"#555\">" + num(r) +
         "</text>\n";
    for (int c = 0; c < g.cols; ++c) {
      const CopyOwner& o = g.at(r, c);
      const int x = left + c * cell;
      const std::string fill = o.thread < 0 ? "#eeeeee" : "hsl(" + num(offset_hue(o.thread)) + ",70%,78%)";
      s += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(cell) + "\" height=\"" + num(cell) +
           "\" fill=\"" + fill + "\" stroke=\"black\"/>";
      if (o.thread >= 0)
        s += "<text x=\"" + num(x + cell / 2) + "\" y=\"" + num(y + cell / 3) + "\">T" + num(o.thread) + "</text><text x=\"" +
             num(x + cell / 2) + "\" y=\"" + num(y + 2 * cell / 3) + "\">V" + num(o.value) + "</text>";
      s += "\n";
    }
  }
}
}  // namespace detail

// Both sides as text: "source" then "destination", each a grid of T<thread>V<value> cells.
template <class Atom, class LTV, class Tl>
std::string tiled_copy_table(TiledCopy<Atom, LTV, Tl> const&) {
  using TC = TiledCopy<Atom, LTV, Tl>;
  return detail::owner_table(copy_owner_grid<typename TC::ThrValSrc, Tl>(), "source (thread, value)") +
         detail::owner_table(copy_owner_grid<typename TC::ThrValDst, Tl>(), "destination (thread, value)");
}

// Both sides as one SVG document, source on the left.
template <class Atom, class LTV, class Tl>
std::string tiled_copy_svg(TiledCopy<Atom, LTV, Tl> const&) {
  using TC = TiledCopy<Atom, LTV, Tl>;
  const CopyOwnerGrid src = copy_owner_grid<typename TC::ThrValSrc, Tl>();
  const CopyOwnerGrid dst = copy_owner_grid<typename TC::ThrValDst, Tl>();
  constexpr int cell = 44, margin = 40, top = 80;
  const int left_src = margin, left_dst = margin + src.cols * cell + 2 * margin;
  const int width = left_dst + dst.cols * cell + margin;
  const int height = top + std::max(src.rows, dst.rows) * cell + margin;
  const std::string w = std::to_string(width), h = std::to_string(height);
  std::string s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" +
                  w + "\" height=\"" + h + "\" viewBox=\"0 0 " + w + " " + h + "\">\n<title>TiledCopy</title>\n";
  s += "<rect x=\"0\" y=\"0\" width=\"" + w + "\" height=\"" + h + "\" fill=\"white\"/>\n";
  s += "<g font-family=\"monospace\" font-size=\"11\" text-anchor=\"middle\" dominant-baseline=\"central\">\n";
  detail::owner_svg_grid(s, src, left_src, top, "source");
  detail::owner_svg_grid(s, dst, left_dst, top, "destination");
  return s + "</g>\n</svg>\n";
}

}  // namespace cute_dsl::runtime
#endif  // CUTE_DSL_HOST_ONLY_CODE
