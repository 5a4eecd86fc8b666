// Conversions inside a tree: round a value to a narrower format's grid -- round to nearest,
// ties to even -- and saturate to its largest finite value, staying in the compute type:
//   to_bf16(x), to_fp16(x), to_fp8_e4m3(x), to_fp8_e5m2(x)      (compute.hpp's node factories)
// so that later nodes (a scale, a store in f32) see exactly what a bf16/fp8 tensor would hold.
// A store of a narrow element type converts by that type's own constructor; these nodes are for
// rounding IN the tree (and for fp8 where <cuda_fp8.h> is not included).
//
// Why our own helpers: one arithmetic definition runs on the device (V = float) and in the host
// reference (V = double, where the same rounding must be bit-exact) and needs no fp8 header.
// NaN stays NaN; infinities saturate too (the OCP "satfinite" convention of cvt.satfinite).
// Subnormals of the target are kept (rounded on its fixed subnormal quantum).
#pragma once

#include "cute_dsl/config.hpp"

#if !defined(__CUDACC_RTC__)
#  include <cmath>
#endif

namespace cute_dsl::epilogue {

// A binary floating-point format: mantissa bits (without the implicit one), the smallest normal
// exponent, and the largest finite value as max_significand * 2^max_shift. Integers only: a
// class with a floating-point member as a template argument is not accepted by every compiler.
struct FloatFormat {
  int mantissa_bits;
  int min_exponent;  // of the smallest normal, 2^min_exponent
  int max_significand, max_shift;
};
inline constexpr FloatFormat kBf16{7, -126, 255, 120};   // (2 - 2^-7) 2^127
inline constexpr FloatFormat kFp16{10, -14, 2047, 5};    // 65504
inline constexpr FloatFormat kFp8E4M3{3, -6, 7, 6};      // 448, OCP E4M3 (no infinities)
inline constexpr FloatFormat kFp8E5M2{2, -14, 7, 13};    // 57344

namespace math {
CUTE_DSL_HOST_DEVICE inline float frexp(float x, int* e) { return ::frexpf(x, e); }
CUTE_DSL_HOST_DEVICE inline double frexp(double x, int* e) { return ::frexp(x, e); }
CUTE_DSL_HOST_DEVICE inline float ldexp(float x, int e) { return ::ldexpf(x, e); }
CUTE_DSL_HOST_DEVICE inline double ldexp(double x, int e) { return ::ldexp(x, e); }
CUTE_DSL_HOST_DEVICE inline float rint(float x) { return ::rintf(x); }  // ties to even (default mode)
CUTE_DSL_HOST_DEVICE inline double rint(double x) { return ::rint(x); }
}  // namespace math

// x rounded to the nearest value of format F (ties to even), saturated to +-(its largest finite value).
// @post round_to_format<kBf16>(1.f + 0x1p-8f) == 1.f (a tie, to even); round_to_format<kFp8E4M3>(1000.f) == 448.f
template <FloatFormat F, class V>
CUTE_DSL_HOST_DEVICE V round_to_format(V x) {
  if (x != x) return x;  // NaN
  const V max = math::ldexp(V(F.max_significand), F.max_shift);
  if (x >= max) return max;
  if (x <= -max) return -max;
  if (x == V(0)) return x;
  int e = 0;
  math::frexp(x, &e);               // x = m 2^e, 0.5 <= |m| < 1: the leading bit is 2^(e-1)
  int lead = e - 1;
  if (lead < F.min_exponent) lead = F.min_exponent;  // subnormal: the fixed smallest quantum
  const int q = lead - F.mantissa_bits;             // the format's quantum near x is 2^q
  const V r = math::ldexp(math::rint(math::ldexp(x, -q)), q);  // exact scalings: one rounding
  return r > max ? max : (r < -max ? -max : r);     // rounding up past the top saturates
}

template <FloatFormat F>
struct RoundTo {
  template <class V>
  CUTE_DSL_HOST_DEVICE V operator()(V x) const { return round_to_format<F>(x); }
};
using ToBf16 = RoundTo<kBf16>;
using ToFp16 = RoundTo<kFp16>;
using ToFp8E4M3 = RoundTo<kFp8E4M3>;
using ToFp8E5M2 = RoundTo<kFp8E5M2>;

}  // namespace cute_dsl::epilogue
