// 00: layout basics. A layout maps a coordinate to an offset: shape (8,4) with strides (1,8) is
// an 8x4 column-major matrix. Compose it with a 2x2 tile, divide it into such tiles, print each.
#include <cute_dsl/cute_dsl.hpp>
#include <cute_dsl/util/print.hpp>  // printing is host-only, hence not in the umbrella

#include <iostream>

using namespace cute_dsl;

int main() {
  constexpr auto matrix = make_layout(make_shape(Int<8>{}, Int<4>{}), make_stride(Int<1>{}, Int<8>{}));
  constexpr auto tile = make_layout(make_shape(Int<2>{}, Int<2>{}), make_stride(Int<1>{}, Int<8>{}));

  std::cout << "matrix          " << matrix << "    matrix(3,2) = " << matrix(3, 2) << "\n"
            << "composition     " << composition(matrix, tile) << "\n"        // the tile's elements
            << "logical_divide  " << logical_divide(matrix, tile) << "\n";    // (tile, tiles)

  static_assert(matrix(Int<3>{}, Int<2>{}) == 19);  // all static: the compiler knows the answer
}
