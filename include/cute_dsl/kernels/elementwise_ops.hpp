// The functors the elementwise kernels apply: copy, add, axpby and the activations ReLU, GELU
// (tanh form: Gelu with tanhf, GeluTanhApprox with the hardware tanh) and SiLU. Any type with `T operator()(T)` (unary) or `T operator()(T, T)` (binary)
// that is trivially copyable works as well: the kernels take the functor by value, so one with
// run-time parameters (Axpby's alpha and beta) is passed as a kernel argument.
//
// Why host and device: the tests and `cute-dsl demo` compute their references with these same
// functors on the host, so "what add means" is written once.
// Why compute in float for 16-bit types: __half and __nv_bfloat16 convert to and from float on
// host and device alike, and a bandwidth-bound kernel pays nothing for the conversions.
#pragma once

#include "cute_dsl/arch/sm75/tanh_approx.hpp"
#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"

#if !defined(__CUDACC_RTC__)
#  include <cmath>  // expf/tanhf on the host; NVRTC has them built in
#endif

namespace cute_dsl::kernels {

// The type the arithmetic is done in: float for types narrower than 4 bytes, else T itself.
template <class T>
using compute_t = conditional_t<(sizeof(T) < 4), float, T>;

struct Identity {
  template <class T>
  CUTE_DSL_HOST_DEVICE T operator()(T a) const { return a; }
};

struct Add {
  template <class T>
  CUTE_DSL_HOST_DEVICE T operator()(T a, T b) const {
    using C = compute_t<T>;
    return T(C(a) + C(b));
  }
};

// alpha * a + beta * b (BLAS axpby with the output in a third buffer).
struct Axpby {
  float alpha = 1.0f;
  float beta = 1.0f;
  template <class T>
  CUTE_DSL_HOST_DEVICE T operator()(T a, T b) const {
    using C = compute_t<T>;
    return T(C(alpha) * C(a) + C(beta) * C(b));
  }
};

struct Relu {
  template <class T>
  CUTE_DSL_HOST_DEVICE T operator()(T a) const {
    using C = compute_t<T>;
    const C x = C(a);
    return T(x > C(0) ? x : C(0));
  }
};

// GELU, tanh approximation (as PyTorch's approximate='tanh'): 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
struct Gelu {
  template <class T>
  CUTE_DSL_HOST_DEVICE T operator()(T a) const {
    const float x = float(a);
    const float inner = 0.7978845608028654f * (x + 0.044715f * x * x * x);
    return T(0.5f * x * (1.0f + tanhf(inner)));
  }
};

// GELU, tanh form, with the hardware tanh on the device (tanh.approx.f32, sm_75+, relative error
// ~2^-11): one MUFU instead of tanhf's few dozen instructions. The host (the tests' reference)
// uses tanhf, so results differ by up to ~1e-3 absolute for |x| <= 1: below one bf16/f16 ulp,
// ~10^4 f32 ulps. Choose Gelu when f32 outputs must match tanhf closely.
struct GeluTanhApprox {
  template <class T>
  CUTE_DSL_HOST_DEVICE T operator()(T a) const {
    const float x = float(a);
    const float inner = 0.7978845608028654f * (x + 0.044715f * x * x * x);
#if defined(__CUDA_ARCH__)
    const float t = arch::tanh_approx<T>(inner);
#else
    const float t = tanhf(inner);
#endif
    return T(0.5f * x * (1.0f + t));
  }
};

// SiLU (swish): x * sigmoid(x).
struct Silu {
  template <class T>
  CUTE_DSL_HOST_DEVICE T operator()(T a) const {
    const float x = float(a);
    return T(x / (1.0f + expf(-x)));
  }
};

}  // namespace cute_dsl::kernels
