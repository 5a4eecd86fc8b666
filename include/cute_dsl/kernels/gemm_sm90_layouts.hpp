// The compile-time shape of the Hopper GEMM (kernels/gemm_sm90.hpp): its shared-memory layouts,
// TMA atoms, TiledMMA and shared storage, all derived from the tile configuration and the
// library's parts. Nothing here is a byte offset: sizes, alignment, TMA boxes, transaction bytes
// and wgmma descriptors all follow from these layouts.
//
// Each operand (A: TileM x 64, B: TileN x 64, per stage) lives in a ring of Stages tiles laid out
// as wgmma's 128-byte swizzle atom tiled to (rows, K, PIPE) (tile_to_shape):
//   K-major:  Sw<3,m,3> o (rows, 64, PIPE):(64, 1, rows*64)
//             one TMA box (64 K x rows) per tile, or rows / BoxRows boxes of 64 K x BoxRows
//             (the GEMM's A: a last row block past M then loads only the boxes that hold rows).
//   MN-major: Sw<3,m,3> o ((64, rows/64), 64, PIPE):((1, 4096), 64, rows*64)
//             (the 64 K rows of one 64-row block first: exactly one TMA box of 64 MN x 64 K),
//             rows/64 boxes per tile.
// The TMA view of a stage is the same layout with its modes in the tensor map's order
// (contiguous first) plus the batch mode; TmaLoadAtom derives boxes and bytes from it.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/algebra.hpp"
#include "cute_dsl/arch/sm90/gmma_layout.hpp"
#include "cute_dsl/atom/tma_atom.hpp"
#include "cute_dsl/atom/tiled_mma.hpp"
#include "cute_dsl/tensor/shared_buffer.hpp"

namespace cute_dsl::kernels {

inline constexpr int kGemmSm90TileK = 64;  // 64 16-bit elements: one 128-byte swizzle row

// One operand's ring: the wgmma view, the TMA view, and the atom that loads it.
// Rows: the CTA's tile rows of this operand; Mcast: CTAs that share (and multicast) the tile;
// BoxRows (K-major, no multicast): rows per TMA box, the stage's rows then being Rows / BoxRows
// boxes, so that a last row block past the operand's end loads only the boxes that hold rows
// (boxes_for_rows; MN-major tiles are 64-row boxes already).
template <class T, GmmaMajor Major, int Rows, int Stages, int Mcast = 1, int BoxRows = Rows>
struct GemmSm90Operand {
  static_assert(BoxRows == Rows || (Major == GmmaMajor::K && Mcast == 1 && Rows % BoxRows == 0 && BoxRows % 8 == 0),
                "GemmSm90Operand: boxes of fewer rows than the tile need a K-major operand without multicast, whole "
                "boxes per tile, and whole 8-row swizzle periods per box");
  static constexpr auto atom = gmma_smem_atom<T, Major, GmmaLayoutType::sw128>();
  using Swizzle = remove_cvref_t<decltype(atom.layout_a())>;
  // (rows, K, PIPE): K-major atoms stack along rows; MN-major atoms along K first, so that the 64
  // K rows of a 64-row block are one TMA box (8 KiB contiguous).
  CUTE_DSL_HOST_DEVICE static constexpr auto ring() {
    constexpr auto shape = make_shape(Int<Rows>{}, Int<kGemmSm90TileK>{}, Int<Stages>{});
    if constexpr (Major == GmmaMajor::K) return tile_to_shape(atom, shape);
    else return tile_to_shape(atom, shape, make_tuple(Int<2>{}, Int<1>{}, Int<3>{}));
  }
  using Ring = decltype(ring());
  // One stage in the tensor map's dimension order, then the batch mode, then PIPE.
  // A stage's (rows, K) modes in the tensor map's order: K first when K is contiguous.
  template <class L>
  CUTE_DSL_HOST_DEVICE static constexpr auto tma_order(L const& stage) {
    if constexpr (Major == GmmaMajor::K) return make_layout(layout<1>(stage), layout<0>(stage));
    else return stage;
  }
  CUTE_DSL_HOST_DEVICE static constexpr auto tma_ring() {
    constexpr auto plain = Ring{}.layout_b();
    constexpr auto stage = make_layout(layout<0>(plain), layout<1>(plain));
    constexpr auto flat = coalesce(tma_order(stage), make_tuple(Int<1>{}, Int<1>{}));
    return composition(Swizzle{}, make_layout(layout<0>(flat), rows_in_boxes(layout<1>(flat)), make_layout(Int<1>{}, Int<0>{}),
                                              layout<2>(plain)));
  }
  // K-major rows (the TMA view's dimension 1) cut into boxes of BoxRows: (BoxRows, boxes).
  template <class L>
  CUTE_DSL_HOST_DEVICE static constexpr auto rows_in_boxes(L const& rows) {
    if constexpr (BoxRows == Rows) return rows;
    else return logical_divide(rows, Int<BoxRows>{});
  }
  using TmaRing = decltype(tma_ring());
  using TmaStage = decltype(composition(Swizzle{}, take<0, 3>(TmaRing{}.layout_b())));
  using Atom = TmaLoadAtom<T, TmaStage, Mcast>;
  using Buffer = SharedBuffer<T, Ring>;
  static constexpr unsigned stage_bytes = unsigned(Rows * kGemmSm90TileK * int(sizeof(T)));
  static_assert(Atom::transaction_bytes == stage_bytes, "GemmSm90Operand: the TMA atom must fill the whole stage");
  // Rows per TMA box: the box's extent along the rows (K-major: dimension 1 of the tensor map;
  // MN-major: dimension 0, 64-row boxes).
  static constexpr int box_rows = Atom::Math::box_extents().crd[Major == GmmaMajor::K ? 1 : 0];
  static_assert(Atom::Math::boxes_per_cta == 1 || Atom::Math::step_mode() == (Major == GmmaMajor::K ? 1 : 0),
                "GemmSm90Operand: a stage's boxes follow each other along its rows");
  // The boxes of one stage that hold its first `rows` rows (a last row block past the operand's
  // end: rows = the rows left), all of them from a whole tile of rows on, none for rows <= 0.
  CUTE_DSL_HOST_DEVICE static constexpr int boxes_for_rows(int rows) {
    const int boxes = rows <= 0 ? 0 : (rows + box_rows - 1) / box_rows;
    return boxes < Atom::Math::boxes_per_cta ? boxes : Atom::Math::boxes_per_cta;
  }
};

// An epilogue source (data the consumers add to the accumulators: a peer's partial product of the
// tile, the plain GEMM's C): kRows tile rows x TileN columns per ring stage, in the stage's B
// buffer -- 128 bytes per column of the tile, as a B stage of 16-bit operands (64 rows of 16-bit
// data, 32 of f32) -- loaded by TMA between two tiles' k-blocks. Laid out as the K-major 128-byte
// swizzle atom (8 rows x 128 bytes) tiled to (kRows, TileN), column blocks of 128 bytes one after
// the other: one TMA box (128 bytes of columns, kRows rows) per block, and the swizzle that the
// consumers' reads assume (gemm_add_source_block).
//   Stage:     Sw<3,m,3> o (kRows, TileN):(w, (1, w kRows)), w = 128 / sizeof(T)    (row, column) as read
//   TmaStage:  the same with its modes in the tensor map's order (columns, rows, batch)
template <class TD, int TileN>
struct GemmSm90Source {
  static_assert(sizeof(TD) == 2 || sizeof(TD) == 4, "GemmSm90Source: 16- or 32-bit elements");
  static constexpr int kRows = 128 / int(sizeof(TD));
  static constexpr auto atom = gmma_smem_atom<TD, GmmaMajor::K, GmmaLayoutType::sw128>();
  using Swizzle = remove_cvref_t<decltype(atom.layout_a())>;
  using Stage = decltype(tile_to_shape(atom, make_shape(Int<kRows>{}, Int<TileN>{})));
  CUTE_DSL_HOST_DEVICE static constexpr auto tma_stage() {
    constexpr auto plain = Stage{}.layout_b();
    constexpr auto flat = coalesce(make_layout(layout<1>(plain), layout<0>(plain)), make_tuple(Int<1>{}, Int<1>{}));
    return composition(Swizzle{}, make_layout(layout<0>(flat), layout<1>(flat), make_layout(Int<1>{}, Int<0>{})));
  }
  using TmaStage = decltype(tma_stage());
  using Atom = TmaLoadAtom<TD, TmaStage, 1>;
  static constexpr unsigned stage_bytes = unsigned(kRows * TileN * int(sizeof(TD)));
  static_assert(Atom::transaction_bytes == stage_bytes, "GemmSm90Source: the TMA atom must fill the whole stage");
};

// The kernel parameter's source atom: GemmSm90Source's for 16-bit or f32 D and tiles of whole
// 64-column blocks, else an unused descriptor.
template <class TD, int TileN, bool = (has_gmma_input_v<TD> || is_same_v<TD, float>) && TileN % 64 == 0>
struct GemmSm90SourceAtom {
  using type = TmaDescriptor;
};
template <class TD, int TileN>
struct GemmSm90SourceAtom<TD, TileN, true> {
  using type = typename GemmSm90Source<TD, TileN>::Atom;
};

// The columns of one wgmma atom of a consumer: the split-N tiles' consumers (64 and 192 rows)
// take half of TileN each, the others all of it. (A 64 x 256 ping-pong tile as two m64n128 atoms per k-step, two
// independent accumulator chains, ran no faster than one m64n256: H100, 8192^3 1756 vs 1773 us.)
template <int TileM, int TileN, bool PingPong>
inline constexpr int kGemmSm90AtomN = TileM != 128 && !PingPong ? TileN / 2 : TileN;

// The warpgroup arrangement of the consumers, as a TiledMMA.
//   cooperative (TileM 128): two warpgroups stacked along M, 64 rows each, all TileN columns.
//   split-N (TileM 64, 192): two warpgroups side by side along N, TileN/2 columns each, every
//                            row (192: three m64 atoms per k-step each).
//   ping-pong:               one warpgroup computes a whole TileM x TileN tile (TileM / 64 atoms).
template <class T, int TileM, int TileN, bool PingPong, GmmaMajor MajorA, GmmaMajor MajorB>
CUTE_DSL_HOST_DEVICE constexpr auto gemm_sm90_tiled_mma() {
  constexpr GmmaInput in = gmma_input_of<T>::value;
  using Atom = MMA_Atom<SM90_64xNx16_F32_SS<kGemmSm90AtomN<TileM, TileN, PingPong>, in, MajorA, MajorB>>;
  if constexpr (PingPong)
    return make_tiled_mma(Atom{});
  else if constexpr (TileM != 128)
    return make_tiled_mma(Atom{}, make_layout(make_shape(Int<1>{}, Int<2>{}, Int<1>{})));
  else
    return make_tiled_mma(Atom{}, make_layout(make_shape(Int<2>{}, Int<1>{}, Int<1>{})));
}

}  // namespace cute_dsl::kernels
