// A multicast TMA atom whose per-CTA slice would start inside a swizzle period (ARCH: 90): the
// hardware swizzles by shared address, the layout by element offset, so they would disagree.
// 128-byte swizzle on floats repeats every 256 elements; (32, 8) split in two gives 128.
// EXPECT: TMA atom: each box and multicast slice must start at a multiple of the swizzle period
#include "cute_dsl/atom/tma_atom.hpp"
using namespace cute_dsl;
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
using SmemTile = decltype(composition(Swizzle<3, 2, 3>{}, make_layout(make_shape(_32{}, _8{}))));
#else
using SmemTile = decltype(composition(Swizzle<3, 2, 3>{}, make_layout(make_shape(_32{}, _16{}))));
#endif
__global__ void k(const __grid_constant__ TmaLoadAtom<float, SmemTile, 2> tma, long* out) {
  out[0] = TmaLoadAtom<float, SmemTile, 2>::Math::slice_smem_offset(1) + long(tma.desc.opaque[0]);
}
