// Swizzle<B, M, S>: a bijection on offsets that XORs B bits (starting at bit M + max(S,0)) down
// by S bits into the B bits starting at bit M - min(S,0). A negative S shifts up instead.
//
//   offset = ...ZZZ...YYY...MMMM  (M low bits untouched)
//   swizzle(offset) = offset ^ ((offset & yyy_mask) >> S)
//
// Used to spread consecutive rows of a shared-memory tile over distinct banks. Applied to a
// layout with composition(Swizzle, Layout), giving a ComposedLayout (layout/composed_layout.hpp).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"

namespace cute_dsl {

template <int BBits, int MBase, int SShift = BBits>
struct Swizzle {
  static constexpr int num_bits = BBits;
  static constexpr int num_base = MBase;
  static constexpr int num_shft = SShift;

  static_assert(BBits >= 0, "Swizzle: BBits must be non-negative");
  static_assert(MBase >= 0, "Swizzle: MBase must be non-negative");
  static_assert((SShift < 0 ? -SShift : SShift) >= BBits,
                "Swizzle: |SShift| must be at least BBits (the two bit fields must not overlap)");

  static constexpr long long bit_msk = (1LL << BBits) - 1;
  static constexpr long long yyy_msk = bit_msk << (MBase + (SShift > 0 ? SShift : 0));
  static constexpr long long zzz_msk = bit_msk << (MBase - (SShift < 0 ? SShift : 0));
  static constexpr long long swizzle_code = yyy_msk | zzz_msk;

  // The plain-integer formula, for any integer type.
  template <class T>
  CUTE_DSL_HOST_DEVICE static constexpr T apply_value(T offset) {
    T y = T(offset & T(yyy_msk));
    if constexpr (SShift >= 0) return T(offset ^ T(y >> SShift));
    else return T(offset ^ T(y << -SShift));
  }

  // A static offset gives a static offset.
  template <class Offset>
  CUTE_DSL_HOST_DEVICE constexpr auto apply(Offset const& offset) const {
    static_assert(is_integral_v<Offset>, "Swizzle: the offset must be an integer");
    if constexpr (is_C_v<remove_cvref_t<Offset>>) return C<apply_value(Offset::value)>{};
    else return apply_value(offset);
  }
  template <class Offset>
  CUTE_DSL_HOST_DEVICE constexpr auto operator()(Offset const& offset) const {
    return apply(offset);
  }
};

template <class T> inline constexpr bool is_swizzle_v = false;
template <int B, int M, int S> inline constexpr bool is_swizzle_v<Swizzle<B, M, S>> = true;

// The offsets a swizzle permutes among: [0, 2^(M + B + |S|)).
template <int B, int M, int S>
CUTE_DSL_HOST_DEVICE constexpr auto size(Swizzle<B, M, S> const&) {
  return Int<(1 << (M + B + (S < 0 ? -S : S)))>{};
}
template <int B, int M, int S>
CUTE_DSL_HOST_DEVICE constexpr auto cosize(Swizzle<B, M, S> const& s) {
  return size(s);
}

template <int B0, int M0, int S0, int B1, int M1, int S1>
CUTE_DSL_HOST_DEVICE constexpr auto operator==(Swizzle<B0, M0, S0> const&, Swizzle<B1, M1, S1> const&) {
  return bool_constant<B0 == B1 && M0 == M1 && S0 == S1>{};
}

}  // namespace cute_dsl
