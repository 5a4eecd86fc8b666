// TiledMMA: an MMA atom replicated over a layout of atoms (threads) and, optionally, with the
// tile's M/N/K coordinates permuted, in CuTe's terms:
//
//   auto mma = make_tiled_mma(MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>{},
//                             make_layout(make_shape(_2{}, _2{}, _1{})));   // 4 warps, 32x16x16
//   auto thr = mma.get_slice(threadIdx.x);
//   auto tCgC = thr.partition_C(gC);             // (V, RestM, RestN): this thread's C elements
//   auto tCrA = thr.partition_fragment_A(sA);    // (V, RestM, RestK) registers
//   gemm(mma, tCrC, tCrA, tCrB, tCrC);
//
// How an (M, N) tile is cut (thrfrg_C; A and B alike with (M, K) and (N, K)):
//   1. each mode is permuted by its permutation layout (none where it is `_`),
//   2. zipped_divide by the atom's (AtomM, AtomN):          ((AtomM, AtomN), (RestM, RestN))
//   3. the atom mode composed with the atom's CLayout:      ((ThrV, FrgV), (RestM, RestN))
//   4. the rest divided among the atoms (ThrM, ThrN):       ((ThrV, (ThrM, ThrN)), (FrgV, RestM', RestN'))
// Thread t = v + ThrV * atom_layout(m, n, k) then owns mode 1 at coordinate (v, (m, n)).
// The same cut works on layouts (offsets) and on tensors of any memory, and on swizzled
// (composed) layouts, whose swizzle keeps acting on the final offsets.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/layout/underscore.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/composed_layout.hpp"
#include "cute_dsl/layout/algebra.hpp"
#include "cute_dsl/tensor/tensor.hpp"
#include "cute_dsl/algorithm/gemm.hpp"
#include "cute_dsl/arch/sm90/gmma_desc.hpp"
#include "cute_dsl/atom/mma_atom.hpp"

namespace cute_dsl {

namespace detail {

// Mode I of a (M, N)-like layout, permuted by P (`_`: unchanged).
template <int I, class P, class L>
CUTE_DSL_HOST_DEVICE constexpr auto permuted_mode(L const& l, P const& p) {
  if constexpr (is_underscore_v<P>) return layout<I>(l);
  else return logical_divide(layout<I>(l), p);
}

// Steps 1-4 of the header comment on a plain layout: ((ThrV, (Thr0, Thr1)), (FrgV, Rest0, Rest1,
// Extra...)). Modes past the first two (e.g. the PIPE mode of a shared-memory ring, or a batch)
// are not cut: they follow Rest1 in every thread's share.
template <int Atom0, int Atom1, int Thr0, int Thr1, class AtomTV, class P0, class P1, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto thrfrg(Layout<S, D> const& l, P0 const& p0, P1 const& p1) {
  static_assert(rank_v<S> >= 2, "TiledMMA partition: the operand must have at least two modes ((M,K), (N,K) or (M,N), then any others)");
  auto permuted = make_layout(permuted_mode<0>(l, p0), permuted_mode<1>(l, p1));
  auto by_atom = zipped_divide(permuted, make_tile(Int<Atom0>{}, Int<Atom1>{}));   // ((A0,A1),(R0,R1))
  auto tv = composition(layout<0>(by_atom), AtomTV{});                            // (ThrV, FrgV)
  auto by_thr = zipped_divide(layout<1>(by_atom), make_tile(Int<Thr0>{}, Int<Thr1>{}));  // ((T0,T1),(R0',R1'))
  auto values = make_layout(layout<1>(tv), layout<1, 0>(by_thr), layout<1, 1>(by_thr));
  if constexpr (rank_v<S> == 2) return make_layout(make_layout(layout<0>(tv), layout<0>(by_thr)), values);
  else return make_layout(make_layout(layout<0>(tv), layout<0>(by_thr)), append_modes(values, take<2, int(rank_v<S>)>(l)));
}

// The modes of `extra` appended to the modes of `l`.
template <class L, class E>
CUTE_DSL_HOST_DEVICE constexpr auto append_modes(L const& l, E const& extra) {
  return append_modes_impl(l, extra, make_index_sequence<rank_v<typename L::shape_type>>{},
                           make_index_sequence<rank_v<typename E::shape_type>>{});
}
template <class L, class E, unsigned long... Is, unsigned long... Js>
CUTE_DSL_HOST_DEVICE constexpr auto append_modes_impl(L const& l, E const& extra, index_sequence<Is...>, index_sequence<Js...>) {
  return make_layout(layout<int(Is)>(l)..., layout<int(Js)>(extra)...);
}

// A thread's share of a thrfrg result: the value modes at the thread's coordinate, as a tensor
// over `it`. A composed (swizzled) layout keeps the iterator and takes the offset into itself.
template <class It, class L, class Crd>
CUTE_DSL_HOST_DEVICE constexpr auto thread_share(It const& it, L const& frg, Crd const& thr) {
  auto offset = layout<0>(frg)(thr);
  return make_tensor(it + offset, layout<1>(frg));
}
template <class It, class A, class O, class L, class Crd>
CUTE_DSL_HOST_DEVICE constexpr auto thread_share(It const& it, ComposedLayout<A, O, L> const& frg, Crd const& thr) {
  auto offset = frg.offset() + layout<0>(frg.layout_b())(thr);
  return make_tensor(it, make_composed_layout(frg.layout_a(), offset, layout<1>(frg.layout_b())));
}

template <class T> CUTE_DSL_HOST_DEVICE constexpr auto raw_pointer(T* p) { return p; }
template <class S, class T> CUTE_DSL_HOST_DEVICE constexpr auto raw_pointer(tagged_ptr<S, T> const& p) { return p.get(); }

// The descriptors of a partitioned shared-memory operand (V, Rest0, Rest1, Extra...) whose element
// 0 (the tensor's iterator) sits at shared-memory byte address `base`: a (1, Rest0, Rest1,
// Extra...) tensor over a GmmaDescriptorIterator. Its origin is the descriptor of the V block
// (the atom's whole (MN, 16) block at the composed layout's offset); its strides are the
// operand's strides in 16-byte units, unswizzled: the hardware swizzles the full address, so a
// block's descriptor is the origin's with the block's plain offset added to the start address.
template <int ElemBytes>
struct to_16_byte_units {  // a functor, not a lambda: NVRTC needs every device function annotated
  template <class D>
  CUTE_DSL_HOST_DEVICE constexpr auto operator()(D) const {
    static_assert(is_static_v<D>, "partition_fragment_A/B (wgmma): the shared operand's layout must be static");
    static_assert(D::value * ElemBytes % 16 == 0,
                  "partition_fragment_A/B (wgmma): every block must start on a 16-byte boundary (the descriptor's address unit)");
    return Int<D::value * ElemBytes / 16>{};
  }
};
template <int ElemBytes, class Stride>
CUTE_DSL_HOST_DEVICE constexpr auto stride_in_16_bytes(Stride const& s) {
  return transform_leaf(s, to_16_byte_units<ElemBytes>{});
}
template <class L>
CUTE_DSL_HOST_DEVICE constexpr auto plain_part(L const& l) {
  if constexpr (requires { l.layout_b(); }) return l.layout_b();
  else return l;
}
template <class L>
CUTE_DSL_HOST_DEVICE constexpr auto origin_block(L const& l) {
  if constexpr (requires { l.layout_b(); }) return make_composed_layout(l.layout_a(), l.offset(), layout<0>(l.layout_b()));
  else return layout<0>(l);
}
template <GmmaMajor Major, class T>
CUTE_DSL_HOST_DEVICE constexpr auto gmma_descriptor_fragment(unsigned base, T const& part) {
  using Elem = typename remove_cvref_t<T>::value_type;
  auto l = part.layout();
  auto plain = plain_part(l);
  auto block = origin_block(l);  // the V mode at the origin, with the swizzle when there is one
  auto rest = take<1, int(rank_v<typename decltype(plain)::shape_type>)>(plain);
  auto units = make_layout(rest.shape(), stride_in_16_bytes<int(sizeof(Elem))>(rest.stride()));
  return make_tensor(GmmaDescriptorIterator{make_gmma_desc<Major, Elem>(base, block)},
                     prepend(units, make_layout(Int<1>{}, Int<0>{})));
}

}  // namespace detail

template <class Atom, class AtomLayoutMNK, class PermutationMNK>
struct TiledMMA;

// One thread's view of a TiledMMA: partitions operands into the thread's fragments.
template <class Tiled>
struct ThrMMA {
  Tiled mma;
  int thr_v, thr_m, thr_n, thr_k;  // the thread's coordinate in (ThrV, ThrM, ThrN, ThrK)

  template <class T> CUTE_DSL_HOST_DEVICE constexpr auto partition_C(T const& c) const { return mma.partition_C(c, thr_v, thr_m, thr_n); }
  template <class T> CUTE_DSL_HOST_DEVICE constexpr auto partition_A(T const& a) const { return mma.partition_A(a, thr_v, thr_m, thr_k); }
  template <class T> CUTE_DSL_HOST_DEVICE constexpr auto partition_B(T const& b) const { return mma.partition_B(b, thr_v, thr_n, thr_k); }

  // Register fragments shaped like this thread's partition (element types from the atom). For
  // operands read through wgmma descriptors: a tensor of descriptors, one per (Rest, K) block.
  template <class T> CUTE_DSL_HOST_DEVICE constexpr auto partition_fragment_C(T const& c) const {
    return Tiled::make_fragment_C(partition_C(c));
  }
  template <class T> CUTE_DSL_HOST_DEVICE constexpr auto partition_fragment_A(T const& a) const {
    return Tiled::make_fragment_A(partition_A(a));
  }
  template <class T> CUTE_DSL_HOST_DEVICE constexpr auto partition_fragment_B(T const& b) const {
    return Tiled::make_fragment_B(partition_B(b));
  }
};

template <class Op, class AtomLayoutMNK, class PermutationMNK>
struct TiledMMA<MMA_Atom<Op>, AtomLayoutMNK, PermutationMNK> : MMA_Atom<Op> {
  using Atom = MMA_Atom<Op>;
  using Traits = MMA_Traits<Op>;
  static_assert(is_static_v<AtomLayoutMNK> && rank_v<typename AtomLayoutMNK::shape_type> == 3,
                "make_tiled_mma: the atom layout must be a static (M, N, K) layout");
  static_assert(is_same_v<typename Traits::ThrID, Layout<decltype(size(typename Traits::ThrID{}))>>,
                "TiledMMA: atoms whose threads are not 0..n-1 are not supported");

  static constexpr int atom_m = int(get<0>(typename Traits::Shape_MNK{}));
  static constexpr int atom_n = int(get<1>(typename Traits::Shape_MNK{}));
  static constexpr int atom_k = int(get<2>(typename Traits::Shape_MNK{}));
  static constexpr int thr_v = int(decltype(size(typename Traits::ThrID{}))::value);
  static constexpr int thr_m = int(decltype(size<0>(AtomLayoutMNK{}))::value);
  static constexpr int thr_n = int(decltype(size<1>(AtomLayoutMNK{}))::value);
  static constexpr int thr_k = int(decltype(size<2>(AtomLayoutMNK{}))::value);
  static constexpr int num_threads = thr_v * thr_m * thr_n * thr_k;

  PermutationMNK permutations{};

  CUTE_DSL_HOST_DEVICE constexpr TiledMMA(Atom const& atom = {}, PermutationMNK const& p = {}) : Atom(atom), permutations(p) {}

  CUTE_DSL_HOST_DEVICE constexpr Atom const& atom() const { return *this; }

  // The (M, N, K) extent one application of the tiled MMA covers.
  template <int I>
  CUTE_DSL_HOST_DEVICE static constexpr int tile_size() {
    using P = remove_cvref_t<decltype(get<I>(PermutationMNK{}))>;
    constexpr int atom = I == 0 ? atom_m * thr_m : I == 1 ? atom_n * thr_n : atom_k * thr_k;
    if constexpr (is_underscore_v<P>) return atom;
    else return int(decltype(size(P{}))::value);
  }

  // thread index -> (v, m, n, k): v fastest, then the atom layout's own order (its strides).
  CUTE_DSL_HOST_DEVICE constexpr ThrMMA<TiledMMA> get_slice(int thr_idx) const {
    int v = thr_idx % thr_v, atom_idx = thr_idx / thr_v;
    // A mode of size 1 may have stride 0 (the padding of a rank-2 atom layout): its coordinate is 0.
    constexpr int sm = atom_stride<0>(), sn = atom_stride<1>(), sk = atom_stride<2>();
    return ThrMMA<TiledMMA>{*this, v, (atom_idx / sm) % thr_m, (atom_idx / sn) % thr_n, (atom_idx / sk) % thr_k};
  }
  CUTE_DSL_HOST_DEVICE constexpr ThrMMA<TiledMMA> get_thread_slice(int thr_idx) const { return get_slice(thr_idx); }

  // thrfrg on a layout (plain or composed): ((ThrV, (Thr0, Thr1)), (FrgV, Rest0, Rest1)).
  template <class L> CUTE_DSL_HOST_DEVICE constexpr auto thrfrg_C(L const& c) const {
    return frg<atom_m, atom_n, thr_m, thr_n, typename Traits::CLayout>(c, get<0>(permutations), get<1>(permutations));
  }
  template <class L> CUTE_DSL_HOST_DEVICE constexpr auto thrfrg_A(L const& a) const {
    return frg<atom_m, atom_k, thr_m, thr_k, typename Traits::ALayout>(a, get<0>(permutations), get<2>(permutations));
  }
  template <class L> CUTE_DSL_HOST_DEVICE constexpr auto thrfrg_B(L const& b) const {
    return frg<atom_n, atom_k, thr_n, thr_k, typename Traits::BLayout>(b, get<1>(permutations), get<2>(permutations));
  }

  // Thread (v, i, j)'s share of a tensor: (FrgV, Rest0, Rest1).
  template <class T> CUTE_DSL_HOST_DEVICE constexpr auto partition_C(T const& c, int v, int m, int n) const {
    return share(c, thrfrg_C(c.layout()), v, m, n);
  }
  template <class T> CUTE_DSL_HOST_DEVICE constexpr auto partition_A(T const& a, int v, int m, int k) const {
    return share(a, thrfrg_A(a.layout()), v, m, k);
  }
  template <class T> CUTE_DSL_HOST_DEVICE constexpr auto partition_B(T const& b, int v, int n, int k) const {
    return share(b, thrfrg_B(b.layout()), v, n, k);
  }

  // Fragments for partitioned tensors (CuTe's make_fragment_A/B/C).
  template <class T> CUTE_DSL_HOST_DEVICE static constexpr auto make_fragment_C(T const& tCc) {
    return make_tensor<typename Traits::ValTypeC>(make_layout(tCc.shape()));
  }
  template <class T> CUTE_DSL_HOST_DEVICE static constexpr auto make_fragment_A(T const& tCa) {
    if constexpr (mma_a_is_descriptor_v<Op>) return descriptors<Traits::major_a>(tCa);
    else return make_tensor<typename Traits::ValTypeA>(make_layout(tCa.shape()));
  }
  template <class T> CUTE_DSL_HOST_DEVICE static constexpr auto make_fragment_B(T const& tCb) {
    if constexpr (mma_b_is_descriptor_v<Op>) return descriptors<Traits::major_b>(tCb);
    else return make_tensor<typename Traits::ValTypeB>(make_layout(tCb.shape()));
  }

 private:
  template <int I>
  CUTE_DSL_HOST_DEVICE static constexpr int atom_stride() {
    constexpr int s = int(decltype(stride<I>(AtomLayoutMNK{}))::value);
    return s == 0 ? 1 : s;
  }
  template <int A0, int A1, int T0, int T1, class TV, class L, class P0, class P1>
  CUTE_DSL_HOST_DEVICE static constexpr auto frg(L const& l, P0 const& p0, P1 const& p1) {
    if constexpr (is_layout_v<L> && requires { l.layout_b(); })
      return make_composed_layout(l.layout_a(), l.offset(), detail::thrfrg<A0, A1, T0, T1, TV>(l.layout_b(), p0, p1));
    else return detail::thrfrg<A0, A1, T0, T1, TV>(l, p0, p1);
  }
  template <class T, class F>
  CUTE_DSL_HOST_DEVICE static constexpr auto share(T const& t, F const& frg, int v, int i, int j) {
    return detail::thread_share(t.data(), frg, make_coord(v, make_coord(i, j)));
  }

  // One wgmma descriptor per (Rest0, Rest1) block of a partitioned shared-memory operand whose
  // value mode is the atom's whole (MN, 16) block. Device code only (shared-memory addresses);
  // the arithmetic is detail::gmma_descriptor_fragment, which host tests run with a chosen base.
  template <GmmaMajor Major, class T>
  CUTE_DSL_HOST_DEVICE static auto descriptors(T const& part) {
    unsigned base = 0;
#if defined(__CUDA_ARCH__)
    base = static_cast<unsigned>(__cvta_generic_to_shared(detail::raw_pointer(part.data())));
#endif
    return detail::gmma_descriptor_fragment<Major>(base, part);
  }
};

// make_tiled_mma(atom, atom_layout = (1,1,1), permutations = (_, _, _)).
template <class Op, class AtomLayout = Layout<Shape<Int<1>, Int<1>, Int<1>>>,
          class Permutations = tuple<Underscore, Underscore, Underscore>>
CUTE_DSL_HOST_DEVICE constexpr auto make_tiled_mma(MMA_Atom<Op> const& atom, AtomLayout const& = {}, Permutations const& p = {}) {
  static_assert(is_layout_v<AtomLayout>, "make_tiled_mma: the atom layout must be a layout");
  using L3 = decltype(append<3>(AtomLayout{}));
  using P3 = decltype(append<3>(p, Underscore{}));
  return TiledMMA<MMA_Atom<Op>, L3, P3>(atom, append<3>(p, Underscore{}));
}
template <class Op, class... Rest>
  requires MmaOp<Op>
CUTE_DSL_HOST_DEVICE constexpr auto make_tiled_mma(Op const&, Rest const&... rest) {
  return make_tiled_mma(MMA_Atom<Op>{}, rest...);
}

// The number of threads a TiledMMA runs on.
template <class A, class L, class P>
CUTE_DSL_HOST_DEVICE constexpr auto size(TiledMMA<A, L, P> const&) {
  return Int<TiledMMA<A, L, P>::num_threads>{};
}

// gemm with a TiledMMA on this thread's fragments: D = A * B + C over (V, M, K) x (V, N, K).
// The K loop lives here (not in the generic loop of algorithm/gemm.hpp) because of wgmma's
// scale-d: only the first K block may use the atom's `accumulate` (0: overwrite), the others
// must add.
template <class A, class L, class P, class TD, class TA, class TB, class TC>
CUTE_DSL_HOST_DEVICE void gemm(TiledMMA<A, L, P> const& mma, TD&& D, TA const& tA, TB const& tB, TC const& C) {
  constexpr int ra = remove_cvref_t<TA>::rank;
  if constexpr (ra == 3) {
    constexpr int K = int(decltype(size<2>(tA))::value);
    A atom = mma.atom();
    CUTE_DSL_UNROLL
    for (int k = 0; k < K; ++k) {
      if (k == 0) gemm(atom, D, tA(_, _, k), tB(_, _, k), C);
      else gemm(atom, D, tA(_, _, k), tB(_, _, k), D);
      atom.accumulate = 1;
    }
  } else {
    gemm(mma.atom(), D, tA, tB, C);
  }
}
template <class A, class L, class P, class TA, class TB, class TC>
CUTE_DSL_HOST_DEVICE void gemm(TiledMMA<A, L, P> const& mma, TA const& tA, TB const& tB, TC&& C) {
  gemm(mma, C, tA, tB, C);
}

}  // namespace cute_dsl
