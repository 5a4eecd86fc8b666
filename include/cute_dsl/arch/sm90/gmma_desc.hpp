// The 64-bit shared-memory matrix descriptor of wgmma (PTX ISA, "Matrix Descriptor Format"), and
// builders that read it off a canonical layout (arch/sm90/gmma_layout.hpp). sm_90a consumes it;
// building one is plain integer arithmetic, usable on the host (tests) and the device.
//
//   bits  0-13  start address        (shared-memory byte address & 0x3FFFF) >> 4
//   bits 16-29  leading byte offset  (LBO) >> 4
//   bits 32-45  stride byte offset   (SBO) >> 4
//   bits 49-51  base offset          0 while the swizzle pattern starts at an 8*W-byte boundary
//   bits 62-63  layout type          0 interleave (no swizzle), 1 128B, 2 64B, 3 32B swizzle
//
// What LBO and SBO mean depends on the operand's major-ness and swizzle. In core matrices
// (8 rows of 16 bytes), for the (MN, K) block that one wgmma reads:
//   K-major  interleave: SBO = step between 8-row groups along MN, LBO = step between core
//                        matrices along K (the wgmma K of 32 bytes spans two of them)
//   K-major  swizzled:   SBO = step between 8-row groups along MN; LBO unused (the 32-byte K
//                        extent lies inside one W-byte swizzle row), encoded as 1
//   MN-major interleave: SBO = step between core matrices along MN, LBO = step between the
//                        two 8-deep K groups
//   MN-major swizzled:   LBO = step between swizzle atoms along MN (W bytes of MN each),
//                        SBO = step between the two 8-deep K groups
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/composed_layout.hpp"
#include "cute_dsl/arch/sm90/gmma_layout.hpp"

namespace cute_dsl {

// Plain `unsigned` / `unsigned long long` rather than <cuda/std/cstdint>: descriptor math is also
// host code (tests, pictures) that a host compiler without the CUDA toolkit must compile.
static_assert(sizeof(unsigned) == 4 && sizeof(unsigned long long) == 8, "gmma_desc: 32- and 64-bit integer types expected");

// The descriptor's fields in bytes (as the PTX ISA describes them), and their encoding.
struct GmmaDescriptor {
  unsigned start_address = 0;       // shared-memory byte address (a multiple of 16)
  unsigned leading_byte_offset = 0;  // bytes, a multiple of 16
  unsigned stride_byte_offset = 0;   // bytes, a multiple of 16
  unsigned base_offset = 0;          // 3 bits
  GmmaLayoutType layout_type = GmmaLayoutType::interleave;

  CUTE_DSL_HOST_DEVICE constexpr unsigned long long encode() const {
    using u64 = unsigned long long;
    return (u64((start_address & 0x3FFFFu) >> 4)) | (u64((leading_byte_offset >> 4) & 0x3FFFu) << 16) |
           (u64((stride_byte_offset >> 4) & 0x3FFFu) << 32) | (u64(base_offset & 0x7u) << 49) |
           (u64(int(layout_type)) << 62);
  }
  CUTE_DSL_HOST_DEVICE static constexpr GmmaDescriptor decode(unsigned long long bits) {
    GmmaDescriptor d;
    d.start_address = unsigned(bits & 0x3FFFu) << 4;
    d.leading_byte_offset = unsigned((bits >> 16) & 0x3FFFu) << 4;
    d.stride_byte_offset = unsigned((bits >> 32) & 0x3FFFu) << 4;
    d.base_offset = unsigned((bits >> 49) & 0x7u);
    d.layout_type = GmmaLayoutType(int(bits >> 62));
    return d;
  }
};

// The descriptor of the block starting `bytes` further on: only the start-address field moves.
// This is how a K loop steps through a swizzle atom (+32 bytes per k16 step for 2-byte types):
// the hardware applies the swizzle to the full address, so a start address inside the pattern
// is fine as long as the pattern itself began at an 8*W-byte boundary.
CUTE_DSL_HOST_DEVICE constexpr unsigned long long gmma_desc_advance(unsigned long long desc, int bytes) {
  return desc + static_cast<unsigned long long>(static_cast<long long>(bytes >> 4));
}

// A tensor iterator over wgmma descriptors: one 64-bit descriptor (the block at the tensor's
// origin) plus an offset in 16-byte units, which moves only the start-address field (as
// gmma_desc_advance). TiledMMA's partition_fragment_A/B of a shared-memory operand is a tensor
// of these whose layout is the operand's layout in 16-byte units, so tCrA(_, m, k, stage) costs
// one 64-bit add of a compile-time or small run-time offset, never an array of descriptors in
// registers (a run-time stage index into such an array would put it in local memory).
// @pre every offset keeps the start address inside the 256 KiB shared window (no carry out of
//      the 14-bit field).
struct GmmaDescriptorIterator {
  using tensor_iterator = void;
  using value_type = unsigned long long;
  unsigned long long desc_ = 0;

  CUTE_DSL_HOST_DEVICE constexpr unsigned long long operator*() const { return desc_; }
  template <class I>
  CUTE_DSL_HOST_DEVICE constexpr unsigned long long operator[](I const& i) const { return desc_ + static_cast<unsigned long long>(static_cast<long long>(i)); }
  template <class I>
  CUTE_DSL_HOST_DEVICE constexpr GmmaDescriptorIterator operator+(I const& i) const { return {(*this)[i]}; }
};

namespace detail {

template <class S, class D, class C0, class C1>
CUTE_DSL_HOST_DEVICE constexpr unsigned offset_at(Layout<S, D> const& l, C0 c0, C1 c1) {
  return unsigned(l(make_coord(c0, c1)));
}

template <class T, GmmaMajor Major, GmmaLayoutType Type, class S, class D>
CUTE_DSL_HOST_DEVICE constexpr GmmaDescriptor gmma_desc_fields(unsigned start, Layout<S, D> const& l) {
  static_assert(rank_v<S> == 2, "make_gmma_desc: the layout must have two modes, (MN, K)");
  constexpr unsigned bytes = sizeof(T);
  constexpr int e = 16 / int(sizeof(T));                     // elements per 16-byte core row
  constexpr int row = gmma_swizzle_bytes<Type> / int(sizeof(T));  // elements per swizzle row
  GmmaDescriptor d;
  d.start_address = start;
  d.layout_type = Type;
  if constexpr (Major == GmmaMajor::K) {
    d.stride_byte_offset = offset_at(l, Int<8>{}, Int<0>{}) * bytes;
    d.leading_byte_offset = Type == GmmaLayoutType::interleave ? offset_at(l, Int<0>{}, Int<e>{}) * bytes : 16u;
    if constexpr (is_static_v<Layout<S, D>>) {
      static_assert(decltype(l(make_coord(Int<0>{}, Int<1>{})))::value == 1,
                    "make_gmma_desc<K>: K must be the contiguous dimension (stride 1)");
      static_assert(decltype(l(make_coord(Int<1>{}, Int<0>{})))::value == row,
                    "make_gmma_desc<K>: consecutive MN rows must be one swizzle row (W bytes) apart: "
                    "tile the canonical atom (gmma_smem_atom) along MN first");
    }
  } else {
    constexpr bool swizzled = Type != GmmaLayoutType::interleave;
    unsigned mn_step = offset_at(l, Int<row>{}, Int<0>{}) * bytes;  // next atom along MN
    unsigned k_step = offset_at(l, Int<0>{}, Int<8>{}) * bytes;     // next 8-deep K group
    d.leading_byte_offset = swizzled ? mn_step : k_step;
    d.stride_byte_offset = swizzled ? k_step : mn_step;
    if constexpr (is_static_v<Layout<S, D>>) {
      static_assert(decltype(l(make_coord(Int<1>{}, Int<0>{})))::value == 1,
                    "make_gmma_desc<MN>: MN must be the contiguous dimension (stride 1)");
      static_assert(decltype(l(make_coord(Int<0>{}, Int<1>{})))::value == row,
                    "make_gmma_desc<MN>: consecutive K rows must be one swizzle row (W bytes) apart: "
                    "tile the canonical atom (gmma_smem_atom) along K within the atom");
    }
    (void)e;
  }
  return d;
}

template <class Sw> struct gmma_layout_type_of;
template <int M, int S> struct gmma_layout_type_of<Swizzle<0, M, S>> { static constexpr auto value = GmmaLayoutType::interleave; };
template <int M, int S> struct gmma_layout_type_of<Swizzle<1, M, S>> { static constexpr auto value = GmmaLayoutType::sw32; };
template <int M, int S> struct gmma_layout_type_of<Swizzle<2, M, S>> { static constexpr auto value = GmmaLayoutType::sw64; };
template <int M, int S> struct gmma_layout_type_of<Swizzle<3, M, S>> { static constexpr auto value = GmmaLayoutType::sw128; };

}  // namespace detail

// The descriptor of the (MN, K) block `block` (element offsets, a canonical swizzled layout from
// gmma_smem_atom tiled over the block) whose element 0 sits at shared-memory byte address
// `smem_base`. The block may be larger than one wgmma's 64 x 16 / N x 16: the descriptor
// describes the piece at its origin (plus the composed layout's offset, e.g. after slicing), and
// gmma_desc_advance steps to the others. @pre smem_base is a multiple of 8 * W bytes.
template <GmmaMajor Major, class T, int B, int M, int S, class O, class LS, class LD>
CUTE_DSL_HOST_DEVICE constexpr unsigned long long make_gmma_desc(unsigned smem_base,
                                                                  ComposedLayout<Swizzle<B, M, S>, O, Layout<LS, LD>> const& block) {
  static_assert(B <= 3 && S == 3 && M == 4 - detail::log2_of<int(sizeof(T))>,
                "make_gmma_desc: the swizzle must be one of wgmma's (GmmaSwizzle<type, sizeof(T)>: "
                "Swizzle<0..3, log2(16/sizeof(T)), 3> on element offsets)");
  constexpr GmmaLayoutType type = detail::gmma_layout_type_of<Swizzle<B, M, S>>::value;
  auto start = smem_base + unsigned(block.offset()) * unsigned(sizeof(T));
  return detail::gmma_desc_fields<T, Major, type>(start, block.layout_b()).encode();
}

// A plain layout is the interleave (no swizzle) mode.
template <GmmaMajor Major, class T, class LS, class LD>
CUTE_DSL_HOST_DEVICE constexpr unsigned long long make_gmma_desc(unsigned smem_base, Layout<LS, LD> const& block) {
  return detail::gmma_desc_fields<T, Major, GmmaLayoutType::interleave>(smem_base, block).encode();
}

// From a generic pointer to shared memory (device code only; declared in nvcc's host pass too,
// where device function bodies are parsed but never run).
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
template <GmmaMajor Major, class T, class BlockLayout>
CUTE_DSL_DEVICE unsigned long long make_gmma_desc(T const* smem_ptr, BlockLayout const& block) {
#  if defined(__CUDA_ARCH__)
  return make_gmma_desc<Major, T>(static_cast<unsigned>(__cvta_generic_to_shared(smem_ptr)), block);
#  else
  (void)smem_ptr, (void)block;
  return 0;
#  endif
}
#endif

}  // namespace cute_dsl
