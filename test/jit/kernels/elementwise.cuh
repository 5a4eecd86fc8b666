// A small elementwise kernel over a static layout: the JIT's smallest realistic customer.
#pragma once

#include "cute_dsl/layout/layout.hpp"

namespace cute_dsl_jit_test {

// out(layout(i)) = alpha * in(layout(i)) for the i < size(L) that this block covers.
template <class T, class L, int Threads>
__global__ void __launch_bounds__(Threads) scale(T* out, const T* in, float alpha) {
  constexpr L layout{};
  const int i = blockIdx.x * Threads + threadIdx.x;
  if (i < cute_dsl::size(layout)) out[layout(i)] = T(alpha * float(in[layout(i)]));
}

}  // namespace cute_dsl_jit_test
