// Arch-neutral copy instructions: a plain register or memory move of 1, 2, 4, 8 or 16 bytes.
//
// UniversalCopy<T> moves one T with an ordinary assignment; the compiler picks the widest
// load/store (LDG.128/STS.128 for 16 bytes) when the addresses are aligned to sizeof(T). It
// is the atom every tiled copy can fall back to, on any SM, host included.
//
// Also here: uint128_t (the 16-byte register unit that vectorized copies, cp.async and
// ldmatrix move) and smem_address (a shared-memory pointer as the 32-bit address PTX takes).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"

namespace cute_dsl {

// 16 bytes, 16-byte aligned: one vector register quadruple. Not an arithmetic type.
struct alignas(16) uint128_t {
  unsigned long long lo;
  unsigned long long hi;
};
static_assert(sizeof(unsigned) == 4 && sizeof(unsigned short) == 2 && sizeof(unsigned long long) == 8,
              "cute_dsl/arch: the PTX wrappers assume 16/32/64-bit unsigned short/int/long long");

// The unsigned type of exactly `Bytes` bytes (1, 2, 4, 8 or 16).
template <int Bytes> struct uint_bytes;
template <> struct uint_bytes<1> { using type = unsigned char; };
template <> struct uint_bytes<2> { using type = unsigned short; };
template <> struct uint_bytes<4> { using type = unsigned; };
template <> struct uint_bytes<8> { using type = unsigned long long; };
template <> struct uint_bytes<16> { using type = uint128_t; };
template <int Bytes> using uint_bytes_t = typename uint_bytes<Bytes>::type;

// Any SM, and the host. One S moved to one D (same size) by assignment.
template <class S, class D = S>
struct UniversalCopy {
  static_assert(sizeof(S) == sizeof(D), "UniversalCopy: source and destination units must have the same size");
  using SRegisters = S[1];
  using DRegisters = D[1];

  CUTE_DSL_HOST_DEVICE static constexpr void copy(S const& src, D& dst) {
#if defined(__CUDA_ARCH__)
    // One typed load and store: the width the hardware moves in one instruction.
    if constexpr (is_same_v<S, D>) dst = src;
    else dst = __builtin_bit_cast(D, src);
#else
    // On the host the operands are often other types' bytes (float data copied as uint128_t):
    // a byte copy keeps that free of strict-aliasing assumptions.
    __builtin_memcpy(&dst, &src, sizeof(S));
#endif
  }
};

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
// The 32-bit shared-window address of a generic pointer into shared memory (what ld/st.shared,
// cp.async, ldmatrix and TMA take). Undefined for a pointer that is not into shared memory.
CUTE_DSL_DEVICE inline unsigned smem_address(void const* ptr) {
  return static_cast<unsigned>(__cvta_generic_to_shared(ptr));
}
#endif

}  // namespace cute_dsl
