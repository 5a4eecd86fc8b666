// The functors the elementwise kernels apply: copy, add, axpby and the activations ReLU, GELU
// (tanh form) and SiLU. Any type with `T operator()(T)` (unary) or `T operator()(T, T)` (binary)
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

// Activations for 16-bit element types (f16, bf16) default to a fast path, f32 to the accurate
// one. Why: a 16-bit elementwise kernel moves 4 bytes per two elements, so tanhf/expf and an
// IEEE divide make it compute bound (H200 run 8: GELU bf16 0.83x, SiLU f16 0.90x of
// cudaMemcpy), while a 16-bit output cannot show their extra accuracy: the fast path below is
// within 1 ulp of T of an f64 reference (test/kernels/activation_bound_gpu_test.cu).
// The fast path writes both activations as x * sigmoid(z) = x / (1 + e^-z) (GELU's tanh form is
// x * sigmoid(2 u), since 0.5 (1 + tanh(u)) = sigmoid(2 u)) with __expf (ex2.approx, relative
// error a few f32 ulps times |z|) and __fdividef (rcp.approx): two MUFU, no branch, and a
// RELATIVE error of ~1e-5 at most over the whole tested range, also in the negative tail, where
// the 1 + tanh(u) of the accurate form cancels. The *Accurate functors keep tanhf/expf for every
// type; on the host (the references) every functor is the accurate one.
template <class T>
inline constexpr bool kFastActivation = sizeof(T) < 4;

#if defined(__CUDA_ARCH__)
// x / (1 + e^-z) with the MUFU intrinsics. Once 1 + e^-z passes 2^126 __fdividef returns 0
// where the exact value is below |x| 2^-126 (GELU for x < ~-10, SiLU for x < ~-87): f16 rounds
// that to 0 too, bf16 could keep it; outside the bound test's |x| <= 8 and harmless.
CUTE_DSL_DEVICE inline float times_sigmoid_fast(float x, float z) { return __fdividef(x, 1.0f + __expf(-z)); }
#endif

// sqrt(2/pi) (x + 0.044715 x^3): the argument of GELU's tanh form.
CUTE_DSL_HOST_DEVICE inline float gelu_tanh_argument(float x) {
  return 0.7978845608028654f * (x + 0.044715f * x * x * x);
}

// GELU, tanh approximation (as PyTorch's approximate='tanh'): 0.5 x (1 + tanh(sqrt(2/pi) (x +
// 0.044715 x^3))), tanhf for every T.
struct GeluAccurate {
  template <class T>
  CUTE_DSL_HOST_DEVICE T operator()(T a) const {
    const float x = float(a);
    return T(0.5f * x * (1.0f + tanhf(gelu_tanh_argument(x))));
  }
};

// GELU (tanh form): GeluAccurate for f32, the fast sigmoid form on the device for 16-bit T.
struct Gelu {
  template <class T>
  CUTE_DSL_HOST_DEVICE T operator()(T a) const {
#if defined(__CUDA_ARCH__)
    if constexpr (kFastActivation<T>) {
      const float x = float(a);
      return T(times_sigmoid_fast(x, 2.0f * gelu_tanh_argument(x)));
    }
#endif
    return GeluAccurate{}(a);
  }
};

// GELU, tanh form, with the hardware tanh on the device (tanh.approx.f32, sm_75+, relative error
// ~2^-11): one MUFU instead of tanhf's few dozen instructions. The host (the tests' reference)
// uses tanhf, so results differ by up to ~1e-3 absolute for |x| <= 1: below one bf16/f16 ulp,
// ~10^4 f32 ulps. Choose Gelu when f32 outputs must match tanhf closely. (For 16-bit T, Gelu's
// default is more accurate in the negative tail and costs one more MUFU.)
struct GeluTanhApprox {
  template <class T>
  CUTE_DSL_HOST_DEVICE T operator()(T a) const {
    const float x = float(a);
    const float inner = gelu_tanh_argument(x);
#if defined(__CUDA_ARCH__)
    const float t = arch::tanh_approx<T>(inner);
#else
    const float t = tanhf(inner);
#endif
    return T(0.5f * x * (1.0f + t));
  }
};

// SiLU (swish): x * sigmoid(x) = x / (1 + e^-x), expf and an IEEE divide for every T.
struct SiluAccurate {
  template <class T>
  CUTE_DSL_HOST_DEVICE T operator()(T a) const {
    const float x = float(a);
    return T(x / (1.0f + expf(-x)));
  }
};

// SiLU: SiluAccurate for f32, the fast path (__expf, __fdividef) on the device for 16-bit T.
struct Silu {
  template <class T>
  CUTE_DSL_HOST_DEVICE T operator()(T a) const {
#if defined(__CUDA_ARCH__)
    if constexpr (kFastActivation<T>) {
      const float x = float(a);
      return T(times_sigmoid_fast(x, x));
    }
#endif
    return SiluAccurate{}(a);
  }
};

}  // namespace cute_dsl::kernels
