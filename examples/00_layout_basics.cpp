// 00: layout basics. A layout maps a coordinate to an offset: shape (8,4) with strides (1,8) is
// an 8x4 column-major matrix. Compose it with a tile, divide it into tiles, and print each.
#include <cute_dsl/cute_dsl.hpp>

#include <cstdio>

using namespace cute_dsl;

int main() {
  auto matrix = make_layout(make_shape(Int<8>{}, Int<4>{}), make_stride(Int<1>{}, Int<8>{}));
  auto tile = make_layout(make_shape(Int<2>{}, Int<2>{}), make_stride(Int<1>{}, Int<8>{}));

  print(matrix);  printf("   matrix(3,2) = %d\n", int(matrix(make_coord(3, 2))));
  print(composition(matrix, tile));  printf("   composition: the tile's elements of the matrix\n");
  print(logical_divide(matrix, tile));  printf("   logical_divide: (tile, tiles)\n");

  static_assert(matrix(make_coord(Int<3>{}, Int<2>{})) == 19);  // static: known to the compiler
  return 0;
}
