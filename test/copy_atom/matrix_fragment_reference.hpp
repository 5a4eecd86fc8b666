// The PTX ISA's ldmatrix/stmatrix fragment figures as tables, shared by the host tests of the
// atoms' layouts and the GPU tests of the instructions.
// Data numbering (16-bit elements): matrix i, row r, column c of an 8x8 b16 matrix stored row by
// row is element 64*i + 8*r + c -- the order ldmatrix's source rows and stmatrix's destination
// rows have in shared memory.
#pragma once

namespace copy_atom_test {

// PTX ISA, "Matrix fragments for ldmatrix": thread t receives, of each 8x8 matrix, the elements
// (row, col) and (row, col + 1) -- table copied from the figure (row = t/4, col = 2*(t%4)).
inline constexpr int kFragmentRowCol[32][2] = {
    {0, 0}, {0, 2}, {0, 4}, {0, 6}, {1, 0}, {1, 2}, {1, 4}, {1, 6}, {2, 0}, {2, 2}, {2, 4}, {2, 6}, {3, 0}, {3, 2}, {3, 4}, {3, 6},
    {4, 0}, {4, 2}, {4, 4}, {4, 6}, {5, 0}, {5, 2}, {5, 4}, {5, 6}, {6, 0}, {6, 2}, {6, 4}, {6, 6}, {7, 0}, {7, 2}, {7, 4}, {7, 6}};
// With .trans: the elements (row, col) and (row + 1, col) of the stored matrix (row = 2*(t%4), col = t/4).
inline constexpr int kFragmentRowColTrans[32][2] = {
    {0, 0}, {2, 0}, {4, 0}, {6, 0}, {0, 1}, {2, 1}, {4, 1}, {6, 1}, {0, 2}, {2, 2}, {4, 2}, {6, 2}, {0, 3}, {2, 3}, {4, 3}, {6, 3},
    {0, 4}, {2, 4}, {4, 4}, {6, 4}, {0, 5}, {2, 5}, {4, 5}, {6, 5}, {0, 6}, {2, 6}, {4, 6}, {6, 6}, {0, 7}, {2, 7}, {4, 7}, {6, 7}};

// Source side of ldmatrix / destination side of stmatrix with `n` matrices: thread t gives the
// address of row t%8 of matrix t/8; threads from 8n on repeat threads t % 8n (their addresses are
// ignored by the hardware). Value v is column v of that row.
inline int row_side(int n, int t, int v) {
  const int u = t % (8 * n);
  return 64 * (u / 8) + 8 * (u % 8) + v;
}
// Register side: value v = 2*i + j is element j of the pair thread t holds of matrix i.
inline int fragment_side(bool trans, int t, int v) {
  const int i = v / 2, j = v % 2;
  const int* rc = trans ? kFragmentRowColTrans[t] : kFragmentRowCol[t];
  return 64 * i + (trans ? 8 * (rc[0] + j) + rc[1] : 8 * rc[0] + rc[1] + j);
}

}  // namespace copy_atom_test
