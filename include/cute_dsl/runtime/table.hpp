// CuTe's print_layout table of a rank-2 layout: rows walk mode 0, columns walk mode 1, each
// cell holds the offset of that (row, column) coordinate. The look matches CuTe's so that
// pictures in CuTe's documentation and ours can be compared by eye:
//
//   (2,3):(3,1)
//         0   1   2
//       +---+---+---+
//    0  | 0 | 1 | 2 |
//       +---+---+---+
//    1  | 3 | 4 | 5 |
//       +---+---+---+
//
// The cell width is the number of digits of the cosize (widened if an offset or a column index
// needs more); the row labels are at least two wide, as in CuTe.
#pragma once

#include "cute_dsl/config.hpp"

#if CUTE_DSL_HOST_ONLY_CODE
#include "cute_dsl/runtime/layout.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace cute_dsl::runtime {

// Larger layouts are refused: a table of more cells is unreadable and would flood the terminal.
inline constexpr tree::index_t kMaxPictureCells = 1 << 16;

// The offsets of a rank-2 layout as rows × columns; throws LayoutError naming `function` if the
// layout is not rank 2 or is larger than kMaxPictureCells.
inline std::vector<std::vector<tree::index_t>> offset_grid(const Layout& l, const char* function) {
  if (l.rank() != 2)
    throw LayoutError(function, tree::Error::rank_mismatch,
                      "needs a rank-2 layout (rows = mode 0, columns = mode 1), got rank " +
                          std::to_string(l.rank()) + ": " + l.to_string());
  const Layout rows = l.mode(0), cols = l.mode(1);
  const tree::index_t m = rows.size(), n = cols.size();
  if (m > kMaxPictureCells || n > kMaxPictureCells || m * n > kMaxPictureCells)
    throw LayoutError(function, tree::Error::capacity,
                      "the layout has " + std::to_string(m) + "x" + std::to_string(n) + " cells, more than " +
                          std::to_string(kMaxPictureCells) + " (" + l.to_string() + ")");
  std::vector<std::vector<tree::index_t>> grid(static_cast<std::size_t>(m));
  for (tree::index_t r = 0; r < m; ++r) {
    const tree::index_t row_offset = rows(r);
    grid[static_cast<std::size_t>(r)].reserve(static_cast<std::size_t>(n));
    for (tree::index_t c = 0; c < n; ++c) grid[static_cast<std::size_t>(r)].push_back(row_offset + cols(c));
  }
  return grid;
}

namespace detail {
inline std::string pad_left(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}
}  // namespace detail

// The table as text, ending in a newline; the first line is the layout itself.
inline std::string layout_table(const Layout& l) {
  const auto grid = offset_grid(l, "table");
  const std::size_t rows = grid.size(), cols = grid.empty() ? 0 : grid[0].size();

  // Cell text width: CuTe uses the digits of cosize; wider offsets or column indices widen it.
  std::size_t width = std::to_string(l.cosize()).size();
  if (cols > 0) width = std::max(width, std::to_string(cols - 1).size());
  for (const auto& row : grid)
    for (tree::index_t v : row) width = std::max(width, std::to_string(v).size());
  const std::size_t label = std::max<std::size_t>(2, rows > 0 ? std::to_string(rows - 1).size() : 1);
  const std::string indent(label + 2, ' ');

  std::string rule = indent;
  for (std::size_t c = 0; c < cols; ++c) rule.append(1, '+').append(width + 2, '-');
  rule += "+\n";

  std::string out = l.to_string() + "\n" + indent;
  for (std::size_t c = 0; c < cols; ++c) out.append("  ").append(detail::pad_left(std::to_string(c), width)).append(" ");
  out += "\n";
  for (std::size_t r = 0; r < rows; ++r) {
    out += rule;
    out += detail::pad_left(std::to_string(r), label) + "  ";
    for (tree::index_t v : grid[r]) out += "| " + detail::pad_left(std::to_string(v), width) + " ";
    out += "|\n";
  }
  out += rule;
  return out;
}

}  // namespace cute_dsl::runtime
#endif  // CUTE_DSL_HOST_ONLY_CODE
