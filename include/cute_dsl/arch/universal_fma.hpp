// The scalar MMA "instruction": d = a * b + c on one thread, for any types with * and +. It is
// the 1x1x1 atom that lets the TiledMMA machinery run on any GPU (and on the host), and the
// reference the tensor-core atoms are compared with. No minimum architecture.
#pragma once

#include "cute_dsl/config.hpp"

namespace cute_dsl {

template <class D, class A = D, class B = A, class C = D>
struct UniversalFMA {
  using DRegisters = D[1];
  using ARegisters = A[1];
  using BRegisters = B[1];
  using CRegisters = C[1];

  CUTE_DSL_HOST_DEVICE static constexpr void fma(D& d, A const& a, B const& b, C const& c) {
    d = static_cast<D>(a * b + c);
  }
};

}  // namespace cute_dsl
