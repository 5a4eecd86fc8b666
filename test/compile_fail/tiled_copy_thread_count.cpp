// A TiledCopy of ldmatrix (a 32-thread instruction) over 16 threads.
// EXPECT: TiledCopy: the thread count must be a multiple of the atom's (32 for ldmatrix/stmatrix)
#include "cute_dsl/atom/copy_traits_sm75.hpp"
#include "cute_dsl/atom/tiled_copy.hpp"
using namespace cute_dsl;
void f() {
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
  auto tc = make_tiled_copy(Copy_Atom<SM75_U32x1_LDSM_N, unsigned short>{}, make_layout(make_shape(_8{}, _2{})),
                            make_layout(make_shape(_1{}, _2{})));
#else
  auto tc = make_tiled_copy(Copy_Atom<SM75_U32x1_LDSM_N, unsigned short>{}, make_layout(make_shape(_8{}, _4{}), make_stride(_4{}, _1{})),
                            make_layout(make_shape(_1{}, _2{})));
#endif
  (void)decltype(tc)::NumThr;
}
