// Host side of the TMA atoms (atom/tma_atom.hpp): encode the CUtensorMap for a global tensor and
// a CTA tile's shared layout, and wrap it in the atom the kernel takes by value.
//
//   auto enc = tma::encode_tiled_from_cudart();                        // or the JIT's pointer
//   auto sA  = composition(Swizzle<3,3,3>{}, make_layout(make_shape(_64{}, _128{})));   // bf16, 128 B rows
//   auto tma_a = make_tma_load_atom(enc, A, make_layout(make_shape(K, M), make_stride(_1{}, K)), sA, _2{});
//   kernel<<<...>>>(tma_a, ...);     // __global__ void kernel(const __grid_constant__ decltype(tma_a) tma_a, ...)
//
// The global layout is flat, one mode per tensor-map dimension, mode 0 with stride 1 (the
// contiguous one); its other strides (elements) become the map's byte strides. The map's box is
// ONE CTA's slice (the tile divided by the multicast size along its last mode).
//
// Host-only, and only where <cuda.h> is available (as arch/sm90/tma_descriptor.hpp).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/atom/tma_atom.hpp"
#include "cute_dsl/arch/sm90/tma_descriptor.hpp"

#if defined(CUTE_DSL_HAVE_TMA_DESCRIPTOR)
#include <cstring>

namespace cute_dsl {

namespace tma_detail {
template <class GShape, class GStride, unsigned long... Is>
void global_extents(Layout<GShape, GStride> const& g, std::size_t elem_bytes, tma::TiledDescriptorSpec& s, index_sequence<Is...>) {
  const long long extents[] = {static_cast<long long>(get<Is>(g.shape()))...};
  const long long strides[] = {static_cast<long long>(get<Is>(g.stride()))...};
  if (strides[0] != 1) tma::detail::fail("the global layout's mode 0 must have stride 1 (TMA's dimension 0 is contiguous)");
  for (std::size_t i = 0; i < sizeof...(Is); ++i) {
    if (extents[i] <= 0) tma::detail::fail("global extent of dimension " + std::to_string(i) + " must be positive");
    s.shape.push_back(std::uint64_t(extents[i]));
    if (i > 0) {
      if (strides[i] <= 0) tma::detail::fail("the global strides must be positive (dimension " + std::to_string(i) + ")");
      s.strides_bytes.push_back(std::uint64_t(strides[i]) * elem_bytes);
    }
  }
}
}  // namespace tma_detail

// The descriptor spec of a TMA atom (what make_tma_*_atom encodes; exposed for tests).
template <class T, class GShape, class GStride, class SmemLayout, int Mcast = 1>
tma::TiledDescriptorSpec tma_atom_spec(T const* gmem, Layout<GShape, GStride> const& gmem_layout, SmemLayout const& smem,
                                       Int<Mcast> = {}) {
  using Math = TmaBoxMath<SmemLayout, Mcast>;
  static_assert(is_tuple_v<GShape> && depth_v<GShape> <= 1 && rank_v<GShape> == Math::rank,
                "make_tma_*_atom: the global layout must be flat with as many modes as the shared layout");
  tma::TiledDescriptorSpec s;
  s.data_type = tma::data_type_of<T>();
  s.element_bytes = int(sizeof(T));
  s.global_address = const_cast<T*>(gmem);
  tma_detail::global_extents(gmem_layout, sizeof(T), s, tuple_seq<GShape>{});
  constexpr auto box = Math::box_extents();
  for (int i = 0; i < Math::rank; ++i) s.box.push_back(std::uint32_t(box.crd[i]));
  if constexpr (requires { smem.layout_a(); }) {
    if constexpr (tma_detail::swizzle_period<remove_cvref_t<decltype(smem.layout_a())>>::value > 1)
      s.swizzle = tma::swizzle_mode_of<T>(smem.layout_a());
  }
  return s;
}

namespace tma_detail {
inline TmaDescriptor to_descriptor(CUtensorMap const& map) {
  // Same bytes; 64-byte alignment is what TMA requires of a descriptor (cuda.h asks 128 for its own).
  static_assert(sizeof(CUtensorMap) == sizeof(TmaDescriptor), "TmaDescriptor must hold a CUtensorMap's bytes");
  TmaDescriptor d;
  std::memcpy(&d, &map, sizeof d);
  return d;
}
}  // namespace tma_detail

// A TMA load atom (throws tma::TmaDescriptorError naming the broken rule).
template <class T, class GShape, class GStride, class SmemLayout, int Mcast = 1>
TmaLoadAtom<T, SmemLayout, Mcast> make_tma_load_atom(tma::EncodeTiledFn encode, T const* gmem,
                                                     Layout<GShape, GStride> const& gmem_layout, SmemLayout const& smem,
                                                     Int<Mcast> mcast = {}) {
  return {tma_detail::to_descriptor(tma::make_tma_descriptor(encode, tma_atom_spec(gmem, gmem_layout, smem, mcast)))};
}

// A TMA store atom (the box is the whole tile: stores do not multicast).
template <class T, class GShape, class GStride, class SmemLayout>
TmaStoreAtom<T, SmemLayout> make_tma_store_atom(tma::EncodeTiledFn encode, T* gmem, Layout<GShape, GStride> const& gmem_layout,
                                                SmemLayout const& smem) {
  return {tma_detail::to_descriptor(tma::make_tma_descriptor(encode, tma_atom_spec(gmem, gmem_layout, smem)))};
}

}  // namespace cute_dsl

#endif  // CUTE_DSL_HAVE_TMA_DESCRIPTOR
