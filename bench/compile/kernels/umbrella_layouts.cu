// The umbrella header plus a few static layouts and algebra operations evaluated at static
// coordinates: what a typical JIT-compiled kernel asks of the compiler before its real work.
#include <cute_dsl/cute_dsl.hpp>

using namespace cute_dsl;

extern "C" __global__ void umbrella_layouts_kernel(int* out) {
  auto row_major = make_layout(make_shape(Int<4>{}, Int<8>{}), make_stride(Int<8>{}, Int<1>{}));
  auto col_major = make_layout(make_shape(Int<8>{}, Int<4>{}), make_stride(Int<1>{}, Int<8>{}));
  auto tile = make_layout(make_shape(Int<2>{}, Int<2>{}), make_stride(Int<1>{}, Int<8>{}));

  auto composed = composition(col_major, tile);
  auto divided = logical_divide(col_major, tile);
  auto completed = complement(tile, Int<32>{});
  auto product = logical_product(tile, make_layout(Int<4>{}, Int<2>{}));

  out[0] = row_major(make_coord(Int<3>{}, Int<5>{}));
  out[1] = composed(Int<3>{});
  out[2] = divided(Int<5>{});
  out[3] = completed(Int<3>{});
  out[4] = product(Int<7>{});
  out[5] = size(product) + cosize(divided);
}
