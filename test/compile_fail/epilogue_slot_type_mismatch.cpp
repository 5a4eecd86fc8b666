// Two leaves of one kind and slot are ONE input, loaded once: they must agree on the element type.
// EXPECT: epilogue tree: two leaves of one kind share a slot but differ in element type (give each input its own slot)
#include "cute_dsl/epilogue/epilogue.hpp"
namespace ep = cute_dsl::epilogue;
int f(const float* bias, const double* scale) {
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
  auto tree = ep::acc() + ep::col_broadcast<0>(bias) * ep::col_broadcast<0>(scale);
#else
  auto tree = ep::acc() + ep::col_broadcast<0>(bias) * ep::col_broadcast<1>(scale);
#endif
  return ep::TreeInfo<decltype(tree)>::kLoads;
}
