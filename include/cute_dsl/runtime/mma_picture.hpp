// Pictures of a TiledMMA: which thread holds which element of A (M x K), B (N x K) and C (M x N),
// as text tables (cells "T<thread>V<value>") and as one SVG with the three panels, each cell
// coloured by its thread. CuTe's print_latex/print_svg of a TiledMMA, for terminals and
// browsers. Host-only (std::string); compiles to nothing under NVRTC.
//
//   auto mma = make_tiled_mma(MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>{}, make_layout(make_shape(_2{}, _2{}, _1{})));
//   std::cout << runtime::mma_table(mma, MmaOperand::C);
//   std::ofstream("mma.svg") << runtime::mma_svg(mma);
//
// Operands read through wgmma descriptors are not split among threads: their cells say "smem"
// (every thread of the warpgroup addresses the whole block). A register element held by several
// threads (mma.sync's A in two atoms along N) names the lowest thread, as tiled_copy_picture does.
#pragma once

#include "cute_dsl/config.hpp"

#if CUTE_DSL_HOST_ONLY_CODE

#include <algorithm>
#include <string>
#include <vector>

#include "cute_dsl/atom/tiled_mma.hpp"
#include "cute_dsl/runtime/svg.hpp"

namespace cute_dsl {

enum class MmaOperand { A, B, C };

namespace runtime {

// One cell: the (thread, value) holding the element, and how many threads hold it.
struct MmaCell {
  int thread = -1;
  int value = -1;
  int holders = 0;
};

// rows x cols cells of one operand's tile (A: M x K, B: N x K, C: M x N).
struct MmaGrid {
  int rows = 0, cols = 0;
  std::vector<MmaCell> cells;  // column-major: cells[r + rows * c]
  bool smem = false;           // read through a shared-memory descriptor, not held by threads
  MmaCell const& at(int r, int c) const { return cells[static_cast<std::size_t>(r + rows * c)]; }
};

namespace detail {
template <class Tiled, class Frg>
MmaGrid fill_mma_grid(Tiled const& mma, Frg const& frg, int rows, int cols, MmaOperand which) {
  MmaGrid g{rows, cols, std::vector<MmaCell>(static_cast<std::size_t>(rows * cols))};
  auto values = layout<1>(frg);
  for (int t = 0; t < Tiled::num_threads; ++t) {
    auto s = mma.get_slice(t);
    int i = which == MmaOperand::B ? s.thr_n : s.thr_m;
    int j = which == MmaOperand::C ? s.thr_n : s.thr_k;
    long base = long(layout<0>(frg)(make_coord(s.thr_v, make_coord(i, j))));
    for (int v = 0; v < int(size(values)); ++v) {
      long off = base + long(values(v));
      MmaCell& c = g.cells[static_cast<std::size_t>(off)];
      if (c.holders++ == 0) c.thread = t, c.value = v;
    }
  }
  return g;
}
}  // namespace detail

// The grid of one operand over the TiledMMA's tile.
template <class A, class L, class P>
MmaGrid mma_grid(TiledMMA<A, L, P> const& mma, MmaOperand which) {
  using T = TiledMMA<A, L, P>;
  using Op = typename A::op_type;
  constexpr int m = T::template tile_size<0>(), n = T::template tile_size<1>(), k = T::template tile_size<2>();
  switch (which) {
    case MmaOperand::A: {
      MmaGrid g = detail::fill_mma_grid(mma, mma.thrfrg_A(make_layout(make_shape(Int<m>{}, Int<k>{}))), m, k, which);
      g.smem = mma_a_is_descriptor_v<Op>;
      return g;
    }
    case MmaOperand::B: {
      MmaGrid g = detail::fill_mma_grid(mma, mma.thrfrg_B(make_layout(make_shape(Int<n>{}, Int<k>{}))), n, k, which);
      g.smem = mma_b_is_descriptor_v<Op>;
      return g;
    }
    default: return detail::fill_mma_grid(mma, mma.thrfrg_C(make_layout(make_shape(Int<m>{}, Int<n>{}))), m, n, which);
  }
}

// Appends every part to `out` in place (no temporary strings: g++ 12 warns falsely on those).
template <class... Parts>
void append_all(std::string& out, Parts const&... parts) {
  (out.append(parts), ...);
}

inline std::string mma_cell_text(MmaCell const& c, bool smem) {
  if (c.holders == 0) return "-";
  if (smem) return "smem";
  std::string s = "T";
  append_all(s, std::to_string(c.thread), "V", std::to_string(c.value));
  return s;
}

inline const char* mma_operand_name(MmaOperand which) {
  return which == MmaOperand::A ? "A (M x K)" : which == MmaOperand::B ? "B (N x K)" : "C (M x N)";
}

// A text table of one operand: rows walk M (N for B), columns K (N for C).
template <class A, class L, class P>
std::string mma_table(TiledMMA<A, L, P> const& mma, MmaOperand which) {
  MmaGrid g = mma_grid(mma, which);
  std::size_t width = 1;
  for (auto const& c : g.cells) width = std::max(width, mma_cell_text(c, g.smem).size());
  std::string out = mma_operand_name(which);
  out += "\n     ";
  for (int c = 0; c < g.cols; ++c) append_all(out, " ", cute_dsl::runtime::detail::pad_left(std::to_string(c), width));
  out += "\n";
  for (int r = 0; r < g.rows; ++r) {
    append_all(out, cute_dsl::runtime::detail::pad_left(std::to_string(r), 4), " ");
    for (int c = 0; c < g.cols; ++c) append_all(out, " ", cute_dsl::runtime::detail::pad_left(mma_cell_text(g.at(r, c), g.smem), width));
    out += "\n";
  }
  return out;
}

// One SVG: A at the left, B (drawn K x N, as it multiplies) above C, C below it.
template <class A, class L, class P>
std::string mma_svg(TiledMMA<A, L, P> const& mma) {
  constexpr int cell = 30, margin = 30;
  MmaGrid ga = mma_grid(mma, MmaOperand::A), gb = mma_grid(mma, MmaOperand::B), gc = mma_grid(mma, MmaOperand::C);
  const int ax = margin, cy = margin + (ga.cols + 1) * cell;  // A's columns (K) span B's height
  const int cx = ax + (ga.cols + 1) * cell, by = margin;
  const int width = cx + gc.cols * cell + margin, height = cy + gc.rows * cell + margin;
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"";
  append_all(out, std::to_string(width), "\" height=\"", std::to_string(height), "\" font-family=\"monospace\" font-size=\"8\">\n");
  auto panel = [&](MmaGrid const& g, int x0, int y0, bool transpose, const char* name) {
    append_all(out, "<text x=\"", std::to_string(x0), "\" y=\"", std::to_string(y0 - 6), "\" font-size=\"12\">", name, "</text>\n");
    for (int r = 0; r < g.rows; ++r)
      for (int c = 0; c < g.cols; ++c) {
        MmaCell const& m = g.at(r, c);
        int x = x0 + (transpose ? r : c) * cell, y = y0 + (transpose ? c : r) * cell;
        const bool coloured = m.holders >= 1 && !g.smem;
        int hue = coloured ? cute_dsl::runtime::detail::offset_hue(m.thread) : 0;
        std::string fill = "#dddddd";
        if (coloured) {
          fill = "hsl(";
          append_all(fill, std::to_string(hue), ",70%,80%)");
        }
        append_all(out, "<rect x=\"", std::to_string(x), "\" y=\"", std::to_string(y), "\" width=\"", std::to_string(cell),
                   "\" height=\"", std::to_string(cell), "\" fill=\"", fill, "\" stroke=\"black\"/>\n");
        append_all(out, "<text x=\"", std::to_string(x + cell / 2), "\" y=\"", std::to_string(y + cell / 2 + 3),
                   "\" text-anchor=\"middle\">", mma_cell_text(m, g.smem), "</text>\n");
      }
  };
  panel(ga, ax, cy, false, "A");
  panel(gb, cx, by, true, "B");
  panel(gc, cx, cy, false, "C");
  out += "</svg>\n";
  return out;
}

}  // namespace runtime
}  // namespace cute_dsl

#endif  // CUTE_DSL_HOST_ONLY_CODE
