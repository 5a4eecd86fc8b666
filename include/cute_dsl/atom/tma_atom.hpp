// TMA as a copy atom (sm_90+): CuTe's make_tma_copy idea in this library's terms.
//
// The host builds the atom once (atom/make_tma_atom.hpp): a global tensor, the shared layout of
// one CTA's tile (plain or Swizzle o Layout, dimension 0 contiguous) and a multicast size. The
// atom carries the encoded CUtensorMap (128 opaque bytes) and is passed to the kernel by value as
// a __grid_constant__ parameter. In the kernel:
//
//   auto cA  = make_identity_tensor(make_shape(K, M));              // the global tensor's coordinates
//   auto gA  = local_tile(cA, make_shape(_64{}, _128{}), make_coord(k, m));
//   auto thr = tma_a.get_slice(rank_in_multicast);                    // 0 without multicast
//   auto box = thr.partition_S(gA);                                   // this CTA's TMA box (coordinates)
//   auto sA  = thr.partition_D(make_tensor(make_smem_ptr(smem_a), SmemLayout{}));
//   copy(tma_a.with(full_barrier, mcast_mask), box, sA);              // one UTMALDG
//
// Multicast: the Mcast CTAs that share a tile each load 1/Mcast of it -- a slice of the LAST
// (slowest) mode of the shared layout -- and multicast their slice to every CTA in the mask, so
// each CTA's barrier expects the whole tile's bytes (transaction_bytes). A slice starts at a
// multiple of the swizzle period in shared memory, so the hardware's address-based swizzle and
// the layout's Swizzle agree on every slice.
//
// Store: copy(tma_store, thr.partition_S(sC), thr.partition_D(gC)), then tma_store_arrive() and
// tma_store_wait<0>() (arch/sm90/tma_copy.hpp); the writers of sC call tma_store_fence() and
// synchronize first. Limits: one box per CTA tile (every box extent <= 256, validated on the host).
// A global tile of run-time extents goes through the layout algebra's run-time checks (a printf
// on failure); in a kernel that also runs wgmma that call serializes the wgmma pipeline (ptxas
// C7510), so give such kernels static extents or build with CUTE_DSL_DEVICE_LAYOUT_CHECKS=0.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/composed_layout.hpp"
#include "cute_dsl/layout/swizzle.hpp"
#include "cute_dsl/tensor/tensor.hpp"
#include "cute_dsl/arch/sm90/tma_copy.hpp"

namespace cute_dsl {

// The bits of a CUtensorMap (same size and alignment), so device code needs no <cuda.h>.
struct alignas(64) TmaDescriptor {
  unsigned long long opaque[16];
};

// A TMA box in the global tensor: the coordinates of its first element, dimension 0 first.
template <int Rank>
struct TmaBox {
  int crd[Rank];
};

namespace tma_detail {
template <class L>
CUTE_DSL_HOST_DEVICE constexpr auto plain_layout(L const& l) {
  if constexpr (requires(L const& x) { x.layout_b(); }) return l.layout_b();
  else return l;
}
template <class L>
CUTE_DSL_HOST_DEVICE constexpr auto swizzle_of(L const& l) {
  if constexpr (requires(L const& x) { x.layout_a(); }) return l.layout_a();
  else return Swizzle<0, 4, 3>{};  // the identity
}
template <class Sw> struct swizzle_period { static constexpr long value = 1; };
template <int B, int M, int S> struct swizzle_period<Swizzle<B, M, S>> { static constexpr long value = B == 0 ? 1 : 1L << (B + M + S); };

template <class Shape, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr TmaBox<sizeof...(Is)> static_extents(index_sequence<Is...>) {
  return {{int(remove_cvref_t<decltype(get<Is>(Shape{}))>::value)...}};
}
template <int Rank, class Shape, class Stride, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr bool compact_col_major(index_sequence<Is...>) {
  long expect = 1;
  bool ok = true;
  ((ok = ok && (remove_cvref_t<decltype(get<Is>(Shape{}))>::value == 1 ||
                remove_cvref_t<decltype(get<Is>(Stride{}))>::value == expect),
    expect *= remove_cvref_t<decltype(get<Is>(Shape{}))>::value),
   ...);
  return ok;
}
}  // namespace tma_detail

// One mode of a TMA tile's shared layout: an extent, or (box extent, repetitions) when the tile
// spans several boxes along that dimension (a 128-byte swizzle row holds 64 16-bit elements, so
// an MN-major 128 x 64 tile is two 64 x 64 boxes).
struct TmaModeInfo {
  long box, box_stride, reps, reps_stride;
};
namespace tma_detail {
template <class S, class D>
CUTE_DSL_HOST_DEVICE constexpr TmaModeInfo mode_info() {
  if constexpr (is_tuple_v<S>) {
    static_assert(tuple_size_v<S> == 2 && depth_v<S> == 1,
                  "TMA atom: a mode of the shared layout is an extent or (box extent, repetitions)");
    return {long(remove_cvref_t<decltype(get<0>(S{}))>::value), long(remove_cvref_t<decltype(get<0>(D{}))>::value),
            long(remove_cvref_t<decltype(get<1>(S{}))>::value), long(remove_cvref_t<decltype(get<1>(D{}))>::value)};
  } else {
    return {long(S::value), long(D::value), 1, 0};
  }
}
template <int Rank>
struct TmaModes {
  TmaModeInfo m[Rank];
};
template <class Shape, class Stride, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr TmaModes<sizeof...(Is)> modes_of(index_sequence<Is...>) {
  return {{mode_info<remove_cvref_t<decltype(get<Is>(Shape{}))>, remove_cvref_t<decltype(get<Is>(Stride{}))>>()...}};
}
}  // namespace tma_detail

// The box and slice arithmetic of a TMA atom (host and device, all constexpr).
//
// The tile's shared layout has one mode per tensor-map dimension (dimension 0 contiguous). The
// BOX is the first extent of every mode and must be compact column-major (TMA writes a box
// densely). At most one mode may repeat the box, (box, reps):(stride, box_elements): the boxes
// follow each other in shared memory and step by the box extent in the global tensor.
// Multicast: the Mcast CTAs that share a tile each load 1/Mcast of it and multicast it to all:
// whole boxes when the tile repeats its box (reps % Mcast == 0), else a slice of the last mode
// of extent > 1.
template <class SmemLayout, int Mcast>
struct TmaBoxMath {
  using Plain = decltype(tma_detail::plain_layout(SmemLayout{}));
  using Shape = typename Plain::shape_type;
  using Stride = typename Plain::stride_type;
  static_assert(is_static_v<SmemLayout> && is_tuple_v<Shape> && depth_v<Shape> <= 2,
                "TMA atom: the shared layout must be static, each mode an extent or (box extent, repetitions)");
  static constexpr int rank = int(rank_v<Shape>);
  static_assert(rank >= 1 && rank <= 5, "TMA atom: a tensor map has 1 to 5 dimensions");
  // A function, not a static member: device code may not read host statics.
  CUTE_DSL_HOST_DEVICE static constexpr tma_detail::TmaModes<rank> modes() { return tma_detail::modes_of<Shape, Stride>(tuple_seq<Shape>{}); }

  // The repeated mode (-1: none) and its repetitions.
  CUTE_DSL_HOST_DEVICE static constexpr int find_rep_mode() {
    int d = -1;
    for (int i = 0; i < rank; ++i)
      if (modes().m[i].reps > 1) d = d == -1 ? i : -2;
    return d;
  }
  static constexpr int rep_mode = find_rep_mode();
  static_assert(rep_mode >= -1, "TMA atom: at most one mode of the shared layout may repeat the box");
  static constexpr long reps = rep_mode < 0 ? 1 : modes().m[rep_mode < 0 ? 0 : rep_mode].reps;

  CUTE_DSL_HOST_DEVICE static constexpr bool box_is_compact() {
    long expect = 1;
    for (int i = 0; i < rank; ++i) {
      if (modes().m[i].box != 1 && modes().m[i].box_stride != expect) return false;
      expect *= modes().m[i].box;
    }
    return true;
  }
  static_assert(box_is_compact(),
                "TMA atom: the shared layout's box must be compact column-major (dimension 0 stride 1): TMA writes a box densely");
  CUTE_DSL_HOST_DEVICE static constexpr long full_box_elements() {
    long n = 1;
    for (int i = 0; i < rank; ++i) n *= modes().m[i].box;
    return n;
  }
  static_assert(rep_mode < 0 || modes().m[rep_mode < 0 ? 0 : rep_mode].reps_stride == full_box_elements(),
                "TMA atom: repeated boxes must follow each other in shared memory (repetition stride = box elements)");

  // The tile's extents (a function, not a static member: device code may not read host statics).
  CUTE_DSL_HOST_DEVICE static constexpr TmaBox<rank> tile() {
    TmaBox<rank> b{};
    for (int i = 0; i < rank; ++i) b.crd[i] = int(modes().m[i].box * modes().m[i].reps);
    return b;
  }
  // The mode a multicast slices when the tile does not repeat its box: the last one of extent > 1
  // (trailing extent-1 modes, e.g. a batch, cannot be sliced).
  CUTE_DSL_HOST_DEVICE static constexpr int find_slice_mode() {
    int d = rank - 1;
    while (d > 0 && modes().m[d].box == 1) --d;
    return d;
  }
  static constexpr int slice_mode = find_slice_mode();
  static constexpr int last_extent = int(modes().m[slice_mode].box);
  static_assert(Mcast >= 1 && Mcast <= 16, "TMA atom: the multicast size is 1 to 16");
  static_assert(reps > 1 ? reps % Mcast == 0 : last_extent % Mcast == 0,
                "TMA atom: the multicast size must divide the box repetitions, or else the shared layout's last mode");
  // Boxes each CTA issues, and how a CTA's share is cut: whole boxes, or a slice of the last mode.
  static constexpr int boxes_per_cta = int(reps > 1 ? reps / Mcast : 1);
  static constexpr bool slices_last_mode = reps == 1 && Mcast > 1;

  // Per-CTA box extents (what the tensor map's box is).
  CUTE_DSL_HOST_DEVICE static constexpr TmaBox<rank> box_extents() {
    TmaBox<rank> b{};
    for (int i = 0; i < rank; ++i) b.crd[i] = int(modes().m[i].box);
    if (slices_last_mode) b.crd[slice_mode] /= Mcast;
    return b;
  }
  static constexpr long tile_elements = full_box_elements() * reps;
  static constexpr long box_elements = slices_last_mode ? full_box_elements() / Mcast : full_box_elements();
  // Where CTA `r`'s share (0 <= r < Mcast) starts: element offset in shared memory, and the
  // coordinate step in the repeated (or last) mode.
  CUTE_DSL_HOST_DEVICE static constexpr long slice_smem_offset(int r) { return r * boxes_per_cta * box_elements; }
  CUTE_DSL_HOST_DEVICE static constexpr int step_mode() { return rep_mode >= 0 ? rep_mode : slice_mode; }
  CUTE_DSL_HOST_DEVICE static constexpr int slice_last_mode_offset(int r) {
    return slices_last_mode ? r * (last_extent / Mcast) : r * boxes_per_cta * int(modes().m[step_mode()].box);
  }
  // Box i (0 <= i < boxes_per_cta) of a CTA's share: smem and coordinate offsets from the share's first.
  CUTE_DSL_HOST_DEVICE static constexpr long box_smem_offset(int i) { return i * box_elements; }
  CUTE_DSL_HOST_DEVICE static constexpr int box_coord_offset(int i) { return i * int(modes().m[step_mode()].box); }
  static_assert((Mcast == 1 && reps == 1) ||
                    box_elements % tma_detail::swizzle_period<decltype(tma_detail::swizzle_of(SmemLayout{}))>::value == 0,
                "TMA atom: each box and multicast slice must start at a multiple of the swizzle period (the swizzle is by address)");

  // The layout of one box in shared memory: the tile's swizzle over the compact box.
  CUTE_DSL_HOST_DEVICE static constexpr auto box_layout() {
    auto plain = make_layout(box_shape(tuple_seq<Shape>{}));
    if constexpr (requires(SmemLayout const& x) { x.layout_a(); }) return composition(SmemLayout{}.layout_a(), plain);
    else return plain;
  }

 private:
  template <unsigned long... Is>
  CUTE_DSL_HOST_DEVICE static constexpr auto box_shape(index_sequence<Is...>) {
    return make_shape(Int<box_extent<Is>()>{}...);
  }
  template <unsigned long I>
  CUTE_DSL_HOST_DEVICE static constexpr long box_extent() {
    return (slices_last_mode && int(I) == slice_mode) ? modes().m[I].box / Mcast : modes().m[I].box;
  }
};

// One CTA's view of a TMA atom: which box it moves and where in shared memory the box lies.
template <class Math, bool Load>
struct TmaSlice {
  int rank_in_mcast;

  // The first box of this CTA's share of a global tile, given as its coordinate tensor (a tile of
  // make_identity_tensor) ...
  template <class CoordTile>
  CUTE_DSL_HOST_DEVICE constexpr TmaBox<Math::rank> partition_gmem(CoordTile const& ctile) const {
    auto origin = ctile(0);
    return partition_gmem(origin_of(origin, tuple_seq<remove_cvref_t<decltype(origin)>>{}));
  }
  // ... or as the coordinates of its first element. This form does no layout arithmetic on the
  // global tensor's run-time extents, hence no run-time checks (their printf makes ptxas
  // serialize the wgmma of a kernel that also multiplies).
  CUTE_DSL_HOST_DEVICE constexpr TmaBox<Math::rank> partition_gmem(TmaBox<Math::rank> b) const {
    constexpr int d = Math::step_mode();
    b.crd[d] += Math::slice_last_mode_offset(rank_in_mcast);
    return b;
  }
  // This CTA's first box within the shared tile `s` (laid out as the atom's shared layout). The
  // share's offset is a plain element offset: it is a multiple of the swizzle period.
  template <class STensor>
  CUTE_DSL_HOST_DEVICE constexpr auto partition_smem(STensor&& s) const {
    static_assert(decltype(size(s.layout()))::value == Math::tile_elements,
                  "TMA atom: the shared tensor must be one whole tile of the atom's shared layout");
    auto* first = &s(0) + Math::slice_smem_offset(rank_in_mcast);
    return make_tensor(make_smem_ptr(first), Math::box_layout());
  }
  template <class S> CUTE_DSL_HOST_DEVICE constexpr auto partition_S(S&& src) const {
    if constexpr (Load) return partition_gmem(src);
    else return partition_smem(src);
  }
  template <class D> CUTE_DSL_HOST_DEVICE constexpr auto partition_D(D&& dst) const {
    if constexpr (Load) return partition_smem(dst);
    else return partition_gmem(dst);
  }

 private:
  template <class Crd, unsigned long... Is>
  CUTE_DSL_HOST_DEVICE static constexpr TmaBox<Math::rank> origin_of(Crd const& c, index_sequence<Is...>) {
    static_assert(sizeof...(Is) == Math::rank, "TMA atom: the global tile's rank differs from the shared layout's");
    return {{int(get<Is>(c))...}};
  }
};

// A load bound to its barrier (and multicast mask): what copy() issues. WithPolicy: its loads
// carry `policy`, an L2 eviction policy (arch/sm90/tma_copy.hpp: l2_evict_first_policy),
// set by with_l2_policy(); decided at compile time, so a load without one is the plain instruction.
template <class Math, bool Multicast, bool WithPolicy = false>
struct TmaLoadCall {
  TmaDescriptor const* desc;
  unsigned mbar;  // shared address of the mbarrier
  unsigned short mask;
  unsigned long long policy = 0;

  CUTE_DSL_HOST_DEVICE constexpr TmaLoadCall<Math, Multicast, true> with_l2_policy(unsigned long long l2_policy) const {
    return {desc, mbar, mask, l2_policy};
  }
};

// The TMA load atom: T elements, one CTA tile laid out as SmemLayout, shared by Mcast CTAs.
template <class T, class SmemLayout, int Mcast = 1>
struct TmaLoadAtom {
  using Math = TmaBoxMath<SmemLayout, Mcast>;
  using value_type = T;
  using smem_layout = SmemLayout;
  static constexpr int multicast = Mcast;
  // Bytes that land in EACH CTA per tile (every slice arrives everywhere): the barrier's tx count.
  static constexpr unsigned transaction_bytes = unsigned(Math::tile_elements * sizeof(T));
  // The tx count of a load of only the first `boxes` boxes of a tile (copy(call, box, dst, boxes)).
  // @pre 0 <= boxes <= Math::boxes_per_cta
  CUTE_DSL_HOST_DEVICE static constexpr unsigned transaction_bytes_of(int boxes)
    requires(Mcast == 1)
  {
    return unsigned(boxes * Math::box_elements * long(sizeof(T)));
  }

  TmaDescriptor desc;  // encoded by make_tma_load_atom (host)

  CUTE_DSL_HOST_DEVICE constexpr TmaSlice<Math, true> get_slice(int rank_in_mcast) const { return {rank_in_mcast}; }
  CUTE_DSL_HOST_DEVICE constexpr TmaDescriptor const* descriptor() const { return &desc; }

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
  // Bind the load to `bar` (a __shared__ mbarrier armed with transaction_bytes) and, with
  // multicast, the mask of CTAs that receive this CTA's slice.
  template <class Bar>
  CUTE_DSL_DEVICE TmaLoadCall<Math, (Mcast > 1)> with(Bar& bar, unsigned short mcast_mask) const {
    static_assert(sizeof(Bar) == 8, "TMA atom: the barrier is a 64-bit mbarrier in shared memory");
    return {&desc, smem_address(&bar), mcast_mask, 0};
  }
  // Without multicast the mask is unused. With multicast it is required: an empty mask delivers
  // the slice nowhere and every CTA's barrier waits forever.
  template <class Bar>
  CUTE_DSL_DEVICE TmaLoadCall<Math, (Mcast > 1)> with(Bar& bar) const {
    static_assert(Mcast == 1 || sizeof(Bar) == 0,
                  "TMA atom with multicast: pass the mask of receiving CTAs, with(bar, mcast_mask)");
    return with(bar, 0);
  }
#endif
};

// The TMA store atom: one CTA tile in shared memory (SmemLayout) to a box of the global tensor.
template <class T, class SmemLayout>
struct TmaStoreAtom {
  using Math = TmaBoxMath<SmemLayout, 1>;
  using value_type = T;
  using smem_layout = SmemLayout;
  TmaDescriptor desc;

  CUTE_DSL_HOST_DEVICE constexpr TmaSlice<Math, false> get_slice(int = 0) const { return {0}; }
  CUTE_DSL_HOST_DEVICE constexpr TmaDescriptor const* descriptor() const { return &desc; }
};

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
namespace tma_detail {
template <bool Multicast, bool WithPolicy, class Math, class T, unsigned long... Is>
CUTE_DSL_DEVICE void issue_load(TmaLoadCall<Math, Multicast, WithPolicy> const& call, TmaBox<Math::rank> const& box, T* dst,
                                index_sequence<Is...>) {
  if constexpr (Multicast && WithPolicy) SM90_TMA_LOAD_MULTICAST::copy_with_policy(call.policy, call.desc, call.mbar, call.mask, dst, box.crd[Is]...);
  else if constexpr (Multicast) SM90_TMA_LOAD_MULTICAST::copy(call.desc, call.mbar, call.mask, dst, box.crd[Is]...);
  else if constexpr (WithPolicy) SM90_TMA_LOAD::copy_with_policy(call.policy, call.desc, call.mbar, dst, box.crd[Is]...);
  else SM90_TMA_LOAD::copy(call.desc, call.mbar, dst, box.crd[Is]...);
}
// The first `boxes` (<= Math::boxes_per_cta) of a CTA's share, from its first box at `box` into `first`.
template <class Math, bool Multicast, bool WithPolicy, class T>
CUTE_DSL_DEVICE void issue_boxes(TmaLoadCall<Math, Multicast, WithPolicy> const& call, TmaBox<Math::rank> const& box, T* first, int boxes) {
  CUTE_DSL_UNROLL
  for (int i = 0; i < Math::boxes_per_cta; ++i) {
    if (i >= boxes) break;
    constexpr int d = Math::step_mode();
    TmaBox<Math::rank> b = box;
    b.crd[d] += Math::box_coord_offset(i);
    issue_load(call, b, first + Math::box_smem_offset(i), make_index_sequence<Math::rank>{});
  }
}
template <int R, class T, unsigned long... Is>
CUTE_DSL_DEVICE void issue_store(TmaDescriptor const* desc, T const* src, TmaBox<R> const& box, index_sequence<Is...>) {
  SM90_TMA_STORE::copy(desc, src, box.crd[Is]...);
}
}  // namespace tma_detail

// The TMA loads of this CTA's share of a tile: its first box at `box` into the shared tensor `dst`
// (both from the atom's slice: partition_S / partition_D), then the share's other boxes, each one
// box further in shared memory and one box extent further along the repeated mode. One thread
// issues them.
template <class Math, bool Multicast, bool WithPolicy, class DE, class DL>
CUTE_DSL_DEVICE void copy(TmaLoadCall<Math, Multicast, WithPolicy> const& call, TmaBox<Math::rank> const& box, Tensor<DE, DL> const& dst) {
  tma_detail::issue_boxes(call, box, &dst(0), Math::boxes_per_cta);
}
// The first `boxes` of those loads only: a tile whose repeated mode runs past the tensor (the rows
// of a last row block past M) issues the boxes that hold data, and TMA writes no zeros for the rest
// (their shared memory keeps what it held). The barrier expects transaction_bytes_of(boxes).
// @pre 0 <= boxes <= Math::boxes_per_cta; no multicast (each CTA's count would differ).
template <class Math, bool Multicast, bool WithPolicy, class DE, class DL>
CUTE_DSL_DEVICE void copy(TmaLoadCall<Math, Multicast, WithPolicy> const& call, TmaBox<Math::rank> const& box, Tensor<DE, DL> const& dst,
                          int boxes) {
  static_assert(!Multicast, "TMA load of the first boxes: without multicast");
  tma_detail::issue_boxes(call, box, &dst(0), boxes);
}
// One TMA store of the shared box tensor `src` (from partition_S) to `box`. One thread issues it.
template <class T, class SL, class SE, class SLayout, int R>
CUTE_DSL_DEVICE void copy(TmaStoreAtom<T, SL> const& atom, Tensor<SE, SLayout> const& src, TmaBox<R> const& box) {
  static_assert(R == TmaStoreAtom<T, SL>::Math::rank, "TMA store: the box's rank differs from the atom's");
  tma_detail::issue_store(atom.descriptor(), &src(0), box, make_index_sequence<R>{});
}
#endif

}  // namespace cute_dsl
