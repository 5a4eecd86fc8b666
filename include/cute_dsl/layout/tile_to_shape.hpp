// tile_to_shape: a block (typically a swizzled shared-memory atom) repeated until it fills a
// target shape; blocked_product told the result's shape instead of the number of copies.
//
//   tile_to_shape(block, trg_shape)          copies laid out mode 0 first (column-major)
//   tile_to_shape(block, trg_shape, order)   order: one Int<> per mode of trg_shape, smallest
//                                            first (CuTe's Step<_2,_1,_3>: mode 1's copies first)
//
//   = coalesce(blocked_product(block padded to rank(trg_shape), P compact in `order`), P's profile)
//     with P_k = size(trg_shape_k) / size(block_k), exact in every mode.
//
// The target usually has more modes than the block: the extra ones repeat the whole block, e.g.
// the pipeline stages of a shared-memory buffer:
//   tile_to_shape((8,64):(64,1), (_128,_64,_4))                 == (_128,_64,_4):(_64,_1,_8192)
//   tile_to_shape((64,8):(1,64), (_128,_64,_4), (_2,_1,_3))     == ((_64,_2),_64,_4):((_1,_4096),_64,_8192)
// On a ComposedLayout (a swizzle over a layout) the inner layout is tiled and the swizzle kept.
//
// Static inputs: the tree algorithm decides (layout/tree_tile_to_shape.hpp), the answer is a type.
// Run-time target shapes: the block's strides must be static (blocked_product's rule); the result
// is the static answer's function, built by blocked_product and coalesce on the values; the rule
// is checked on the values. The order is always static: it decides the result's structure.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/composed_layout.hpp"
#include "cute_dsl/layout/static_bridge.hpp"
#include "cute_dsl/layout/dynamic_support.hpp"
#include "cute_dsl/layout/to_tree.hpp"
#include "cute_dsl/layout/coalesce.hpp"
#include "cute_dsl/layout/product.hpp"
#include "cute_dsl/layout/tree_tile_to_shape.hpp"

namespace cute_dsl {

namespace detail {

// The default order: column-major, an empty tree for the tree algorithm.
struct ColumnMajorOrder {};

template <class Ord>
CUTE_DSL_HOST_DEVICE constexpr tree::Tree order_tree() {
  if constexpr (is_same_v<Ord, ColumnMajorOrder>) return tree::Tree{};
  else return static_shape_tree<Ord>();
}

template <class B, class Trg, class Ord>
struct TileToShapeOp {
  CUTE_DSL_HOST_DEVICE static constexpr tree::Result<tree::Tree> run() {
    return tree::tile_to_shape(static_tree<B>(), static_shape_tree<Trg>(), order_tree<Ord>());
  }
};

// Whether mode J's copies are laid out before mode K's (smaller order first, ties by position).
template <class Ord, int J, int K>
CUTE_DSL_HOST_DEVICE constexpr bool laid_out_before() {
  if constexpr (is_same_v<Ord, ColumnMajorOrder> || !is_tuple_v<Ord>) {
    return J < K;
  } else {
    constexpr auto oj = decltype(get<J>(Ord{}))::value, ok = decltype(get<K>(Ord{}))::value;
    return oj < ok || (oj == ok && J < K);
  }
}

// x when mode J's copies come before mode K's, else 1.
template <class Ord, int J, int K, class X>
CUTE_DSL_HOST_DEVICE constexpr auto factor_before(X const& x) {
  if constexpr (laid_out_before<Ord, J, K>()) return x;
  else return Int<1>{};
}

// The stride of mode K of the copies: the product of the copies laid out before it.
template <class Ord, int K, class P, unsigned long... Js>
CUTE_DSL_HOST_DEVICE constexpr auto ordered_stride(P const& copies, index_sequence<Js...>) {
  return (Int<1>{} * ... * factor_before<Ord, int(Js), K>(get<Js>(copies)));
}

// size(trg_k) / size(block_k), checked to divide exactly where the typed checks run (device).
template <int K, class B, class TS>
CUTE_DSL_HOST_DEVICE constexpr auto copies_of_mode(B const& block, TS const& target_sizes) {
  auto t = get<K>(target_sizes);
  auto s = size(mode<K>(block));
  if constexpr (typed_checks && !(is_C_v<decltype(t)> && is_C_v<decltype(s)>))
    CUTE_DSL_CHECK_VALUES(t % s == 0, "tile_to_shape", tile_divisibility, t, s);
  return t / s;
}
template <class B, class Trg, unsigned long... Ks>
CUTE_DSL_HOST_DEVICE constexpr auto copies_per_mode(B const& block, Trg const& trg, index_sequence<Ks...>) {
  auto target_sizes = product_each(trg);
  return make_tuple(copies_of_mode<int(Ks)>(block, target_sizes)...);
}

template <class Ord, class P, unsigned long... Ks>
CUTE_DSL_HOST_DEVICE constexpr auto ordered_layout(P const& copies, index_sequence<Ks...> ks) {
  return make_layout(copies, make_tuple(ordered_stride<Ord, int(Ks)>(copies, ks)...));
}

template <class Ord, class S, class D, class Trg>
CUTE_DSL_HOST_DEVICE constexpr auto tile_to_shape_impl(Layout<S, D> const& block, Trg const& trg) {
  using B = Layout<S, D>;
  constexpr int R = rank_v<Trg>;
  static_assert(rank_v<S> <= R, "tile_to_shape: the block must not have more modes than the target shape");
  if constexpr (!is_same_v<Ord, ColumnMajorOrder>) {
    static_assert(is_static_v<Ord> && rank_v<Ord> == R && depth_v<Ord> <= 1,
                  "tile_to_shape: the order must be a flat tuple of Int<>, one per mode of the target shape");
  }
  if constexpr (is_static_v<B> && is_static_v<Trg>) {
    using Res = StaticResult<TileToShapeOp<B, Trg, Ord>>;
    CUTE_DSL_STATIC_RESULT_CHECKS(Res::result, "tile_to_shape");
    return decode_layout_t<Res>{};
  } else {
    CUTE_DSL_UNSUPPORTED_DYNAMIC(is_static_v<D>, "tile_to_shape",
                                 "run-time strides in the block are not supported (blocked_product orders its modes by stride at compile time)");
    CUTE_DSL_CHECK_BY_TREE("tile_to_shape", tree::tile_to_shape(value_tree(block), to_tree(trg), order_tree<Ord>()));
    auto padded = pad_to_rank<R>(block);
    auto ks = make_index_sequence<R>{};
    auto copies = ordered_layout<Ord>(copies_per_mode(padded, trg, ks), ks);
    if constexpr (is_tuple_v<Trg>) return coalesce(blocked_product(padded, copies), repeat<R>(Int<1>{}));
    else return coalesce(blocked_product(padded, mode<0>(copies)));
  }
}

}  // namespace detail

// @pre  rank(block) <= rank(trg_shape); size(trg_shape_k) a multiple of size(block_k) for every k
// @post rank(result) == rank(trg_shape), size<k>(result) == size(trg_shape_k), the first copy
//       of the block is the block's function; static inputs give a static result
template <class S, class D, class Trg>
  requires is_int_tuple_v<Trg>
CUTE_DSL_HOST_DEVICE constexpr auto tile_to_shape(Layout<S, D> const& block, Trg const& trg_shape) {
  return detail::tile_to_shape_impl<detail::ColumnMajorOrder>(block, trg_shape);
}

// `order`: e.g. make_tuple(_2{}, _1{}, _3{}) lays mode 1's copies first, then mode 0's, then mode 2's.
template <class S, class D, class Trg, class Ord>
  requires(is_int_tuple_v<Trg> && is_int_tuple_v<Ord>)
CUTE_DSL_HOST_DEVICE constexpr auto tile_to_shape(Layout<S, D> const& block, Trg const& trg_shape, Ord const&) {
  return detail::tile_to_shape_impl<Ord>(block, trg_shape);
}

// A swizzled atom: the inner layout is tiled, the swizzle and offset kept. The swizzle then acts
// on the offsets of the whole tiled block, which is what the hardware's swizzle modes expect
// (each copy of the atom starts at a multiple of the swizzle's period).
template <class A, class O, class B, class Trg, class... Ord>
  requires(is_int_tuple_v<Trg> && sizeof...(Ord) <= 1)
CUTE_DSL_HOST_DEVICE constexpr auto tile_to_shape(ComposedLayout<A, O, B> const& block, Trg const& trg_shape,
                                                  Ord const&... order) {
  return make_composed_layout(block.layout_a(), block.offset(), tile_to_shape(block.layout_b(), trg_shape, order...));
}

}  // namespace cute_dsl
