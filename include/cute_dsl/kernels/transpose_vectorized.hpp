// Out-of-place transpose of a row-major matrix of 4-byte elements with 16-byte accesses on both
// sides: out (cols x rows) = in^T, out[c * rows + r] = in[r * cols + c].
//
//   transpose_vec4_kernel<T, TileRows, TileCols, Threads>
//       <<<transpose_grid(rows, cols, TileRows, TileCols), Threads>>>(out, in, rows, cols)
//
// Defaults (elementwise_defaults.hpp, measured on the H200): 128 x 64 tiles, 256 threads
// (0.929x cudaMemcpy at 2 GiB, the best of the sweep; cuBLAS geam transpose 0.904x).
//
// Why: the scalar tile transpose (transpose.hpp) moves 4 bytes per instruction and reads shared
// memory one column element at a time; at 8192 x 8192 f32 it reaches ~0.8x cudaMemcpy. Here a
// block moves one TileRows x TileCols tile of `in`, and each thread owns 4 x 4 blocks of it: it
// loads a block's 4 rows as four 16-byte vectors (a warp reads row segments of TileCols
// elements), transposes the 4 x 4 in registers, and writes the 4 rows of the transposed block to
// shared memory as 16-byte vectors; the write-out step then reads 16-byte rows of the transposed
// tile and stores them to `out` (row segments of TileRows elements). Shared memory holds the
// TRANSPOSED tile (TileCols rows of TileRows), so both of its accesses are row accesses.
// Rectangular tiles trade the read segment for the write segment (32 x 128: 512-byte reads,
// 128-byte writes).
//
// Why the swizzle: transposed row t, 16-byte chunk k lives at chunk k ^ ((t / 4) % 8) of row t
// (Swizzle<3, 2, log2(TileRows)> on element offsets, transpose_vec4_swizzled). A 16-byte shared
// access is served 8 threads at a time; in the register-to-shared step 8 neighbouring threads
// write rows 4b + e for 8 consecutive b at one chunk, which the XOR spreads over 8 chunk
// positions, i.e. all 32 banks; the read step's 8 threads read 8 consecutive chunks of one row,
// which the XOR permutes. No padding, so every row stays 16-byte aligned.
//
// Requirements: sizeof(T) == 4; TileRows and TileCols powers of two >= 32; Threads a multiple of
// 32 dividing (TileRows / 4) x (TileCols / 4); TileRows x TileCols x 4 bytes <= 48 KiB. Any rows
// and cols: when both are multiples of 4 and both pointers are 16-byte aligned the vector path
// runs (edge tiles checked per 4-element chunk); otherwise every element is loaded and stored
// singly with its own bounds check (correct, slower). `out` must not overlap `in`.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/kernels/elementwise_defaults.hpp"
#include "cute_dsl/layout/swizzle.hpp"
#include "cute_dsl/numeric/math.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

namespace cute_dsl::kernels {

// Offset of element (row, col) of the swizzled transposed tile (rows of `Pitch` elements): 16-byte
// chunk col / 4 of row `row` moves to chunk (col / 4) ^ ((row / 4) % 8). This is
// Swizzle<3, 2, log2(Pitch)> applied to row * Pitch + col (checked below), written out in 32-bit
// arithmetic: NVRTC, unlike nvcc, emits Swizzle's static members as globals and widens the math,
// and then the JIT's SASS would differ from nvcc's (test/kernels/same_code_test.cpp).
template <int Pitch>
CUTE_DSL_HOST_DEVICE constexpr int transpose_vec4_swizzled(int row, int col) {
  return row * Pitch + (((col >> 2) ^ ((row >> 2) & 7)) << 2) + (col & 3);
}
static_assert(transpose_vec4_swizzled<64>(13, 22) == Swizzle<3, 2, 6>::apply_value(13 * 64 + 22));
static_assert(transpose_vec4_swizzled<64>(63, 60) == Swizzle<3, 2, 6>::apply_value(63 * 64 + 60));
static_assert(transpose_vec4_swizzled<32>(29, 7) == Swizzle<3, 2, 5>::apply_value(29 * 32 + 7));

template <class T, int TileRows = kTransposeVec4TileRows, int TileCols = kTransposeVec4TileCols,
          int Threads = kTransposeVec4Threads>
__global__ void __launch_bounds__(Threads)
transpose_vec4_kernel(T* __restrict__ out, const T* __restrict__ in, long long rows, long long cols) {
  static_assert(sizeof(T) == 4, "transpose_vec4_kernel: 4-byte elements (a 16-byte vector is 4 of them)");
  static_assert(TileRows >= 32 && has_single_bit(TileRows) && TileCols >= 32 && has_single_bit(TileCols),
                "transpose_vec4_kernel: TileRows and TileCols powers of two >= 32 (8 chunks for the swizzle)");
  static_assert(TileRows * TileCols * 4 <= 48 * 1024, "transpose_vec4_kernel: the tile must fit 48 KiB of static shared memory");
  constexpr int kRowChunks = TileRows / 4;              // 4x4 blocks down the tile = chunks per transposed row
  constexpr int kColChunks = TileCols / 4;              // 4x4 blocks across the tile = chunks per input row
  constexpr int kBlocks = kRowChunks * kColChunks;
  static_assert(Threads % 32 == 0 && kBlocks % Threads == 0,
                "transpose_vec4_kernel: Threads a multiple of 32 dividing (TileRows/4) x (TileCols/4)");
  constexpr int kPerThread = kBlocks / Threads;         // 4x4 blocks per thread: 4 x kPerThread loads in flight
  struct alignas(16) Vec4 { T v[4]; };
  __shared__ alignas(16) T tile[TileCols * TileRows];   // the transposed tile, swizzled

  const long long tiles_c = (cols + TileCols - 1) / TileCols;
  const long long r0 = (static_cast<long long>(blockIdx.x) / tiles_c) * TileRows;
  const long long c0 = (static_cast<long long>(blockIdx.x) % tiles_c) * TileCols;
  const bool vec = rows % 4 == 0 && cols % 4 == 0 &&
                   (reinterpret_cast<unsigned long long>(in) | reinterpret_cast<unsigned long long>(out)) % 16 == 0;

  // Load: block (a, b) = tile rows 4a..4a+3, columns 4b..4b+3; neighbouring threads take
  // neighbouring b, so a warp reads TileCols-element row segments.
  Vec4 x[kPerThread][4] = {};  // zeros where an edge tile has no data (never stored)
#pragma unroll
  for (int p = 0; p < kPerThread; ++p) {
    const int blk = static_cast<int>(threadIdx.x) + p * Threads;
    const int a = blk / kColChunks, b = blk % kColChunks;
    const long long c = c0 + 4 * b;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const long long r = r0 + 4 * a + k;
      const T* src = in + r * cols + c;
      if (vec) {
        if (r < rows && c < cols) x[p][k] = *reinterpret_cast<const Vec4*>(src);
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e)
          if (r < rows && c + e < cols) x[p][k].v[e] = src[e];
      }
    }
  }
  // Transposed row 4b + e, chunk a = (x[0].v[e], x[1].v[e], x[2].v[e], x[3].v[e]).
#pragma unroll
  for (int p = 0; p < kPerThread; ++p) {
    const int blk = static_cast<int>(threadIdx.x) + p * Threads;
    const int a = blk / kColChunks, b = blk % kColChunks;
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const Vec4 t{{x[p][0].v[e], x[p][1].v[e], x[p][2].v[e], x[p][3].v[e]}};
      *reinterpret_cast<Vec4*>(&tile[transpose_vec4_swizzled<TileRows>(4 * b + e, 4 * a)]) = t;
    }
  }
  __syncthreads();
  // Store: transposed row j is out row c0 + j; chunk q holds out columns r0 + 4q .. r0 + 4q + 3.
#pragma unroll
  for (int p = 0; p < kPerThread; ++p) {
#pragma unroll
    for (int h = 0; h < 4; ++h) {  // 4 chunks per thread per p: as many as it loaded
      const int idx = static_cast<int>(threadIdx.x) + (p * 4 + h) * Threads;
      const int j = idx / kRowChunks, q = idx % kRowChunks;
      const long long oc = c0 + j, orow = r0 + 4 * q;
      if (oc >= cols) continue;
      const Vec4 t = *reinterpret_cast<const Vec4*>(&tile[transpose_vec4_swizzled<TileRows>(j, 4 * q)]);
      T* dst = out + oc * rows + orow;
      if (vec) {
        if (orow < rows) *reinterpret_cast<Vec4*>(dst) = t;
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e)
          if (orow + e < rows) dst[e] = t.v[e];
      }
    }
  }
}

}  // namespace cute_dsl::kernels

#endif  // __CUDACC__ || __CUDACC_RTC__
