// The divides: split a layout into tiles and the layout of the tiles.
//
//   logical_divide(L, T) == composition(L, (T, complement(T, shape(coalesce(L)))))
//   logical_divide((8,4):(1,8), make_tile(_2{}, _2{})) divides mode 0 by 2:1 and mode 1 by 2:1
//   zipped_divide(L, [T0,T1])  ((tile modes...), (rest modes..., L's extra modes...))
//   tiled_divide               ((tile modes...), rest modes...)
//   flat_divide                (tile modes..., rest modes...)
// Tiles need not divide L: the result is then larger than L (6 divided by 4 has size 8).
//
// Static L and tiler: the tree algorithm decides (layout/tree_divide.hpp).
// Run-time leaves: the rules are checked on the values; the tile's strides must be static (its
// complement orders modes by stride at compile time), L and the tile's shapes may be run-time.
// The local_tile case keeps its static tile:
//   logical_divide((M,N):(_1,M), make_tile(_128{}, _64{}))
//     == ((_128, ceil(M/128)), (_64, ceil(N/64))) : ((_1, _128), (M, _64*M)).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/static_bridge.hpp"
#include "cute_dsl/layout/static_ops.hpp"
#include "cute_dsl/layout/dynamic_support.hpp"
#include "cute_dsl/layout/coalesce.hpp"
#include "cute_dsl/layout/composition.hpp"
#include "cute_dsl/layout/complement.hpp"
#include "cute_dsl/layout/regroup.hpp"

namespace cute_dsl {

namespace detail {

template <class V, int R, unsigned long... Is>
CUTE_DSL_HOST_DEVICE constexpr auto slot_shapes(SlotModes<R> const& m, index_sequence<Is...>) {
  return make_tuple(V(Is < unsigned(m.count) ? m.shape[Is] : 1)...);
}

// shape(coalesce(L)) as the cotarget of the tile's complement. With run-time leaves the
// coalescing is done on the values (not only where the types prove it), so that the cotarget,
// and hence the result's function and size, are those of the static answer; the merged shapes
// come first, then 1's, which a cotarget ignores.
template <class L>
CUTE_DSL_HOST_DEVICE constexpr auto divide_cotarget(const char* fn, L const& l) {
  if constexpr (is_static_v<L>) {
    return coalesce(l).shape();
  } else {
    auto s = flatten_to_tuple(l.shape());
    auto d = flatten_to_tuple(l.stride());
    check_positive_shapes(fn, s);
    constexpr int R = int(tuple_size_v<decltype(s)>);
    if constexpr (R == 1) {
      return get<0>(s);
    } else {
      tree::index_t sv[R] = {}, dv[R] = {};
      load_values(sv, s, make_index_sequence<R>{});
      load_values(dv, d, make_index_sequence<R>{});
      return slot_shapes<layout_int_t<L>>(coalesce_values<R>(sv, dv, false), make_index_sequence<R>{});
    }
  }
}

template <class L, class T>
CUTE_DSL_HOST_DEVICE constexpr auto logical_divide_layout(const char* fn, L const& l, T const& tile) {
  if constexpr (is_static_v<L> && is_static_v<T>) {
    using R = StaticResult<TileOpOf<TileOp::logical_divide, L, T>>;
    CUTE_DSL_STATIC_RESULT_CHECKS(R::result, "logical_divide");
    return decode_layout_t<R>{};
  } else {
    CUTE_DSL_UNSUPPORTED_DYNAMIC(is_static_v<typename T::stride_type>, "logical_divide",
                                 "run-time strides in the tile are not supported (its complement orders modes by stride at compile time)");
    if constexpr (is_static_v<T>) {  // a static tile's complement is refused whatever L is
      using C = StaticResult<ComplementOp<T>>;
      CUTE_DSL_STATIC_RESULT_CHECKS(C::result, "logical_divide");
    }
    if constexpr (is_static_v<typename T::stride_type>)
      return composition_impl(fn, l, layout_of_modes(tile, complement_impl(fn, tile, divide_cotarget(fn, l))));
    else
      return l;
  }
}

template <int K, class L, class T>
CUTE_DSL_HOST_DEVICE constexpr auto logical_divide_mode(const char* fn, L const& l, T const& t) {
  if constexpr (K < int(tuple_size_v<T>)) return logical_divide_layout(fn, mode<K>(l), tiler_layout(get<K>(t)));
  else return mode<K>(l);
}
template <class L, class T, unsigned long... Ks>
CUTE_DSL_HOST_DEVICE constexpr auto logical_divide_modes(const char* fn, L const& l, T const& t, index_sequence<Ks...>) {
  return layout_of_modes(logical_divide_mode<int(Ks)>(fn, l, t)...);
}

// logical_divide on any inputs, without the run-time tree check.
template <class L, class T>
CUTE_DSL_HOST_DEVICE constexpr auto logical_divide_impl(const char* fn, L const& l, T const& t) {
  if constexpr (is_tuple_v<T>) {
    constexpr int LR = rank_v<typename L::shape_type>;
    static_assert(int(tuple_size_v<T>) <= LR, "logical_divide: " CUTE_DSL_RULE_TEXT(rank_mismatch));
    return logical_divide_modes(fn, l, t, make_index_sequence<LR>{});
  } else {
    return logical_divide_layout(fn, l, tiler_layout(t));
  }
}

}  // namespace detail

// One public divide: the static path through the tree, or the typed path after the tree check.
#define CUTE_DSL_DEFINE_DIVIDE(name, zip, splice_first, splice_second)                                        \
  template <class S, class D, class T>                                                                     \
    requires Tiler<T>                                                                                      \
  CUTE_DSL_HOST_DEVICE constexpr auto name(Layout<S, D> const& layout, T const& tiler) {                   \
    using L = Layout<S, D>;                                                                                \
    if constexpr (is_tuple_v<T>)                                                                           \
      static_assert(tuple_size_v<T> <= rank_v<S>, #name ": " CUTE_DSL_RULE_TEXT(rank_mismatch));           \
    if constexpr (is_static_v<L> && is_static_v<T>) {                                                      \
      using R = detail::StaticResult<detail::TileOpOf<detail::TileOp::name, L, T>>;                        \
      CUTE_DSL_STATIC_RESULT_CHECKS(R::result, #name);                                                     \
      return decode_layout_t<R>{};                                                                         \
    } else {                                                                                               \
      CUTE_DSL_CHECK_BY_TREE(#name, (detail::run_tile_op_values<detail::TileOp::name>(layout, tiler)));    \
      return detail::regroup<(zip) ? detail::tiler_rank_v<T> : 0, splice_first, splice_second>(                 \
          detail::logical_divide_impl(#name, layout, tiler));                                                     \
    }                                                                                                      \
  }

CUTE_DSL_DEFINE_DIVIDE(logical_divide, false, false, false)
CUTE_DSL_DEFINE_DIVIDE(zipped_divide, true, false, false)
CUTE_DSL_DEFINE_DIVIDE(tiled_divide, true, false, true)
CUTE_DSL_DEFINE_DIVIDE(flat_divide, true, true, true)
#undef CUTE_DSL_DEFINE_DIVIDE

}  // namespace cute_dsl
