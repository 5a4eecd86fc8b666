// Out-of-place matrix transpose through a shared-memory tile: out (cols x rows) = in^T, both
// row-major (out[c * rows + r] = in[r * cols + c]).
//
//   transpose_kernel<T, Tile, Rows><<<transpose_grid(rows, cols, Tile), Tile * Rows>>>(out, in, rows, cols)
//
// Each block moves one Tile x Tile tile: its Tile * Rows threads read the tile row by row
// (coalesced: a warp reads Tile consecutive elements), park it in shared memory, and write it back
// column by column of the tile, which are rows of `out` (coalesced again). Each thread keeps
// Tile / Rows loads in flight. Any rows and cols (edge tiles are bounds-checked); `out` and `in`
// must not overlap; pointers need only T's alignment.
//
// Why the padded tile is free of bank conflicts: the write-out step reads a tile column, i.e. one
// element from each of 32 rows. With a row pitch of Tile + Pad elements whose size in 4-byte words
// is odd, those 32 elements fall in 32 different banks: Pad = 1 element for 4- and 8-byte types
// (pitch 33 words, or 66 words read as 64-bit pairs), 2 for 2-byte types (Tile = 32 or 64: pitch
// 17 or 33 words), 4 for 1-byte types. The pitch lives in one place: the tile's layout.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)  // kernels only where a CUDA compiler reads this

namespace cute_dsl::kernels {

// Padding (in elements) that makes the tile's row pitch an odd number of 4-byte words.
template <class T>
inline constexpr int transpose_tile_pad = sizeof(T) >= 4 ? 1 : static_cast<int>(4 / sizeof(T));

template <class T, int Tile, int Rows>
__global__ void __launch_bounds__(Tile * Rows)
transpose_kernel(T* __restrict__ out, const T* __restrict__ in, long long rows, long long cols) {
  static_assert(Tile % 32 == 0, "transpose_kernel: Tile must be a multiple of 32 (one warp spans a tile row)");
  static_assert(Rows >= 1 && Tile % Rows == 0, "transpose_kernel: Rows must divide Tile");
  constexpr int kPad = transpose_tile_pad<T>;
  // Row-major Tile x Tile with a padded pitch: element (r, c) at r * (Tile + kPad) + c.
  constexpr auto tile_layout =
      make_layout(make_shape(Int<Tile>{}, Int<Tile>{}), make_stride(Int<Tile + kPad>{}, Int<1>{}));
  __shared__ T tile[Tile * (Tile + kPad)];

  const long long tiles_c = (cols + Tile - 1) / Tile;
  const long long r0 = (static_cast<long long>(blockIdx.x) / tiles_c) * Tile;
  const long long c0 = (static_cast<long long>(blockIdx.x) % tiles_c) * Tile;
  const int tx = static_cast<int>(threadIdx.x) % Tile;
  const int ty = static_cast<int>(threadIdx.x) / Tile;

#pragma unroll
  for (int k = 0; k < Tile / Rows; ++k) {
    const int r = ty + k * Rows;
    if (r0 + r < rows && c0 + tx < cols) tile[tile_layout(r, tx)] = in[(r0 + r) * cols + c0 + tx];
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < Tile / Rows; ++k) {
    const int c = ty + k * Rows;  // a row of `out`, a column of the tile
    if (c0 + c < cols && r0 + tx < rows) out[(c0 + c) * rows + r0 + tx] = tile[tile_layout(tx, c)];
  }
}

}  // namespace cute_dsl::kernels

#endif  // a CUDA compiler
