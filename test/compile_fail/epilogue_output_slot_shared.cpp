// Each aux store (and each reduction of an axis and operation) is one output: one slot each.
// EXPECT: epilogue tree: two aux stores, or two reductions of one axis and operation, share a slot
#include "cute_dsl/epilogue/epilogue.hpp"
#include "cute_dsl/epilogue/host_reference.hpp"
namespace ep = cute_dsl::epilogue;
void f(float* pre, float* post) {
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
  auto tree = ep::aux_store<0>(post, ep::row_major(8), ep::relu(ep::aux_store<0>(pre, ep::row_major(8), ep::acc())));
#else
  auto tree = ep::aux_store<1>(post, ep::row_major(8), ep::relu(ep::aux_store<0>(pre, ep::row_major(8), ep::acc())));
#endif
  ep::evaluate_host(tree, 1, 8, 1, [](int, int, int) { return 1.0; }, [](int, int, int, double) {});
}
