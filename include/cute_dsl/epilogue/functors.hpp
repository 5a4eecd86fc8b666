// The elementwise functors epilogue trees apply (compute.hpp wraps them as nodes), written once
// for the device (V = float) and the host reference (V = double or float).
//
// Forward: Add Sub Mul Div Neg Fma Max Min Clamp Relu LeakyRelu GeluErf GeluTanh Silu Sigmoid
// Tanh Exp. Backward (gradient, pre-activation): DRelu DGeluErf DGeluTanh.
// Any trivially copyable type with `template <class V> V operator()(V...) const` works as well
// (map(f, a, b...)), including lambdas with `auto` parameters.
//
// Why not kernels/elementwise_ops.hpp's functors: those are typed T -> T on storage types and
// pick fast 16-bit paths; tree nodes work on the compute type, whose precision the output's
// conversion decides (convert.hpp), and the host reference must run them in double.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#  include "cute_dsl/arch/sm75/tanh_approx.hpp"
#endif
#if !defined(__CUDACC_RTC__)
#  include <cmath>  // the host's expf/erf...; NVRTC has them built in
#endif

namespace cute_dsl::epilogue {

// float and double overloads of the few functions the functors need: one spelling for V.
namespace math {
CUTE_DSL_HOST_DEVICE inline float exp(float x) { return ::expf(x); }
CUTE_DSL_HOST_DEVICE inline double exp(double x) { return ::exp(x); }
CUTE_DSL_HOST_DEVICE inline float tanh(float x) { return ::tanhf(x); }
CUTE_DSL_HOST_DEVICE inline double tanh(double x) { return ::tanh(x); }
CUTE_DSL_HOST_DEVICE inline float erf(float x) { return ::erff(x); }
CUTE_DSL_HOST_DEVICE inline double erf(double x) { return ::erf(x); }
CUTE_DSL_HOST_DEVICE inline float abs(float x) { return ::fabsf(x); }
CUTE_DSL_HOST_DEVICE inline double abs(double x) { return ::fabs(x); }
// IEEE maxNum (a NaN operand loses to a number): one FMNMX on the device, which also takes |x|
// as an operand modifier -- `a > b ? a : b` compiled to a compare and a select (2 instructions).
CUTE_DSL_HOST_DEVICE inline float max(float a, float b) { return ::fmaxf(a, b); }
CUTE_DSL_HOST_DEVICE inline double max(double a, double b) { return ::fmax(a, b); }
// x / (1 + e^-y): sigmoid(y) times x, the form SiLU, sigmoid and GELU (tanh form: x sigmoid(2u)
// = 0.5 x (1 + tanh u)) share. On the device in float: the hardware exp2 and reciprocal
// (__expf, __fdividef: 2 MUFU and a few FMA), a few ulps from the accurate formula, where expf,
// tanhf and an IEEE divide are ~50 instructions per element -- and the cooperative GEMM does not
// overlap its epilogue with the mainloop, so every instruction per element shows at small K
// (docs/design/epilogue.md). Saturates cleanly: e^-y = inf gives x / inf = 0, e^-y = 0 gives x.
// The host (the reference) stays exact.
CUTE_DSL_HOST_DEVICE inline float times_sigmoid(float x, float y) {
#if defined(__CUDA_ARCH__)
  return __fdividef(x, 1.0f + __expf(-y));
#else
  return x / (1.0f + ::expf(-y));
#endif
}
CUTE_DSL_HOST_DEVICE inline double times_sigmoid(double x, double y) { return x / (1.0 + ::exp(-y)); }
}  // namespace math

struct Add { template <class V> CUTE_DSL_HOST_DEVICE V operator()(V a, V b) const { return a + b; } };
struct Sub { template <class V> CUTE_DSL_HOST_DEVICE V operator()(V a, V b) const { return a - b; } };
struct Mul { template <class V> CUTE_DSL_HOST_DEVICE V operator()(V a, V b) const { return a * b; } };
struct Div { template <class V> CUTE_DSL_HOST_DEVICE V operator()(V a, V b) const { return a / b; } };
struct Neg { template <class V> CUTE_DSL_HOST_DEVICE V operator()(V a) const { return -a; } };
// a * b + c; the device contracts it to one FMA (one rounding), the host reference in double
// is closer than either.
struct Fma { template <class V> CUTE_DSL_HOST_DEVICE V operator()(V a, V b, V c) const { return a * b + c; } };
// Max / Min: NaN-propagation as `a > b ? a : b` (a NaN in b wins, in a loses): documented, not IEEE fmax.
struct Max { template <class V> CUTE_DSL_HOST_DEVICE V operator()(V a, V b) const { return a > b ? a : b; } };
struct Min { template <class V> CUTE_DSL_HOST_DEVICE V operator()(V a, V b) const { return a < b ? a : b; } };
// @pre lo <= hi
struct Clamp {
  template <class V>
  CUTE_DSL_HOST_DEVICE V operator()(V x, V lo, V hi) const { return x < lo ? lo : (x > hi ? hi : x); }
};

struct Relu { template <class V> CUTE_DSL_HOST_DEVICE V operator()(V x) const { return x > V(0) ? x : V(0); } };
struct LeakyRelu {
  float slope = 0.01f;
  template <class V>
  CUTE_DSL_HOST_DEVICE V operator()(V x) const { return x > V(0) ? x : V(slope) * x; }
};
struct Sigmoid { template <class V> CUTE_DSL_HOST_DEVICE V operator()(V x) const { return math::times_sigmoid(V(1), x); } };
struct Tanh { template <class V> CUTE_DSL_HOST_DEVICE V operator()(V x) const { return math::tanh(x); } };
struct Exp { template <class V> CUTE_DSL_HOST_DEVICE V operator()(V x) const { return math::exp(x); } };
struct Silu { template <class V> CUTE_DSL_HOST_DEVICE V operator()(V x) const { return math::times_sigmoid(x, x); } };

// GELU, exact: x Phi(x) = 0.5 x (1 + erf(x / sqrt 2)) (PyTorch's approximate='none').
struct GeluErf {
  template <class V>
  CUTE_DSL_HOST_DEVICE V operator()(V x) const { return V(0.5) * x * (V(1) + math::erf(x * V(0.70710678118654752))); }
};
// GELU, tanh form: 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3) (approximate='tanh').
// On the device (sm_75+, float) with the hardware tanh (tanh.approx.f32, one MUFU, relative error
// ~2^-11: below a bf16 or f16 ulp of the result, ~2^-12 of |x| in f32), as cuBLASLt's GELU
// epilogue; the epilogue's cost is MUFU throughput (the cooperative GEMM does not overlap it with
// its mainloop), and the sigmoid form takes two. Elsewhere x sigmoid(2 u) (math::times_sigmoid),
// and the host reference exact.
// The device form is written as 5 float operations around the MUFU (u = x (k + k c x^2), then
// h + h t with h = x / 2) instead of the 7 the textbook order compiles to: with 8 consumer warps
// the epilogue issues an instruction per clock per SM sub-partition, so each one counts.
struct GeluTanh {
  template <class V>
  CUTE_DSL_HOST_DEVICE V operator()(V x) const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
    if constexpr (is_same_v<V, float>) {
      const float u = x * ::fmaf(x * x, 0.79788456080286536f * 0.044715f, 0.79788456080286536f);
      const float h = 0.5f * x;
      return ::fmaf(h, arch::tanh_approx(u), h);
    }
#endif
    const V u = V(0.79788456080286536) * (x + V(0.044715) * x * x * x);
    return math::times_sigmoid(x, V(2) * u);
  }
};

// Backward: the gradient at the output times the activation's derivative at `pre`, the
// pre-activation the forward pass stored (aux_store) and the backward pass loads (aux_load).
struct DRelu {
  template <class V>
  CUTE_DSL_HOST_DEVICE V operator()(V grad, V pre) const { return pre > V(0) ? grad : V(0); }
};
// d/dx x Phi(x) = Phi(x) + x phi(x).
struct DGeluErf {
  template <class V>
  CUTE_DSL_HOST_DEVICE V operator()(V grad, V x) const {
    const V cdf = V(0.5) * (V(1) + math::erf(x * V(0.70710678118654752)));
    const V pdf = V(0.39894228040143268) * math::exp(V(-0.5) * x * x);
    return grad * (cdf + x * pdf);
  }
};
// d/dx of the tanh form: 0.5 (1 + t) + 0.5 x (1 - t^2) u'(x), t = tanh(u), u = k (x + c x^3).
struct DGeluTanh {
  template <class V>
  CUTE_DSL_HOST_DEVICE V operator()(V grad, V x) const {
    const V k = V(0.79788456080286536), c = V(0.044715);
    const V t = math::tanh(k * (x + c * x * x * x));
    return grad * (V(0.5) * (V(1) + t) + V(0.5) * x * (V(1) - t * t) * k * (V(1) + V(3) * c * x * x));
  }
};

}  // namespace cute_dsl::epilogue
