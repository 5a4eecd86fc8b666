// map(f, a, b) calls f with one value per input: a unary functor cannot take two.
// EXPECT: epilogue::map: the functor must be callable with one value per input
#include "cute_dsl/epilogue/epilogue.hpp"
namespace ep = cute_dsl::epilogue;
void f(const float* bias) {
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
  auto tree = ep::map(ep::Relu{}, ep::acc(), ep::col_broadcast(bias));
#else
  auto tree = ep::map(ep::Add{}, ep::acc(), ep::col_broadcast(bias));
#endif
  (void)tree;
}
