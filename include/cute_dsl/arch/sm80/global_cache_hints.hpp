// 16-byte global loads and stores with cache hints, for data that is touched exactly once
// (streaming copies and elementwise kernels):
//
//   ld.global.nc.L1::no_allocate.L2::256B.v4.u32   read-only path, no L1 line kept, L2 fetches
//                                                   256 B around the access (the next vectors of
//                                                   the same warp come from L2)          sm_80
//   st.global.cs.v4.u32                             "cache streaming": the line is evicted first,
//                                                   so written-once data does not push the
//                                                   inputs out of L2                     sm_80
//   st.global.L1::no_allocate.v4.u32                no L1 line for the store            sm_80
//
// Why only 16 bytes: the kernels that use these move AlignedVector<T, 16 / sizeof(T)>; the
// payload crosses the asm boundary as four 32-bit registers, read and written through a view of
// the caller's 16-byte type (any trivially copyable type of size 16 and alignment 16) as four
// words (NVRTC has no __builtin_memcpy; nvcc keeps the words in registers either way). Minimum sm_80 (the
// .L2::256B prefetch size; the other qualifiers are older but live here with it): a use compiled
// for a lower SM fails with a static_assert naming the instruction.
#pragma once

#include "cute_dsl/arch/arch_requirement.hpp"
#include "cute_dsl/config.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

namespace cute_dsl::arch {

namespace detail {
template <class Vec>
inline constexpr bool is_16_byte_payload = sizeof(Vec) == 16 && alignof(Vec) >= 16;
struct alignas(16) Words16 {
  unsigned w[4];
};
}  // namespace detail

// ld.global.nc.L1::no_allocate.L2::256B.v4.u32: read 16 bytes that no thread writes during the
// kernel (non-coherent path), without allocating in L1.
template <class Vec>
CUTE_DSL_DEVICE inline Vec ld_global_nc_no_allocate_16B(const Vec* src) {
  static_assert(detail::is_16_byte_payload<Vec>, "ld_global_nc_no_allocate_16B: a 16-byte, 16-byte-aligned type");
  CUTE_DSL_REQUIRE_ARCH(Vec, 80, "ld.global.nc.L1::no_allocate.L2::256B.v4.u32");
  Vec v;
  unsigned* r = reinterpret_cast<detail::Words16&>(v).w;
  // Not volatile: the bytes do not change during the kernel, so the compiler may schedule it.
  asm("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];"
      : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
      : "l"(src));
  return v;
}

// st.global.cs.v4.u32: write 16 bytes that will not be read again soon (evict-first in L2).
template <class Vec>
CUTE_DSL_DEVICE inline void st_global_streaming_16B(Vec* dst, const Vec& v) {
  static_assert(detail::is_16_byte_payload<Vec>, "st_global_streaming_16B: a 16-byte, 16-byte-aligned type");
  CUTE_DSL_REQUIRE_ARCH(Vec, 80, "st.global.cs.v4.u32");
  const unsigned* r = reinterpret_cast<const detail::Words16&>(v).w;
  asm volatile("st.global.cs.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(dst), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
               : "memory");
}

// st.global.L1::no_allocate.v4.u32: write 16 bytes without an L1 line (L2 policy unchanged).
template <class Vec>
CUTE_DSL_DEVICE inline void st_global_no_allocate_16B(Vec* dst, const Vec& v) {
  static_assert(detail::is_16_byte_payload<Vec>, "st_global_no_allocate_16B: a 16-byte, 16-byte-aligned type");
  CUTE_DSL_REQUIRE_ARCH(Vec, 80, "st.global.L1::no_allocate.v4.u32");
  const unsigned* r = reinterpret_cast<const detail::Words16&>(v).w;
  asm volatile("st.global.L1::no_allocate.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(dst), "r"(r[0]), "r"(r[1]), "r"(r[2]),
               "r"(r[3])
               : "memory");
}

}  // namespace cute_dsl::arch

#endif  // __CUDACC__ || __CUDACC_RTC__
