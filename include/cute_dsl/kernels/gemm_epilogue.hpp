// The GEMM epilogue: D = alpha * acc + beta * C, converted to D's type, stored from the wgmma
// accumulator registers to global memory -- straight, or (16-bit D) through a small per-warp
// shared-memory block that turns the accumulator layout into full 128-byte row segments -- with
// every row and column checked against M and N (any M, N: the last tiles are partial).
//
// Each thread owns pairs of adjacent columns of the wgmma accumulator (atom/traits/
// mma_traits_sm90.hpp), stored here as one 2-element access.
//
// Element types: float, and __nv_bfloat16 / __half when the including file includes
// <cuda_bf16.h> / <cuda_fp16.h> (the JIT does for bf16/f16 arguments): conversions are their
// constructors from float (round to nearest even) and their conversion to float.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/arch/sm90/gmma_layout.hpp"
#include "cute_dsl/container/tuple.hpp"
#include "cute_dsl/layout/algebra.hpp"

namespace cute_dsl::kernels {

// Where D goes and what C it reads (row-major, leading dimensions and batch strides in elements).
// beta == 0 never reads C (C may be null, or hold NaNs).
template <class TD>
struct GemmEpilogueParams {
  TD* d;
  const TD* c;
  long long ldd, batch_stride_d;
  long long ldc, batch_stride_c;
  int m, n;
  float alpha, beta;
};

// The 16-bit epilogue's per-warp stage: 16 rows x 64 columns of TD, row-major under the 128-byte
// swizzle of the operand rings and GemmSm90Source (gmma_smem_atom's) -- each row one 128-byte
// line whose 16-byte chunks are permuted by the row (mod 8), so that neither 8 rows' pair writes
// in the same columns nor 16-byte row reads hit a bank twice. One flat row mode (the atom tiled
// to (16, 64) splits the row in (8, 2); same offsets, same SASS here).
template <class TD>
CUTE_DSL_HOST_DEVICE constexpr auto gemm_stage_layout() {
  static_assert(sizeof(TD) == 2, "gemm_stage_layout: 16-bit elements (64 columns = one 128-byte row)");
  using Swizzle = remove_cvref_t<decltype(gmma_smem_atom<TD, GmmaMajor::K, GmmaLayoutType::sw128>().layout_a())>;
  return composition(Swizzle{}, make_layout(make_shape(Int<16>{}, Int<64>{}), make_stride(Int<64>{}, Int<1>{})));
}

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

}  // namespace cute_dsl::kernels

#include "cute_dsl/arch/sm75/ldmatrix.hpp"
#include "cute_dsl/arch/sm90/stmatrix.hpp"
#include "cute_dsl/tensor/tensor.hpp"

namespace cute_dsl::kernels {

template <class TD>
struct alignas(2 * sizeof(TD)) GemmOutputPair {
  TD x, y;
};

// Which (row, column) of the tile each accumulator register holds comes from the TiledMMA: the
// caller partitions an identity tensor of the tile exactly like the accumulators
// (thr_mma.partition_C(make_identity_tensor(tile))) and passes both. Fragment element
// 4*j + 2*i + c is one wgmma atom's value (c, i, j) of CLayout (mma_traits_sm90.hpp): c selects
// the column of a pair, i the row half, j the 8-column group; the loops below walk that order so
// that each pair is one 2-element store, and read coordinates only from `crd`.

// The (row, column) of fragment value v: the thread's origin crd(0) (run time) plus value v's own
// offset in the identity tensor, decoded alone (a constant once the loops unroll). Identity
// strides are disjoint bit fields and both parts lie inside the tile, so they never carry into
// each other; decoding the sum at run time instead would cost a shift and a mask per value and
// keep every coordinate live (register spills at 256 columns).
template <class Crd>
CUTE_DSL_DEVICE int gemm_value_row_offset(Crd const& crd, int v) {
  using It = remove_cvref_t<decltype(crd.data())>;
  return int(get<0>(*It{static_cast<long long>(crd.layout()(v))}));
}
template <class Crd>
CUTE_DSL_DEVICE int gemm_value_col_offset(Crd const& crd, int v) {
  using It = remove_cvref_t<decltype(crd.data())>;
  return int(get<1>(*It{static_cast<long long>(crd.layout()(v))}));
}
template <class Crd>
CUTE_DSL_DEVICE int gemm_value_row(Crd const& crd, int v) {
  return int(get<0>(crd(0))) + gemm_value_row_offset(crd, v);
}
template <class Crd>
CUTE_DSL_DEVICE int gemm_value_col(Crd const& crd, int v) {
  return int(get<1>(crd(0))) + gemm_value_col_offset(crd, v);
}
// The first column (in the tile) of the thread's 64-column block b: its value 32 b opens column
// group 8 b, at the group's first column plus 2 (lane % 4) < 8. A consumer's columns start at a
// multiple of 8, not always of 64 (96 for the second half of a 192-column tile split in two).
template <class Crd>
CUTE_DSL_DEVICE int gemm_block_first_col(Crd const& crd, int b) {
  return gemm_value_col(crd, 4 * 8 * b) / 8 * 8;
}

// Stores column groups [j_begin, j_end) (8 columns each) of the accumulator block `acc` (one
// wgmma atom's values, N/2 floats) whose coordinates in the tile are `crd`, the tile's top-left
// element being D(row0, col0) of batch `batch`, straight from the registers.
// Transposed: the kernel computed D^T (A and B swapped: its rows are D's columns), so element
// (row, col) goes to D(col, row) -- and reads C(col, row) -- at col * ldd + row; p.m and p.n are
// D^T's extents. Then no two values of a thread are adjacent in D: one store each.
template <class TD, int N, bool Transposed = false, class Acc, class Crd>
CUTE_DSL_DEVICE void gemm_store_accumulator_columns(Acc const& acc, Crd const& crd, const GemmEpilogueParams<TD>& p, int row0,
                                                    int col0, int batch, int j_begin, int j_end) {
  TD* d = p.d + batch * p.batch_stride_d;
  const bool read_c = p.beta != 0.f;
  const TD* c = read_c ? p.c + batch * p.batch_stride_c : nullptr;  // C may be null when beta == 0
  // Pairs may be stored as one access when every pair starts on a 2-element boundary.
  const bool pairs = !Transposed && (p.ldd % 2 == 0) && (p.batch_stride_d % 2 == 0) &&
                     (reinterpret_cast<unsigned long long>(p.d) % sizeof(GemmOutputPair<TD>) == 0);
  auto at = [](int row, int col, long long ld) { return Transposed ? col * ld + row : row * ld + col; };
  // C is read a block of column groups ahead of the stores: D may alias C (in-place updates), so
  // the compiler may not move a load of C above a store to D, and every load would otherwise
  // wait for the previous store. Each element reads its own C before it writes it: in place is fine.
  // Blocks of 8 groups, or of 4 where N is not whole 64-column blocks (96: a consumer's half of a
  // 192-column tile split between the consumers).
  constexpr int kGroups = N / 8 < 8 ? N / 8 : (N / 8) % 8 == 0 ? 8 : 4;
  static_assert(N % 8 == 0 && (N / 8) % kGroups == 0, "gemm_store_accumulator_columns: N must be whole blocks of column groups");
  // Pair (jj, i) of group block jb: its place in D, false when outside [j_begin, j_end) or M x N.
  auto place = [&](int jb, int jj, int i, int& row, int& col) {
    const int j = jb + jj, v = 4 * j + 2 * i;
    row = row0 + gemm_value_row(crd, v), col = col0 + gemm_value_col(crd, v);
    return j >= j_begin && j < j_end && row < p.m && col < p.n;
  };
#pragma unroll
  for (int jb = 0; jb < N / 8; jb += kGroups) {
    float cv[kGroups][2][2] = {};
    int row, col;
    if (read_c) {
#pragma unroll
      for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int jj = 0; jj < kGroups; ++jj) {
          if (!place(jb, jj, i, row, col)) continue;
          const TD* in = c + at(row, col, p.ldc);
          cv[jj][i][0] = static_cast<float>(in[0]);
          if (col + 1 < p.n) cv[jj][i][1] = static_cast<float>(Transposed ? c[at(row, col + 1, p.ldc)] : in[1]);
        }
    }
#pragma unroll
    for (int i = 0; i < 2; ++i) {
#pragma unroll
      for (int jj = 0; jj < kGroups; ++jj) {
        if (!place(jb, jj, i, row, col)) continue;
        const int v = 4 * (jb + jj) + 2 * i;
        const float v0 = p.alpha * acc(v) + (read_c ? p.beta * cv[jj][i][0] : 0.f);
        const float v1 = p.alpha * acc(v + 1) + (read_c ? p.beta * cv[jj][i][1] : 0.f);
        const bool second = col + 1 < p.n;
        TD* out = d + at(row, col, p.ldd);
        if (second && pairs) {
          *reinterpret_cast<GemmOutputPair<TD>*>(out) = GemmOutputPair<TD>{TD(v0), TD(v1)};
        } else {
          out[0] = TD(v0);
          if (second) (Transposed ? d[at(row, col + 1, p.ldd)] : out[1]) = TD(v1);
        }
      }
    }
  }
}

// The whole block that way.
template <class TD, int N, bool Transposed = false, class Acc, class Crd>
CUTE_DSL_DEVICE void gemm_store_accumulators(Acc const& acc, Crd const& crd, const GemmEpilogueParams<TD>& p, int row0,
                                             int col0, int batch) {
  gemm_store_accumulator_columns<TD, N, Transposed>(acc, crd, p, row0, col0, batch, 0, N / 8);
}

// Shared memory each warp needs for gemm_store_accumulators_staged: a 16 x 64 block of 16-bit D.
inline constexpr int kGemmEpilogueStageBytesPerWarp = 16 * 64 * 2;

// A warp's stage (kGemmEpilogueStageBytesPerWarp bytes) as a tensor of gemm_stage_layout.
template <class TD>
CUTE_DSL_DEVICE auto gemm_stage_block(unsigned char* stage) {
  return make_tensor(make_smem_ptr(reinterpret_cast<TD*>(stage)), gemm_stage_layout<TD>());
}
// Its 16 bytes from (r, 8 k): a row's 16-byte chunk k.
template <class Stage>
CUTE_DSL_DEVICE uint128_t& gemm_stage_chunk(Stage const& stage, int r, int k) {
  return *reinterpret_cast<uint128_t*>(&stage(r, 8 * k));
}

// The widest access, in bytes (16, 8, 4 or 2), at which every row of a matrix of `element_bytes`
// elements starts: its base address, leading dimension and batch stride all multiples of it.
CUTE_DSL_HOST_DEVICE constexpr int gemm_row_access_bytes(unsigned long long address, long long ld, long long batch_stride,
                                                         int element_bytes) {
  const unsigned long long bits =
      address | static_cast<unsigned long long>(ld * element_bytes) | static_cast<unsigned long long>(batch_stride * element_bytes) | 16ull;
  return static_cast<int>(bits & (~bits + 1));  // the lowest set bit
}

// Stores the warp's 16 rows x `row_bytes` (128 or 64) of its stage block to global rows `rows`
// (row r at rows + r * ld elements) in pieces of `piece` bytes (8, 4 or 2; the 16-byte case is the
// caller's), lane after lane along a row. A loop, not unrolled: the path is rare and its code is in
// every GEMM and fused epilogue; stores do not wait for each other.
// @pre every row of `rows` starts on `piece` bytes; the caller __syncwarp()s around it
template <class TD, class Stage>
CUTE_DSL_DEVICE void gemm_stage_store_rows(Stage const& block, TD* rows, long long ld, int row_bytes, int piece, int lane) {
  const int log_piece = piece == 8 ? 3 : piece == 4 ? 2 : 1, log_pieces = (row_bytes == 128 ? 7 : 6) - log_piece;
#pragma unroll 1
  for (int q = lane; q < 16 << log_pieces; q += 32) {
    const int r = q >> log_pieces, byte = (q & ((1 << log_pieces) - 1)) << log_piece;
    const unsigned char* from = reinterpret_cast<const unsigned char*>(&gemm_stage_chunk(block, r, byte >> 4)) + (byte & 15);
    unsigned char* to = reinterpret_cast<unsigned char*>(rows + r * ld) + byte;
    if (piece == 8) *reinterpret_cast<unsigned long long*>(to) = *reinterpret_cast<const unsigned long long*>(from);
    else if (piece == 4) *reinterpret_cast<unsigned*>(to) = *reinterpret_cast<const unsigned*>(from);
    else *reinterpret_cast<unsigned short*>(to) = *reinterpret_cast<const unsigned short*>(from);
  }
}

// Calls f(v, slot) for each pair of fragment values (v, v + 1) in the warp's 16 x 64 block b (its
// first `groups` 8-column groups: 8, or 4 for a 32-column half block), slot being the pair's
// place in the warp's stage (gemm_stage_block).
template <class TD, class Crd, class F>
CUTE_DSL_DEVICE void gemm_for_stage_pairs(Crd const& crd, int b, unsigned char* stage, F&& f, int groups = 8) {
  // The thread's place in its warp's 16 x 64 block, once; each value adds its static offset (the
  // wgmma layout keeps a warp's values inside its 16-row band and a value's column offset within
  // a 64-column block below 64 - c0: no wrap). Taking % per value kept every result live (spills).
  const int r0 = int(get<0>(crd(0))) % 16, c0 = int(get<1>(crd(0))) % 8;
  const auto block = gemm_stage_block<TD>(stage);
#pragma unroll
  for (int i = 0; i < 2; ++i) {
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      if (j >= groups) break;
      const int v = 4 * (8 * b + j) + 2 * i;
      const int r = r0 + gemm_value_row_offset(crd, v), cc = c0 + gemm_value_col_offset(crd, v) % 64;
      f(v, reinterpret_cast<GemmOutputPair<TD>*>(&block(r, cc)));
    }
  }
}

// Are the accumulators in wgmma's fragment order (values 4g, 4g + 1: row r0, columns 8g + c0 and
// + 1; 4g + 2, 4g + 3: row r0 + 8) with lane t at row t / 4, column 2 (t % 4) -- the order in
// which stmatrix writes and ldmatrix reads 8 x 8 matrices? Checked per thread (static offsets fold).
template <class Crd>
CUTE_DSL_DEVICE bool gemm_fragment_in_matrix_order(Crd const& crd, int lane) {
  const int r0 = int(get<0>(crd(0))) % 16, c0 = int(get<1>(crd(0))) % 8;
  return r0 == lane / 4 && c0 == 2 * (lane % 4) && gemm_value_row_offset(crd, 2) == 8 && gemm_value_col_offset(crd, 4) == 8 &&
         gemm_value_col_offset(crd, 1) == 1 && gemm_value_row_offset(crd, 0) == 0;
}

// The warp's 16 x 64 block b (columns 64 b .. 64 b + 63 of the accumulator block `acc`, coordinates
// `crd`; its first `groups` 8-column groups: 8, or 4 for a 32-column half block) times alpha
// (Scaled; else the values as they are), rounded to TD, into its shared-memory block `stage`
// (kGemmEpilogueStageBytesPerWarp bytes, gemm_stage_block). stmatrix where the
// fragment is in its order (4 instructions, one address per lane), else one 4-byte store per pair
// of columns (16 addresses per lane: kept live across tiles, they spilled in the reduce-scatter's
// epilogue).
// @pre every lane of the warp calls it; @post the caller __syncwarp()s before reading the stage
template <class TD, bool Scaled = true, class Acc, class Crd>
CUTE_DSL_DEVICE void gemm_stage_accumulator_block(Acc const& acc, Crd const& crd, int b, float alpha, int lane, unsigned char* stage,
                                                  int groups = 8) {
  static_assert(sizeof(TD) == 2, "gemm_stage_accumulator_block: 16-bit D only (64 columns = one 128-byte row)");
  const auto value = [&](int v) { return Scaled ? alpha * acc(v) : float(acc(v)); };
  if (gemm_fragment_in_matrix_order(crd, lane)) {
    const auto block = gemm_stage_block<TD>(stage);
    // Matrix m of step jj holds rows (m % 2) * 8 .. + 8 of column group jj + m / 2; lane t names
    // row t % 8 of matrix t / 8 -- the same swizzled 16-byte chunk the pair stores write.
#pragma unroll
    for (int jj = 0; jj < 8; jj += 2) {
      if (jj >= groups) break;
      unsigned regs[4];
#pragma unroll
      for (int m = 0; m < 4; ++m) {
        const int v = 4 * (8 * b + jj + m / 2) + 2 * (m % 2);
        const GemmOutputPair<TD> pair{TD(value(v)), TD(value(v + 1))};
        regs[m] = *reinterpret_cast<const unsigned*>(&pair);
      }
      const int m = lane / 8, r = (m % 2) * 8 + lane % 8, chunk = jj + m / 2;
      SM90_U32x4_STSM_N::copy(regs[0], regs[1], regs[2], regs[3], gemm_stage_chunk(block, r, chunk));
    }
    return;
  }
  gemm_for_stage_pairs<TD>(crd, b, stage, [&](int v, GemmOutputPair<TD>* slot) { *slot = GemmOutputPair<TD>{TD(value(v)), TD(value(v + 1))}; },
                           groups);
}

// acc += scale * src at each accumulator's place, in f32 (one FMA), for the warp's 16 x 64 block
// b of the accumulator block `acc` (coordinates `crd` in the tile). src: a shared-memory tensor,
// (rows, columns) of the tile from tile row `row0` and column 0, any layout whose 8 columns at a
// multiple of 8 (16-bit) or 2 columns at a multiple of 2 (f32) are contiguous (the swizzled
// stages TMA fills: GemmSm90Source). f32: one 8-byte read per pair. 16-bit: ldmatrix (4
// instructions per block) where the fragment is in matrix order, else one read per pair; InOrder
// (the caller knows the fragments are in that order, as wgmma's are) compiles the ldmatrix path
// only: the per-pair path cost the plain GEMM ~2600 SASS instructions it never ran
// (2026-11-27). The reduce-scatter keeps both: without the fallback, ptxas spilled more of its
// fused kernel (stack 16 -> 32 bytes), and that build (with a stage loop since reverted) ran the
// kernel alone 6% slower (4 x H100, 447 -> 476 us).
// @pre every lane of the warp calls it; src's rows cover the warp's; InOrder: gemm_fragment_in_matrix_order(crd, lane)
template <class TS, bool InOrder = false, class Acc, class Crd, class Src>
CUTE_DSL_DEVICE void gemm_add_source_block(Acc& acc, Crd const& crd, int b, Src const& src, int row0, int lane, float scale = 1.f) {
  static_assert(sizeof(TS) == 2 || is_same_v<TS, float>, "gemm_add_source_block: 16-bit or f32 sources");
  if constexpr (sizeof(TS) == 4) {
    // The 16 swizzled pair offsets do not change from tile to tile: computed once, they stayed
    // live across the tile loop and spilled (72 bytes in the 128 x 256 tile); hidden from the
    // compiler through row0, they are recomputed here (a few integer ops per pair).
    asm volatile("" : "+r"(row0));
#pragma unroll
    for (int j = 0; j < 8; ++j) {
#pragma unroll
      for (int i = 0; i < 2; ++i) {
        const int v = 4 * (8 * b + j) + 2 * i;
        const float2 pair = *reinterpret_cast<float2 const*>(&src(gemm_value_row(crd, v) - row0, gemm_value_col(crd, v)));
        acc(v) = fmaf(scale, pair.x, acc(v));
        acc(v + 1) = fmaf(scale, pair.y, acc(v + 1));
      }
    }
  } else if (!InOrder && !gemm_fragment_in_matrix_order(crd, lane)) {
#pragma unroll
    for (int j = 0; j < 8; ++j) {
#pragma unroll
      for (int i = 0; i < 2; ++i) {
        const int v = 4 * (8 * b + j) + 2 * i;
        const int r = gemm_value_row(crd, v) - row0, c = gemm_value_col(crd, v);
        acc(v) = fmaf(scale, static_cast<float>(src(r, c)), acc(v));
        acc(v + 1) = fmaf(scale, static_cast<float>(src(r, c + 1)), acc(v + 1));
      }
    }
  } else {
    const int col = gemm_block_first_col(crd, b);
    // As gemm_stage_accumulator_block's stmatrix, read back: matrix m of step jj holds rows
    // (m % 2) * 8 .. + 8 of the warp's band, column group jj + m / 2; lane t names row t % 8 of
    // matrix t / 8 and receives its pair of each matrix.
    const int band = gemm_value_row(crd, 0) / 16 * 16 - row0;
    const int m = lane / 8, r = band + (m % 2) * 8 + lane % 8;
#pragma unroll
    for (int jj = 0; jj < 8; jj += 2) {
      unsigned regs[4];
      SM75_U32x4_LDSM_N::copy(*reinterpret_cast<uint128_t const*>(&src(r, col + 8 * (jj + m / 2))), regs[0], regs[1], regs[2], regs[3]);
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const int v = 4 * (8 * b + jj + q / 2) + 2 * (q % 2);
        const auto pair = __builtin_bit_cast(GemmOutputPair<TS>, regs[q]);
        acc(v) = fmaf(scale, static_cast<float>(pair.x), acc(v));
        acc(v + 1) = fmaf(scale, static_cast<float>(pair.y), acc(v + 1));
      }
    }
  }
}

// The same for 16-bit D, coalesced: each warp writes its 16 rows x 64 columns of the block into
// its own shared-memory block `stage` (kGemmEpilogueStageBytesPerWarp bytes, 16-byte aligned),
// then reads back whole 16-byte pieces of rows and stores 4 full 128-byte row segments per
// instruction -- instead of 8 segments of 16 bytes (pairs of columns of 8 rows) straight from
// the accumulator layout. The 16-byte chunks of each 128-byte row are XOR-ed with the row index
// (mod 8) so that neither the pair writes (8 rows, same columns) nor the 16-byte reads hit the
// same bank twice. With beta != 0 the warp first brings C's block into the stage the same way,
// and each thread combines its values with C's from there (one rounding to TD). Blocks that reach
// past M or N, or a C (when read) whose rows start off 16 bytes, take the direct path. A D whose
// rows start off 16 bytes (an odd N as the leading dimension) still goes through the stage: its
// rows leave in the widest pieces every row allows (gemm_row_access_bytes: 8, 4 or 2 bytes), a
// warp's pieces contiguous along a row. The direct path's pair stores touch 8 rows per
// instruction, a sector each, and L2's write sectors were the bound (H200, 2026-11-29: 8191 x 8191
// x 2048 570 -> 475 us, 2048 x 50257 x 1024 647 -> 459; bench/results/epilogue_session28_h200_2026-11-29.txt).
// Scaled = false: the accumulators already hold alpha * acc (the caller scaled them, or alpha is
// 1): p.alpha is not applied -- one multiply per value fewer, 128 of the ~708
// instructions per warp and tile of this epilogue in the 128 x 256 tile (ncu, H100, 2026-11-28).
template <class TD, int N, bool Scaled = true, class Acc, class Crd>
CUTE_DSL_DEVICE void gemm_store_accumulators_staged(Acc const& acc, Crd const& crd, const GemmEpilogueParams<TD>& p, int row0,
                                                    int col0, int batch, int lane, unsigned char* stage) {
  static_assert(sizeof(TD) == 2, "gemm_store_accumulators_staged: 16-bit D only (64 columns = one 128-byte row)");
  // Column groups [j_begin, j_end) by the direct path (edge blocks; unscaled: alpha = 1 there).
  const auto direct = [&](int j_begin, int j_end) {
    if constexpr (Scaled) {
      gemm_store_accumulator_columns<TD, N>(acc, crd, p, row0, col0, batch, j_begin, j_end);
    } else {
      GemmEpilogueParams<TD> unit = p;
      unit.alpha = 1.f;
      gemm_store_accumulator_columns<TD, N>(acc, crd, unit, row0, col0, batch, j_begin, j_end);
    }
  };
  const int wrow = row0 + int(get<0>(crd(0))) / 16 * 16;  // this warp's first row: warps own 16-row bands
  const bool read_c = p.beta != 0.f;
  const int piece = gemm_row_access_bytes(reinterpret_cast<unsigned long long>(p.d), p.ldd, p.batch_stride_d, sizeof(TD));
  // C is read into the stage from 16-byte rows only: read in narrower pieces, each lane's loads
  // waited for one another (H200, 8191 x 8191 x 2048, beta = 1: 790 -> 1306 us against the direct path).
  const bool staged = wrow + 16 <= p.m &&
                      (!read_c || gemm_row_access_bytes(reinterpret_cast<unsigned long long>(p.c), p.ldc, p.batch_stride_c, sizeof(TD)) == 16);
  TD* d = p.d + batch * p.batch_stride_d;
  const TD* c = read_c ? p.c + batch * p.batch_stride_c : nullptr;
  const auto block = gemm_stage_block<TD>(stage);
  // 64-column blocks (8 groups of 8 columns), then a last 32-column half block (4 groups: the
  // 96-, 160- and 224-column tiles, the 192-row tile's 96-column consumers) through the same stage,
  // its rows 64 bytes: 8 lanes per 4 rows instead of 8 per row. Any other tail: the direct path.
  constexpr int kHalf = N % 64 == 32 ? 1 : 0;
#pragma unroll
  for (int b = 0; b < N / 64 + kHalf; ++b) {
    const int groups = b < N / 64 ? 8 : 4;             // 16-byte chunks per row of this block
    const int rows_per_step = 32 / groups;             // rows one warp-wide 16-byte access covers
    const int bcol = col0 + gemm_block_first_col(crd, b);
    if (!staged || bcol + 8 * groups > p.n) {
      direct(8 * b, 8 * b + groups);
      continue;
    }
    if (read_c) {  // C's block into the stage first, with the same coalesced 16-byte accesses as D's
#pragma unroll
      for (int it = 0; it < 8; ++it) {
        if (it >= groups / 2) break;
        const int r = it * rows_per_step + lane / groups, chunk = lane % groups;
        reinterpret_cast<uint4&>(gemm_stage_chunk(block, r, chunk)) = *reinterpret_cast<const uint4*>(c + (wrow + r) * p.ldc + bcol + 8 * chunk);
      }
      __syncwarp();
    }
    if (!read_c) {
      // stmatrix where it applies (H100, 128 x 256 cluster 2, 3 interleaved runs: 4096^3 180.6 ->
      // 177.3 us, 8192^3 1376 -> 1362 us against pair stores).
      gemm_stage_accumulator_block<TD, Scaled>(acc, crd, b, p.alpha, lane, stage, groups);
    } else {  // each pair adds its C pair from the stage: one rounding, alpha * acc + beta * C in f32, then to TD
      gemm_for_stage_pairs<TD>(
          crd, b, stage,
          [&](int v, GemmOutputPair<TD>* slot) {
            const GemmOutputPair<TD> cin = *slot;
            float v0 = Scaled ? p.alpha * acc(v) : float(acc(v)), v1 = Scaled ? p.alpha * acc(v + 1) : float(acc(v + 1));
            v0 += p.beta * static_cast<float>(cin.x);
            v1 += p.beta * static_cast<float>(cin.y);
            *slot = GemmOutputPair<TD>{TD(v0), TD(v1)};
          },
          groups);
    }
    __syncwarp();
    if (piece < 16) {
      gemm_stage_store_rows(block, d + wrow * p.ldd + bcol, p.ldd, 16 * groups, piece, lane);
      __syncwarp();
      continue;
    }
#pragma unroll
    for (int it = 0; it < 8; ++it) {  // 16 rows x `groups` chunks of 16 bytes, 32 per step
      if (it >= groups / 2) break;
      const int r = it * rows_per_step + lane / groups, chunk = lane % groups;
      const uint4 v = reinterpret_cast<const uint4&>(gemm_stage_chunk(block, r, chunk));
      *reinterpret_cast<uint4*>(d + (wrow + r) * p.ldd + bcol + 8 * chunk) = v;
    }
    __syncwarp();  // the next block overwrites the stage
  }
  if constexpr (N % 64 != 0 && kHalf == 0) direct(8 * (N / 64), N / 8);
}

#endif  // __CUDACC__ || __CUDACC_RTC__

}  // namespace cute_dsl::kernels
