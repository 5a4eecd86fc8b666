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

// The box and slice arithmetic of a TMA atom (host and device, all constexpr).
template <class SmemLayout, int Mcast>
struct TmaBoxMath {
  using Plain = decltype(tma_detail::plain_layout(SmemLayout{}));
  using Shape = typename Plain::shape_type;
  using Stride = typename Plain::stride_type;
  static_assert(is_static_v<SmemLayout> && is_tuple_v<Shape> && depth_v<Shape> <= 1,
                "TMA atom: the shared layout must be static with single-integer modes, e.g. (64,128):(1,64)");
  static constexpr int rank = int(rank_v<Shape>);
  static_assert(rank >= 1 && rank <= 5, "TMA atom: a tensor map has 1 to 5 dimensions");
  static_assert(tma_detail::compact_col_major<rank, Shape, Stride>(tuple_seq<Shape>{}),
                "TMA atom: the shared layout must be compact column-major (dimension 0 stride 1): TMA writes a box densely");
  // The tile's extents (a function, not a static member: device code may not read host statics).
  CUTE_DSL_HOST_DEVICE static constexpr TmaBox<rank> tile() { return tma_detail::static_extents<Shape>(tuple_seq<Shape>{}); }
  static constexpr int last_extent = tile().crd[rank - 1];
  static_assert(Mcast >= 1 && Mcast <= 16 && last_extent % Mcast == 0,
                "TMA atom: the multicast size (1 to 16) must divide the shared layout's last mode");

  // Per-CTA box extents: the tile with its last mode split among the multicast CTAs.
  CUTE_DSL_HOST_DEVICE static constexpr TmaBox<rank> box_extents() {
    TmaBox<rank> b = tile();
    b.crd[rank - 1] /= Mcast;
    return b;
  }
  static constexpr long tile_elements = long(size(Plain{}));
  static constexpr long box_elements = tile_elements / Mcast;
  // Where slice `r` (0 <= r < Mcast) starts: element offset in shared memory and in the last mode.
  CUTE_DSL_HOST_DEVICE static constexpr long slice_smem_offset(int r) { return r * box_elements; }
  CUTE_DSL_HOST_DEVICE static constexpr int slice_last_mode_offset(int r) { return r * (last_extent / Mcast); }
  static_assert(Mcast == 1 || box_elements % tma_detail::swizzle_period<decltype(tma_detail::swizzle_of(SmemLayout{}))>::value == 0,
                "TMA atom: each multicast slice must start at a multiple of the swizzle period (the swizzle is by address)");

  // The layout of one CTA's box in shared memory: the tile's swizzle over the compact box.
  CUTE_DSL_HOST_DEVICE static constexpr auto box_layout() {
    auto shape = replace_last(Shape{}, tuple_seq<Shape>{});
    auto plain = make_layout(shape);
    if constexpr (requires(SmemLayout const& x) { x.layout_a(); }) return composition(SmemLayout{}.layout_a(), plain);
    else return plain;
  }

 private:
  template <unsigned long... Is>
  CUTE_DSL_HOST_DEVICE static constexpr auto replace_last(Shape const& s, index_sequence<Is...>) {
    return make_shape(last_divided<Is>(get<Is>(s))...);
  }
  template <unsigned long I, class E>
  CUTE_DSL_HOST_DEVICE static constexpr auto last_divided(E e) {
    if constexpr (I + 1 == unsigned(rank)) return Int<E::value / Mcast>{};
    else return e;
  }
};

// One CTA's view of a TMA atom: which box it moves and where in shared memory the box lies.
template <class Math, bool Load>
struct TmaSlice {
  int rank_in_mcast;

  // The box of a global tile, given as its coordinate tensor (a tile of make_identity_tensor).
  template <class CoordTile>
  CUTE_DSL_HOST_DEVICE constexpr TmaBox<Math::rank> partition_gmem(CoordTile const& ctile) const {
    auto origin = ctile(0);
    TmaBox<Math::rank> b = origin_of(origin, tuple_seq<remove_cvref_t<decltype(origin)>>{});
    b.crd[Math::rank - 1] += Math::slice_last_mode_offset(rank_in_mcast);
    return b;
  }
  // This CTA's box within the shared tile `s` (laid out as the atom's shared layout).
  template <class STensor>
  CUTE_DSL_HOST_DEVICE constexpr auto partition_smem(STensor&& s) const {
    static_assert(decltype(size(s.layout()))::value == Math::tile_elements,
                  "TMA atom: the shared tensor must be one whole tile of the atom's shared layout");
    auto* first = &s(Math::slice_smem_offset(rank_in_mcast));
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

// A load bound to its barrier (and multicast mask): what copy() issues.
template <int Rank, bool Multicast>
struct TmaLoadCall {
  TmaDescriptor const* desc;
  unsigned mbar;  // shared address of the mbarrier
  unsigned short mask;
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

  TmaDescriptor desc;  // encoded by make_tma_load_atom (host)

  CUTE_DSL_HOST_DEVICE constexpr TmaSlice<Math, true> get_slice(int rank_in_mcast) const { return {rank_in_mcast}; }
  CUTE_DSL_HOST_DEVICE constexpr TmaDescriptor const* descriptor() const { return &desc; }

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
  // Bind the load to `bar` (a __shared__ mbarrier armed with transaction_bytes) and, with
  // multicast, the mask of CTAs that receive this CTA's slice.
  template <class Bar>
  CUTE_DSL_DEVICE TmaLoadCall<Math::rank, (Mcast > 1)> with(Bar& bar, unsigned short mcast_mask) const {
    static_assert(sizeof(Bar) == 8, "TMA atom: the barrier is a 64-bit mbarrier in shared memory");
    return {&desc, smem_address(&bar), mcast_mask};
  }
  // Without multicast the mask is unused. With multicast it is required: an empty mask delivers
  // the slice nowhere and every CTA's barrier waits forever.
  template <class Bar>
  CUTE_DSL_DEVICE TmaLoadCall<Math::rank, (Mcast > 1)> with(Bar& bar) const {
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
template <bool Multicast, int R, class T, unsigned long... Is>
CUTE_DSL_DEVICE void issue_load(TmaLoadCall<R, Multicast> const& call, TmaBox<R> const& box, T* dst, index_sequence<Is...>) {
  if constexpr (Multicast) SM90_TMA_LOAD_MULTICAST::copy(call.desc, call.mbar, call.mask, dst, box.crd[Is]...);
  else SM90_TMA_LOAD::copy(call.desc, call.mbar, dst, box.crd[Is]...);
}
template <int R, class T, unsigned long... Is>
CUTE_DSL_DEVICE void issue_store(TmaDescriptor const* desc, T const* src, TmaBox<R> const& box, index_sequence<Is...>) {
  SM90_TMA_STORE::copy(desc, src, box.crd[Is]...);
}
}  // namespace tma_detail

// One TMA load of `box` into the shared box tensor `dst` (from partition_D). One thread issues it.
template <int R, bool Multicast, class DE, class DL>
CUTE_DSL_DEVICE void copy(TmaLoadCall<R, Multicast> const& call, TmaBox<R> const& box, Tensor<DE, DL> const& dst) {
  tma_detail::issue_load(call, box, &dst(0), make_index_sequence<R>{});
}
// One TMA store of the shared box tensor `src` (from partition_S) to `box`. One thread issues it.
template <class T, class SL, class SE, class SLayout, int R>
CUTE_DSL_DEVICE void copy(TmaStoreAtom<T, SL> const& atom, Tensor<SE, SLayout> const& src, TmaBox<R> const& box) {
  static_assert(R == TmaStoreAtom<T, SL>::Math::rank, "TMA store: the box's rank differs from the atom's");
  tma_detail::issue_store(atom.descriptor(), &src(0), box, make_index_sequence<R>{});
}
#endif

}  // namespace cute_dsl
