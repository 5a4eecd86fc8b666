// Strides that do not nest exactly: CuTe truncates 4/3 and answers a layout that misses offsets.
// EXPECT: complement: Stride Divisibility Condition (sorted strides must nest exactly): sorted by stride, each stride must be a multiple of the extent (shape times stride) of the mode below it
#include "cute_dsl/layout/algebra.hpp"
using namespace cute_dsl;
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
auto r = complement(Layout<tuple<_3, _3>, tuple<_1, _4>>{}, _64{});
#else
auto r = complement(Layout<tuple<_3, _3>, tuple<_1, _6>>{}, _64{});
#endif
