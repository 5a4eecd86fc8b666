// The products: repeat a block layout in the arrangement of a tiler layout.
//
//   logical_product(B, T) == (B, composition(complement(B, size(B)*cosize(T)), T))
//   logical_product(B, [T0,T1])  mode i of B times Ti; B's other modes kept
//   zipped/tiled/flat_product    the regroupings of the divides
//   blocked_product(B, T)        ((B0,C0),(B1,C1),...) after padding to a common rank
//   raked_product(B, T)          ((C0,B0),(C1,B1),...)
//   blocked_product(6:1, 4:1) == ((6,4)):((1,6))
//
// Static inputs: the tree algorithm decides (layout/tree_product.hpp).
// Run-time leaves: the rules are checked on the values; the block's strides must be static (its
// complement orders modes by stride at compile time); its shapes and the tiler may be run-time.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/static_bridge.hpp"
#include "cute_dsl/layout/static_ops.hpp"
#include "cute_dsl/layout/dynamic_support.hpp"
#include "cute_dsl/layout/composition.hpp"
#include "cute_dsl/layout/complement.hpp"
#include "cute_dsl/layout/regroup.hpp"

namespace cute_dsl {

namespace detail {

template <class B, class T>
CUTE_DSL_HOST_DEVICE constexpr auto logical_product_layout(const char* fn, B const& block, T const& tiler) {
  if constexpr (is_static_v<B> && is_static_v<T>) {
    using R = StaticResult<TileOpOf<TileOp::logical_product, B, T>>;
    CUTE_DSL_STATIC_RESULT_CHECKS(R::result, "logical_product");
    return decode_layout_t<R>{};
  } else {
    CUTE_DSL_UNSUPPORTED_DYNAMIC(is_static_v<typename B::stride_type>, "logical_product",
                                 "run-time strides in the block are not supported (its complement orders modes by stride at compile time)");
    if constexpr (is_static_v<typename B::stride_type>)
      return layout_of_modes(
          block, composition_impl(fn, normalize_tail(complement_impl(fn, block, size(block) * cosize(tiler))), tiler));
    else
      return layout_of_modes(block, tiler);
  }
}

template <int K, class B, class T>
CUTE_DSL_HOST_DEVICE constexpr auto logical_product_mode(const char* fn, B const& b, T const& t) {
  if constexpr (K < int(tuple_size_v<T>)) return logical_product_layout(fn, mode<K>(b), tiler_layout(get<K>(t)));
  else return mode<K>(b);
}
template <class B, class T, unsigned long... Ks>
CUTE_DSL_HOST_DEVICE constexpr auto logical_product_modes(const char* fn, B const& b, T const& t, index_sequence<Ks...>) {
  return layout_of_modes(logical_product_mode<int(Ks)>(fn, b, t)...);
}

template <class B, class T>
CUTE_DSL_HOST_DEVICE constexpr auto logical_product_impl(const char* fn, B const& b, T const& t) {
  if constexpr (is_tuple_v<T>) {
    constexpr int BR = rank_v<typename B::shape_type>;
    static_assert(int(tuple_size_v<T>) <= BR, "logical_product: " CUTE_DSL_RULE_TEXT(rank_mismatch));
    return logical_product_modes(fn, b, t, make_index_sequence<BR>{});
  } else {
    return logical_product_layout(fn, b, tiler_layout(t));
  }
}

// The layout padded with 1:0 modes to rank R; unchanged (integral stays integral) if already there.
template <int R, class L, unsigned long... Ks, unsigned long... Ps>
CUTE_DSL_HOST_DEVICE constexpr auto pad_to_rank(L const& l, index_sequence<Ks...>, index_sequence<Ps...>) {
  return layout_of_modes(mode<int(Ks)>(l)..., ((void)Ps, make_layout(Int<1>{}, Int<0>{}))...);
}
template <int R, class L>
CUTE_DSL_HOST_DEVICE constexpr auto pad_to_rank(L const& l) {
  constexpr int have = rank_v<typename L::shape_type>;
  if constexpr (have >= R) return l;
  else return pad_to_rank<R>(l, make_index_sequence<have>{}, make_index_sequence<R - have>{});
}

// Mode K of x, or all of x when `whole` (x belongs to an integral layout).
template <int K, bool Whole, class L>
CUTE_DSL_HOST_DEVICE constexpr auto mode_or_whole(L const& l) {
  if constexpr (Whole) return l;
  else return mode<K>(l);
}

template <bool Raked, bool BlockIntegral, bool TilerIntegral, class B, class C, unsigned long... Ks>
CUTE_DSL_HOST_DEVICE constexpr auto zip_modes(B const& b, C const& c, index_sequence<Ks...>) {
  if constexpr (Raked)
    return layout_of_modes(
        layout_of_modes(mode_or_whole<int(Ks), TilerIntegral>(c), mode_or_whole<int(Ks), BlockIntegral>(b))...);
  else
    return layout_of_modes(
        layout_of_modes(mode_or_whole<int(Ks), BlockIntegral>(b), mode_or_whole<int(Ks), TilerIntegral>(c))...);
}

// tree::detail::zipped_rank_product on template layouts. C, the copies, is shaped like the padded
// tiler: an integral tiler gives one mode even when its composition split into several.
template <bool Raked, class B, class T>
CUTE_DSL_HOST_DEVICE constexpr auto zipped_rank_product(const char* fn, B const& block, T const& tiler) {
  constexpr int BR = rank_v<typename B::shape_type>, TR = rank_v<typename T::shape_type>;
  constexpr int R = BR > TR ? BR : TR;
  auto b = pad_to_rank<R>(block);
  auto t = pad_to_rank<R>(tiler);
  auto c = mode<1>(logical_product_layout(fn, b, t));
  return zip_modes<Raked, !is_tuple_v<typename decltype(b)::shape_type>, !is_tuple_v<typename decltype(t)::shape_type>>(
      b, c, make_index_sequence<R>{});
}

}  // namespace detail

#define CUTE_DSL_DEFINE_PRODUCT(name, zip, splice_first, splice_second)                                   \
  template <class S, class D, class T>                                                                     \
    requires Tiler<T>                                                                                      \
  CUTE_DSL_HOST_DEVICE constexpr auto name(Layout<S, D> const& block, T const& tiler) {                    \
    using B = Layout<S, D>;                                                                                \
    if constexpr (is_tuple_v<T>)                                                                           \
      static_assert(tuple_size_v<T> <= rank_v<S>, #name ": " CUTE_DSL_RULE_TEXT(rank_mismatch));           \
    if constexpr (is_static_v<B> && is_static_v<T>) {                                                      \
      using R = detail::StaticResult<detail::TileOpOf<detail::TileOp::name, B, T>>;                        \
      CUTE_DSL_STATIC_RESULT_CHECKS(R::result, #name);                                                     \
      return decode_layout_t<R>{};                                                                         \
    } else {                                                                                               \
      CUTE_DSL_CHECK_BY_TREE(#name, (detail::run_tile_op_values<detail::TileOp::name>(block, tiler)));     \
      return detail::regroup<(zip) ? detail::tiler_rank_v<T> : 0, splice_first, splice_second>(            \
          detail::logical_product_impl(#name, block, tiler));                                                     \
    }                                                                                                      \
  }

CUTE_DSL_DEFINE_PRODUCT(logical_product, false, false, false)
CUTE_DSL_DEFINE_PRODUCT(zipped_product, true, false, false)
CUTE_DSL_DEFINE_PRODUCT(tiled_product, true, false, true)
CUTE_DSL_DEFINE_PRODUCT(flat_product, true, true, true)
#undef CUTE_DSL_DEFINE_PRODUCT

#define CUTE_DSL_DEFINE_RANK_PRODUCT(name, raked)                                                          \
  template <class S, class D, class T>                                                                     \
    requires(is_layout_v<T> || is_integral_v<T>)                                                           \
  CUTE_DSL_HOST_DEVICE constexpr auto name(Layout<S, D> const& block, T const& tiler) {                    \
    using B = Layout<S, D>;                                                                                \
    if constexpr (is_static_v<B> && is_static_v<T>) {                                                      \
      using R = detail::StaticResult<detail::TileOpOf<detail::TileOp::name, B, T>>;                        \
      CUTE_DSL_STATIC_RESULT_CHECKS(R::result, #name);                                                     \
      return decode_layout_t<R>{};                                                                         \
    } else {                                                                                               \
      CUTE_DSL_CHECK_BY_TREE(#name, (detail::run_tile_op_values<detail::TileOp::name>(block, tiler)));     \
      return detail::zipped_rank_product<raked>(#name, block, detail::tiler_layout(tiler));                       \
    }                                                                                                      \
  }

CUTE_DSL_DEFINE_RANK_PRODUCT(blocked_product, false)
CUTE_DSL_DEFINE_RANK_PRODUCT(raked_product, true)
#undef CUTE_DSL_DEFINE_RANK_PRODUCT

}  // namespace cute_dsl
