// Copy_Traits of stmatrix (arch/sm90/stmatrix.hpp): ldmatrix's traits with source and destination
// exchanged (atom/copy_traits_sm75.hpp has the bit layouts and the PTX figure they come from).
// RefLayout is the source: a TiledCopy of stmatrix describes where the REGISTERS come from.
#pragma once

#include "cute_dsl/atom/copy_traits.hpp"
#include "cute_dsl/atom/copy_traits_sm75.hpp"
#include "cute_dsl/arch/sm90/stmatrix.hpp"

namespace cute_dsl {

template <class Ldsm>
struct StsmTraits {
  using ThrID = Layout<_32>;
  using SrcLayout = typename Ldsm::DstLayout;
  using DstLayout = typename Ldsm::SrcLayout;
  using RefLayout = SrcLayout;
};

template <> struct Copy_Traits<SM90_U32x1_STSM_N> : StsmTraits<LdsmTraits<1, false>> {};
template <> struct Copy_Traits<SM90_U32x2_STSM_N> : StsmTraits<LdsmTraits<2, false>> {};
template <> struct Copy_Traits<SM90_U32x4_STSM_N> : StsmTraits<LdsmTraits<4, false>> {};
template <> struct Copy_Traits<SM90_U16x2_STSM_T> : StsmTraits<LdsmTraits<1, true>> {};
template <> struct Copy_Traits<SM90_U16x4_STSM_T> : StsmTraits<LdsmTraits<2, true>> {};
template <> struct Copy_Traits<SM90_U16x8_STSM_T> : StsmTraits<LdsmTraits<4, true>> {};

}  // namespace cute_dsl
