// TiledCopy: a Copy_Atom repeated over threads and values to cover a tile, and each thread's
// share of a tensor (CuTe's make_tiled_copy / TiledCopy / ThrCopy).
//
//   auto tc  = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half>{},
//                              make_layout(make_shape(_16{}, _8{})),        // threads (m, n)
//                              make_layout(make_shape(_8{}, _1{})));       // values per thread
//   auto thr = tc.get_slice(threadIdx.x);
//   auto tS  = thr.partition_S(sA);   // (CPY, CPY_M, CPY_N): this thread's source elements
//   auto tD  = thr.partition_D(sB);
//   copy(tc, tS, tD);
//
// The tile is Tiler (M, N); LayoutTV maps (thread, value) -> index of the tile element, column-
// major over (M, N). LayoutTV describes the atom's REFERENCE side (Copy_Traits::RefLayout); the
// other side's elements follow from the instruction: source value (t, v) of an atom sits where
// reference value right_inverse(ValLayoutRef)(ValLayoutSrc(t, v)) sits. For ldmatrix the
// reference is the destination registers, so partition_S hands each thread the 16-byte row it
// must point at, wherever that row is in the tile.
//
// A partition's mode 0 is CPY = (atom values, atom repeats); modes 1.. walk the tiles of the
// tensor (CPY_M, CPY_N, ...). Tensor layouts may be plain or swizzled (composed with a Swizzle):
// the swizzle stays outermost, so offsets are swizzled after partitioning, as the hardware sees them.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/composition.hpp"
#include "cute_dsl/layout/composed_layout.hpp"
#include "cute_dsl/layout/divide.hpp"
#include "cute_dsl/layout/product.hpp"
#include "cute_dsl/layout/inverse.hpp"
#include "cute_dsl/layout/regroup.hpp"
#include "cute_dsl/tensor/tensor.hpp"
#include "cute_dsl/atom/copy_atom.hpp"

namespace cute_dsl {

namespace detail {
// F applied to a plain layout, or to the inner layout of a ComposedLayout (the swizzle and its
// offset kept outside): partitioning a swizzled tensor partitions its coordinates, never its offsets.
template <class F, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto map_inner_layout(Layout<S, D> const& l, F const& f) { return f(l); }
template <class F, class A, class O, class B>
CUTE_DSL_HOST_DEVICE constexpr auto map_inner_layout(ComposedLayout<A, O, B> const& l, F const& f) {
  return make_composed_layout(l.layout_a(), l.offset(), f(l.layout_b()));
}

// ---- composing a tile whose strides are run-time values --------------------------------------------
// The tile of a global tensor has a static shape (the tiler's) but run-time strides. The general
// composition would then give run-time shapes too (slow, and no static contiguity check). Instead
// compose thrval2mn with a static twin of the tile: the same shape, strides padded so that no two
// modes merge (mode i starts at P_i = prod_{j<i} 2*extent_j), which makes the algebra split every
// leaf at the tile's mode boundaries exactly as it would for the real tile. Each leaf of the result
// then steps inside one mode i (offsets multiple of P_i below P_i * extent_i) and gets that
// mode's real stride. Used when every leaf qualifies (a compile-time check), else the general path.
template <class Shape> struct flat_static_extents { static constexpr bool ok = false; };
template <auto... Ns> struct flat_static_extents<tuple<C<Ns>...>> {
  static constexpr bool ok = true;
  static constexpr long long ext[sizeof...(Ns)] = {(long long)Ns...};
  static constexpr int rank = int(sizeof...(Ns));
};

template <class Ext>
CUTE_DSL_HOST_DEVICE constexpr long long padded_prefix(int mode) {
  long long prefix = 1;
  for (int i = 0; i < mode; ++i) prefix *= 2 * Ext::ext[i];
  return prefix;
}
template <class Ext, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr auto padded_strides(index_sequence<Is...>) {
  return make_tuple(Int<int(padded_prefix<Ext>(int(Is)))>{}...);
}

// The tile mode that the twin's offsets d*k (k < s) stay in; -1 for none (a size-1 or
// zero-stride leaf: 0, its stride is irrelevant).
template <class Ext>
CUTE_DSL_HOST_DEVICE constexpr int stepping_mode(long long s, long long d) {
  if (s == 1 || d == 0) return 0;
  for (int i = Ext::rank - 1; i >= 0; --i) {
    const long long p = padded_prefix<Ext>(i);
    if (d >= p) return (d % p == 0 && (s - 1) * d < p * Ext::ext[i]) ? i : -1;
  }
  return -1;
}

template <class Ext>
struct leaf_fits_fn {
  template <class S, class D>
  CUTE_DSL_HOST_DEVICE constexpr auto operator()(S const&, D const&) const {
    return bool_constant<stepping_mode<Ext>(S::value, D::value) >= 0>{};
  }
};
template <class Ext, class RealStride>
struct restride_fn {
  RealStride real;
  template <class S, class D>
  CUTE_DSL_HOST_DEVICE constexpr auto operator()(S const&, D const&) const {
    if constexpr (S::value == 1 || D::value == 0) {
      return Int<0>{};
    } else {
      constexpr int mode = stepping_mode<Ext>(S::value, D::value);
      constexpr long long step = D::value / padded_prefix<Ext>(mode);
      if constexpr (Ext::rank == 1) return Int<int(step)>{} * real;
      else return Int<int(step)>{} * get<mode>(real);
    }
  }
};

template <class AS, class AD, class B>
CUTE_DSL_HOST_DEVICE constexpr auto compose_tile(Layout<AS, AD> const& a, B const& b) {
  using Shape = conditional_t<is_tuple_v<AS>, AS, tuple<AS>>;
  using Ext = flat_static_extents<Shape>;
  if constexpr (is_static_v<Layout<AS, AD>> || !Ext::ok) {
    return composition(a, b);
  } else {
    auto twin = make_layout(Shape{}, padded_strides<Ext>(make_index_sequence<Ext::rank>{}));
    using Twin = decltype(composition(twin, b));
    constexpr bool fits = decltype(apply(flatten_to_tuple(transform_leaf(typename Twin::shape_type{}, typename Twin::stride_type{},
                                                                         leaf_fits_fn<Ext>{})),
                                         and_all{}))::value;
    if constexpr (!fits) {
      return composition(a, b);
    } else {
      auto strides = transform_leaf(typename Twin::shape_type{}, typename Twin::stride_type{}, restride_fn<Ext, AD>{a.stride()});
      return make_layout(typename Twin::shape_type{}, strides);
    }
  }
}

// ((tile), (rest...)) -> (((thr, thr_rest), (val, val_rest)), (rest...)): the tile mode recomposed
// with thrval2mn, which maps this copy's threads and values to tile indices.
template <class Tiler, class ThrVal2MN>
struct tile_to_thrval_fn {
  template <class S, class D>
  CUTE_DSL_HOST_DEVICE constexpr auto operator()(Layout<S, D> const& l) const {
    auto zipped = zipped_divide(l, Tiler{});
    return make_layout(compose_tile(layout<0>(zipped), ThrVal2MN{}), layout<1>(zipped));
  }
};

// A one-mode tuple layout ((a,b)) as its mode (a,b): slicing keeps the open mode wrapped.
template <class S, class D>
CUTE_DSL_HOST_DEVICE constexpr auto unwrap_single_mode(Layout<S, D> const& l) {
  if constexpr (is_tuple_v<S> && tuple_size_v<S> == 1) return layout<0>(l);
  else return l;
}

// ((val, val_rest), (rest...)) -> ((val, val_rest), rest_0, rest_1, ...)
struct flatten_rest_fn {
  template <class S, class D>
  CUTE_DSL_HOST_DEVICE constexpr auto operator()(Layout<S, D> const& l) const {
    auto cpy = unwrap_single_mode(layout<0>(l));
    auto rest = layout<1>(l);
    if constexpr (is_tuple_v<typename decltype(rest)::shape_type>)
      return layout_of_mode_tuple(tuple_cat(make_tuple(cpy), modes_of(rest)));
    else
      return make_layout(cpy, rest);
  }
};
}  // namespace detail

template <class Atom, class LayoutTV, class Tiler>
struct ThrCopy;

template <class Atom, class LayoutTV_, class Tiler_>
struct TiledCopy : Atom {
  using AtomType = Atom;
  using LayoutTV = LayoutTV_;  // (thread, value) -> tile index
  using Tiler = Tiler_;        // (M, N, ...)
  static constexpr int AtomNumThr = Atom::NumThr;
  static constexpr int AtomNumVal = Atom::NumValRef;
  static constexpr int NumThr = int(decltype(size<0>(LayoutTV{}))::value);
  static constexpr int NumVal = int(decltype(size<1>(LayoutTV{}))::value);
  static_assert(is_static_v<LayoutTV> && is_static_v<Tiler>, "TiledCopy: the thread/value layout and the tiler must be static");
  static_assert(NumThr % AtomNumThr == 0, "TiledCopy: the thread count must be a multiple of the atom's (32 for ldmatrix/stmatrix)");
  static_assert(NumVal % AtomNumVal == 0, "TiledCopy: the values per thread must be a multiple of the atom's");

  // ((thr, thr_rest), (val, val_rest)) -> tile index, the atom's source (or destination) side.
  template <class ValLayoutTrg>
  CUTE_DSL_HOST_DEVICE static constexpr auto thrval_to_tile() {
    auto ref2trg = composition(right_inverse(typename Atom::ValLayoutRef{}), ValLayoutTrg{});
    auto atom_tv = zipped_divide(LayoutTV{}, make_shape(Int<AtomNumThr>{}, Int<AtomNumVal>{}));
    auto trg = composition(layout<0>(atom_tv), ref2trg);
    auto rest = layout<1>(atom_tv);
    return make_layout(make_layout(layout<0>(trg), layout<0>(rest)), make_layout(layout<1>(trg), layout<1>(rest)));
  }
  using ThrValSrc = decltype(thrval_to_tile<typename Atom::ValLayoutSrc>());
  using ThrValDst = decltype(thrval_to_tile<typename Atom::ValLayoutDst>());

  // (((thr, thr_rest), (val, val_rest)), (rest...)) views of a tensor's layout.
  template <class L>
  CUTE_DSL_HOST_DEVICE static constexpr auto tidfrg_S(L const& l) {
    return detail::map_inner_layout(l, detail::tile_to_thrval_fn<Tiler, ThrValSrc>{});
  }
  template <class L>
  CUTE_DSL_HOST_DEVICE static constexpr auto tidfrg_D(L const& l) {
    return detail::map_inner_layout(l, detail::tile_to_thrval_fn<Tiler, ThrValDst>{});
  }

  template <class Idx>
  CUTE_DSL_HOST_DEVICE constexpr auto get_slice(Idx const& thr_idx) const {
    return ThrCopy<Atom, LayoutTV, Tiler>{int(thr_idx)};
  }
  template <class Idx>
  CUTE_DSL_HOST_DEVICE constexpr auto get_thread_slice(Idx const& thr_idx) const { return get_slice(thr_idx); }
};

template <class Atom, class LayoutTV, class Tiler>
struct ThrCopy {
  using Tiled = TiledCopy<Atom, LayoutTV, Tiler>;
  int thr_idx;

  // This thread's source / destination elements: (CPY, CPY_M, CPY_N, ...).
  template <class E, class L>
  CUTE_DSL_HOST_DEVICE constexpr auto partition_S(Tensor<E, L> const& t) const { return partition(t, Tiled::tidfrg_S(t.layout())); }
  template <class E, class L>
  CUTE_DSL_HOST_DEVICE constexpr auto partition_D(Tensor<E, L> const& t) const { return partition(t, Tiled::tidfrg_D(t.layout())); }

  // A register fragment (made with another partition, e.g. an MMA's) viewed with mode 0 split as
  // (atom values, rest): (CPY, modes 1.. of t). Its elements keep their 1-D order.
  template <class E, class L>
  CUTE_DSL_HOST_DEVICE constexpr auto retile_S(Tensor<E, L> const& t) const { return retile<Atom::NumValSrc>(t); }
  template <class E, class L>
  CUTE_DSL_HOST_DEVICE constexpr auto retile_D(Tensor<E, L> const& t) const { return retile<Atom::NumValDst>(t); }

 private:
  template <class E, class L, class TV>
  CUTE_DSL_HOST_DEVICE constexpr auto partition(Tensor<E, L> const& t, TV const& tv) const {
    auto mine = tv(make_coord(make_coord(thr_idx, _), _));  // ((val, val_rest), (rest...)), swizzle kept outside
    if constexpr (requires { mine.layout_b(); })
      return make_tensor(t.data(), detail::map_inner_layout(mine, detail::flatten_rest_fn{}));
    else
      return make_tensor(t.data() + get<1>(slice_and_offset(make_coord(make_coord(thr_idx, _), _), tv)),
                         detail::flatten_rest_fn{}(mine));
  }
  template <int AV, class E, class L>
  CUTE_DSL_HOST_DEVICE static constexpr auto retile(Tensor<E, L> const& t) {
    auto m0 = layout<0>(t.layout());
    static_assert(decltype(size(m0))::value % AV == 0, "retile: mode 0 of the fragment must hold whole atoms");
    auto split = composition(m0, make_layout(make_shape(Int<AV>{}, Int<decltype(size(m0))::value / AV>{})));
    if constexpr (rank_v<typename L::shape_type> == 1) return make_tensor(t.data(), make_layout(split));
    else return make_tensor(t.data(), layout_of_mode_tuple(tuple_cat(make_tuple(split), modes_of(take<1, rank_v<typename L::shape_type>>(t.layout())))));
  }
};

// A TiledCopy from its thread/value layout ((thread, value) -> index of an element of the tile
// `tiler`, column-major), e.g. an MMA's operand layout.
template <class Atom, class LayoutTV, class TilerMN>
CUTE_DSL_HOST_DEVICE constexpr auto make_tiled_copy_impl(Atom const&, LayoutTV const&, TilerMN const&) {
  return TiledCopy<Atom, LayoutTV, TilerMN>{};
}

// Threads laid out as thr_layout over the tile, each holding a val_layout block (CuTe's
// make_tiled_copy): the tile is raked_product(thr_layout, val_layout), (m, n) -> thread + value*#threads.
template <class Op, class T, class TS, class TD, class VS, class VD>
CUTE_DSL_HOST_DEVICE constexpr auto make_tiled_copy(Copy_Atom<Op, T> const& atom, Layout<TS, TD> const& thr_layout,
                                                    Layout<VS, VD> const& val_layout = {}) {
  auto layout_mn = raked_product(thr_layout, val_layout);
  auto layout_tv = composition(right_inverse(layout_mn), make_layout(make_shape(size(thr_layout), size(val_layout))));
  auto tiler = product_each(layout_mn.shape());
  return make_tiled_copy_impl(atom, layout_tv, tiler);
}

// This thread's share through the atom: copy(tc, thr.partition_S(s), thr.partition_D(d)).
template <class Atom, class LTV, class Tl, class SE, class SL, class Dst>
  requires is_tensor_v<Dst>
CUTE_DSL_HOST_DEVICE void copy(TiledCopy<Atom, LTV, Tl> const& tc, Tensor<SE, SL> const& src, Dst&& dst) {
  copy(static_cast<Atom const&>(tc), src, dst);
}
template <class Atom, class LTV, class Tl, class Pred, class SE, class SL, class Dst>
  requires is_tensor_v<Dst>
CUTE_DSL_HOST_DEVICE void copy_if(TiledCopy<Atom, LTV, Tl> const& tc, Pred const& pred, Tensor<SE, SL> const& src, Dst&& dst) {
  copy_if(static_cast<Atom const&>(tc), pred, src, dst);
}

}  // namespace cute_dsl
