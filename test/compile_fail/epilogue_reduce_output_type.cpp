// Reductions end in 32-bit float atomics: their output is float, not double or bf16.
// EXPECT: epilogue reduction (row_/col_/tensor_ sum, max, abs_max): the output must be float* (32-bit float atomics)
#include "cute_dsl/epilogue/epilogue.hpp"
namespace ep = cute_dsl::epilogue;
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
using Out = double;
#else
using Out = float;
#endif
void f(Out* dbias) {
  auto tree = ep::col_sum(dbias, ep::relu(ep::acc()));
  (void)tree;
}
