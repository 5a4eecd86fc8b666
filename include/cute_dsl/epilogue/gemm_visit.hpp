// An epilogue tree inside the Hopper GEMM (kernels/gemm_sm90.hpp): evaluate it at every
// accumulator a thread holds, replacing each accumulator with the tree's value (D's value),
// then the GEMM's ordinary store writes D (gemm_epilogue.hpp, alpha = 1, beta = 0). Aux stores
// write as they go; reductions fold per thread, then per warp, then one global atomic per warp.
//
// Thread <-> element map: the wgmma accumulator layout (atom/traits/mma_traits_sm90.hpp). Value
// 4 j + 2 i + c of a 64 x N atom is row 8 i + (lane / 4) + 16 warp, column 8 j + 2 (lane % 4) + c.
// So the 4 lanes of a row are lane ^ 1, ^ 2 (same lane / 4), and the 8 lanes of a column are
// lane ^ 4, ^ 8, ^ 16 (same lane % 4): the shuffles below rely on exactly that. Coordinates
// themselves come from the identity tensor (gemm_value_row / _col), as in the plain epilogue.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/epilogue/evaluate.hpp"
#include "cute_dsl/epilogue/reduce.hpp"
#include "cute_dsl/kernels/gemm_epilogue.hpp"

namespace cute_dsl::epilogue {

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

// Per-thread partials: two per reduction (the thread's two rows i, or the two columns c of the
// current 8-column group; tensor reductions use [0]). Indexed by constants once the loops unroll.
template <class Tree>
struct GemmSink {
  float part[Tree::kOutputs > 0 ? Tree::kOutputs : 1][2];

  template <int Index, class Node>
  CUTE_DSL_DEVICE void reduce(Node const&, ElementContext<float> const& ctx, float v) {
    using Op = typename Node::op;
    const float x = ctx.valid ? Op::input(v) : Op::template identity<float>();
    const int s = Node::axis == ReduceAxis::row ? ctx.row_slot : Node::axis == ReduceAxis::col ? ctx.col_slot : 0;
    part[Index][s] = Op::combine(part[Index][s], x);
  }
};

// Folds v across the lanes that differ in the bits of `lanes` (butterfly: every lane gets it).
template <class Op>
CUTE_DSL_DEVICE float warp_fold(float v, unsigned lanes) {
  CUTE_DSL_UNROLL
  for (unsigned bit = 1; bit < 32; bit <<= 1)
    if (lanes & bit) v = Op::combine(v, __shfl_xor_sync(0xffffffffu, v, bit));
  return v;
}

// for_each_reduction visitors: reset the partials of one axis, or fold them into global memory.
template <class Tree, ReduceAxis Axis>
struct GemmSinkReset {
  GemmSink<Tree>& sink;
  template <int Index, class Node>
  CUTE_DSL_DEVICE void reduction(Node const&) {
    if constexpr (Node::axis == Axis) sink.part[Index][0] = sink.part[Index][1] = Node::op::template identity<float>();
  }
};
// Rows: lanes ^1 ^2 share a row; the lane with lane % 4 == 0 writes it. Columns (group j): lanes
// ^4 ^8 ^16 share a column; lanes 0..3 write. Tensor: the whole warp, lane 0.
template <class Tree, ReduceAxis Axis>
struct GemmSinkFlush {
  GemmSink<Tree>& sink;
  int lane, batch;
  int index[2];  // the output row (i) or column (c) of each slot; >= extent: outside, skipped
  int extent;
  template <int Index, class Node>
  CUTE_DSL_DEVICE void reduction(Node const& node) {
    using Op = typename Node::op;
    if constexpr (Node::axis == Axis) {
      CUTE_DSL_UNROLL
      for (int s = 0; s < (Axis == ReduceAxis::tensor ? 1 : 2); ++s) {
        const unsigned lanes = Axis == ReduceAxis::row ? 0x3u : Axis == ReduceAxis::col ? 0x1cu : 0x1fu;
        const float v = warp_fold<Op>(sink.part[Index][s], lanes);
        const bool writer = (lane & int(lanes)) == 0;
        if (writer && index[s] < extent) atomic_fold<Op>(node.out + node.index(index[s], index[s], batch), v);
      }
    }
  }
};

// 8-column groups whose loads the visit lets issue together: one 64-column block.
inline constexpr int kGemmVisitLoadGroups = 8;

// The body of gemm_visit_accumulators. Interior: every element of the warp's block lies inside
// M x N, so no element needs its bounds checked -- and a tree that reads no coordinates (acc * s,
// gelu(acc)) computes none: the per-element row / column / bounds work of the checked version
// cost as much as the tree itself (acc * 2 at 16384 x 4096 x 512: +38% over the plain GEMM, and
// 120 bytes of spills, H100 / ptxas, 2026-11-26).
template <bool Interior, int N, EpilogueNode Tree, class Acc, class Crd>
CUTE_DSL_DEVICE void gemm_visit_block(Tree const& tree, Acc& acc, Crd const& crd, int m, int n, int row0, int col0, int batch,
                                      int lane) {
  static_assert(N % 8 == 0, "gemm_visit_accumulators: N must be whole 8-column groups");
  GemmSink<Tree> sink;
  {
    GemmSinkReset<Tree, ReduceAxis::row> r{sink};
    GemmSinkReset<Tree, ReduceAxis::col> c{sink};
    GemmSinkReset<Tree, ReduceAxis::tensor> t{sink};
    for_each_reduction(tree, r);
    for_each_reduction(tree, c);
    for_each_reduction(tree, t);
  }
  CUTE_DSL_UNROLL
  for (int j = 0; j < N / 8; ++j) {
    // Keeps a 64-column block's loads (bias, C, aux) below the previous block's work: hoisting
    // every group's loads to the top (the compiler's default, for latency) spilled bias + GELU at
    // 128 columns (ptxas -v, 168 registers); fencing every 8-column group instead left each
    // group waiting for its own loads' latency.
    if (j % kGemmVisitLoadGroups == 0) asm volatile("" ::: "memory");
    CUTE_DSL_UNROLL
    for (int i = 0; i < 2; ++i) {
      CUTE_DSL_UNROLL
      for (int c = 0; c < 2; ++c) {
        const int v = 4 * j + 2 * i + c;
        const int row = row0 + kernels::gemm_value_row(crd, v), col = col0 + kernels::gemm_value_col(crd, v);
        const ElementContext<float> ctx{row, col, batch, Interior || (row < m && col < n), acc(v), i, c};
        acc(v) = evaluate(tree, ctx, sink);
      }
    }
    // This group's values exist before the next block's loads issue (see above).
    asm volatile("" : "+f"(acc(4 * j)), "+f"(acc(4 * j + 1)), "+f"(acc(4 * j + 2)), "+f"(acc(4 * j + 3)));
    if constexpr (Tree::kOutputs > 0) {  // this group's columns are complete in the thread
      const int col = col0 + kernels::gemm_value_col(crd, 4 * j);
      GemmSinkFlush<Tree, ReduceAxis::col> flush{sink, lane, batch, {col, col + 1}, n};
      for_each_reduction(tree, flush);
      GemmSinkReset<Tree, ReduceAxis::col> reset{sink};
      for_each_reduction(tree, reset);
    }
  }
  if constexpr (Tree::kOutputs > 0) {
    GemmSinkFlush<Tree, ReduceAxis::row> rows{sink, lane, batch,
                                              {row0 + kernels::gemm_value_row(crd, 0), row0 + kernels::gemm_value_row(crd, 2)}, m};
    for_each_reduction(tree, rows);
    GemmSinkFlush<Tree, ReduceAxis::tensor> all{sink, lane, batch, {0, 0}, 1};
    for_each_reduction(tree, all);
  }
}

// The tree at every value of one accumulator block (one wgmma atom's values, N / 2 floats) whose
// tile coordinates are `crd`, the tile's top-left element being (row0, col0) of batch `batch`;
// acc's values become the tree's. EdgeTiles = false: only the interior version is compiled (a
// caller whose tiles all lie inside M x N; half the visit's code).
// @pre every lane of the warp calls it (shuffles); EdgeTiles || the block lies inside M x N
template <int N, bool EdgeTiles = true, EpilogueNode Tree, class Acc, class Crd>
CUTE_DSL_DEVICE void gemm_visit_accumulators(Tree const& tree, Acc& acc, Crd const& crd, int m, int n, int row0, int col0,
                                             int batch, int lane) {
  if constexpr (!EdgeTiles) {
    gemm_visit_block<true, N>(tree, acc, crd, m, n, row0, col0, batch, lane);
  } else {
    // A thread's largest row and column are its last value's (value 4 j + 2 i + c: row 8 i + ...,
    // column 8 j + 2 (lane % 4) + c); the whole warp decides alike (the reductions shuffle).
    constexpr int kLast = N / 2 - 1;
    const bool inside = row0 + kernels::gemm_value_row(crd, kLast) < m && col0 + kernels::gemm_value_col(crd, kLast) < n;
    if (__all_sync(0xffffffffu, inside)) gemm_visit_block<true, N>(tree, acc, crd, m, n, row0, col0, batch, lane);
    else gemm_visit_block<false, N>(tree, acc, crd, m, n, row0, col0, batch, lane);
  }
}

#endif  // __CUDACC__ || __CUDACC_RTC__

}  // namespace cute_dsl::epilogue
