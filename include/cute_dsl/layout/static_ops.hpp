// The tree operations behind the divides and the products, named for the static bridge: one
// Op type per (operation, arguments), whose run() encodes the static arguments and calls the
// tree algorithm. A right-hand side is a layout, an integer n (meaning n:1) or a tiler tuple.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/static_bridge.hpp"
#include "cute_dsl/layout/dynamic_support.hpp"

namespace cute_dsl::detail {

enum class TileOp : int {
  logical_divide, zipped_divide, tiled_divide, flat_divide,
  logical_product, zipped_product, tiled_product, flat_product,
  blocked_product, raked_product,
};

template <class T> struct tile_operand { using type = T; };
template <auto v> struct tile_operand<C<v>> { using type = Layout<C<v>, C<1>>; };

template <TileOp Op, class A, class B>
CUTE_DSL_HOST_DEVICE constexpr tree::Result<tree::Tree> run_tile_op(const tree::Tree& a, const B& b) {
  switch (Op) {
    case TileOp::logical_divide: return tree::logical_divide(a, b);
    case TileOp::zipped_divide: return tree::zipped_divide(a, b);
    case TileOp::tiled_divide: return tree::tiled_divide(a, b);
    case TileOp::flat_divide: return tree::flat_divide(a, b);
    case TileOp::logical_product: return tree::logical_product(a, b);
    case TileOp::zipped_product: return tree::zipped_product(a, b);
    case TileOp::tiled_product: return tree::tiled_product(a, b);
    case TileOp::flat_product: return tree::flat_product(a, b);
    default: break;
  }
  if constexpr (is_same_v<B, tree::Tree>) {
    if (Op == TileOp::blocked_product) return tree::blocked_product(a, b);
    if (Op == TileOp::raked_product) return tree::raked_product(a, b);
  }
  return tree::make_error<tree::Tree>(tree::Error::rank_mismatch);
}

template <TileOp Op, class A, class B>
struct TileOpOf {
  CUTE_DSL_HOST_DEVICE static constexpr tree::Result<tree::Tree> run() {
    if constexpr (is_tuple_v<B>) return run_tile_op<Op, A>(static_tree<A>(), static_tiler<B>());
    else return run_tile_op<Op, A>(static_tree<A>(), static_tree<typename tile_operand<B>::type>());
  }
};

// The same operation on run-time values, for the check of dynamic inputs.
template <TileOp Op, class A, class B>
CUTE_DSL_HOST_DEVICE constexpr tree::Result<tree::Tree> run_tile_op_values(A const& a, B const& b) {
  return run_tile_op<Op, A>(value_tree(a), value_arg(b));
}

}  // namespace cute_dsl::detail
