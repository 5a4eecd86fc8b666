// copy_box: what a TMA load does, done by a group of threads, for operands a tensor map cannot
// describe (a leading dimension or batch stride that is not a multiple of 16 bytes, a base
// address that is not 16-byte aligned).
//
//   GlobalBox<T> g{ptr, {ext0, ext1, ext2}, {ld1, ld2}};     // dimension 0 contiguous, like a tensor map
//   copy_box<128>(g, TmaBox<3>{{c0, c1, c2}}, sTile, thread);  // sTile: the box's shared tensor
//   cp_async_fence(); ... cp_async_wait<N>();                 // then fence + arrive, see below
//
// Element (i0, i1, i2) of the shared tile gets global element (c0 + i0, c1 + i1, c2 + i2), or
// zero past an extent (TMA's zero fill): the same tile the TMA atom would have written, in the
// same (swizzled) layout, so the consumers cannot tell which path filled it.
//
// The box moves in 16-byte chunks (8 elements of 16 bits along dimension 0), consecutive threads
// taking consecutive chunks, so a warp reads whole 128-byte rows. Each chunk goes the widest way
// its global address allows, chosen per chunk at run time (rows of one box differ when the
// leading dimension is odd):
//   past an extent        zeros, stored from registers;
//   ending past it        element by element, zero past the extent (no read beyond the tensor);
//   16-byte aligned       one cp.async of 16 bytes (L2 only);
//   4- or 8-byte aligned  cp.async of 4 or 8 bytes each;
//   2-byte aligned        five aligned 32-bit loads around the chunk, shifted into place and
//                         stored from registers (not the tensor's first or last chunk);
//   anything else         element by element.
// Most chunks are thus in flight without registers: the caller commits them as a group and
// waits for it later (cp_async_fence / cp_async_wait<N>, arch/sm80/cp_async.hpp), which lets a
// producer keep several boxes in flight. The register path's reads of the 32-bit words around
// a 2-byte-aligned chunk stay inside words that hold an element of the tensor (same page).
// The caller orders the copies for their readers: after the wait, fence_view_async_shared before
// wgmma (the async proxy) reads them, then a barrier or an mbarrier arrive.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/tensor/tensor.hpp"
#include "cute_dsl/atom/tma_atom.hpp"
#include "cute_dsl/arch/sm80/cp_async.hpp"

namespace cute_dsl {

// A rank-3 global tensor as a tensor map sees it: extents and element strides of dimensions 1, 2
// (dimension 0 has stride 1).
template <class T>
struct GlobalBox {
  T const* ptr;
  int extent[3];
  long long stride[2];
};

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
namespace detail {

struct alignas(16) CopyBoxChunk {
  unsigned w[4];
};

// The 16 bytes at a 2-byte-aligned (not 4-byte-aligned) address: the five 32-bit words around
// them, each pair shifted by one element.
CUTE_DSL_DEVICE inline CopyBoxChunk copy_box_shifted_chunk(unsigned char const* src) {
  auto const* words = reinterpret_cast<unsigned const*>(src - 2);
  unsigned v[5];
  CUTE_DSL_UNROLL
  for (int i = 0; i < 5; ++i) v[i] = words[i];
  CopyBoxChunk c;
  CUTE_DSL_UNROLL
  for (int i = 0; i < 4; ++i) c.w[i] = (v[i] >> 16) | (v[i + 1] << 16);
  return c;
}

// Element by element, zero from `valid` on.
template <class T, int N>
CUTE_DSL_DEVICE inline void copy_box_elements(T const* src, T* dst, int valid) {
  CUTE_DSL_UNROLL
  for (int e = 0; e < N; ++e) dst[e] = e < valid ? src[e] : T(0.f);
}

// The chunk of 16-byte width at `g` (16-bit elements) into registers, the widest way its address
// allows, zeros from element `valid` on: what copy_box does for one chunk, for readers whose
// destination is not shared memory (the GEMM's operand staging, kernels/gemm_operand_stage.hpp).
// [first, last]: the tensor's first and last elements (the shifted path reads one element on
// each side of the chunk).
template <class T>
CUTE_DSL_DEVICE inline CopyBoxChunk copy_box_load_chunk(T const* g, int valid, T const* first, T const* last) {
  static_assert(sizeof(T) == 2, "copy_box_load_chunk: 16-bit elements (the register path shifts by one element)");
  constexpr int kChunk = 8;
  const auto address = reinterpret_cast<unsigned long long>(g);
  CopyBoxChunk c{};
  if (valid <= 0) return c;
  if (valid < kChunk) {
    copy_box_elements<T, kChunk>(g, reinterpret_cast<T*>(&c), valid);
  } else if (address % 16 == 0) {
    c = *reinterpret_cast<CopyBoxChunk const*>(g);
  } else if (address % 4 == 0) {
    CUTE_DSL_UNROLL
    for (int w = 0; w < 4; ++w) c.w[w] = reinterpret_cast<unsigned const*>(g)[w];
  } else if (g != first && g + kChunk <= last) {
    c = copy_box_shifted_chunk(reinterpret_cast<unsigned char const*>(g));
  } else {
    copy_box_elements<T, kChunk>(g, reinterpret_cast<T*>(&c), kChunk);
  }
  return c;
}

}  // namespace detail

// @pre dst is a static (E0, E1, 1) tensor in shared memory whose 16-byte chunks along dimension 0
//      (16 / sizeof(T) elements from a multiple of that) are contiguous and 16-byte aligned, as
//      in every wgmma swizzle atom of 16-bit elements; 0 <= thread < Threads.
// @post the chunks are stored or in flight as cp.async of this thread (not yet committed).
template <int Threads, class T, class DTensor>
CUTE_DSL_DEVICE void copy_box(GlobalBox<T> const& src, TmaBox<3> const& origin, DTensor&& dst, int thread) {
  constexpr int e0 = int(decltype(size<0>(dst))::value), e1 = int(decltype(size<1>(dst))::value);
  static_assert(decltype(size<2>(dst))::value == 1, "copy_box: one batch per box");
  static_assert(sizeof(T) == 2, "copy_box: 16-bit elements (the register path shifts by one element)");
  constexpr int kChunk = 16 / int(sizeof(T));
  static_assert(e0 % kChunk == 0, "copy_box: dimension 0 of the box must be whole 16-byte chunks");
  constexpr int chunks_per_row = e0 / kChunk;
  static_assert(Threads % chunks_per_row == 0 && e1 % (Threads / chunks_per_row) == 0,
                "copy_box: the threads must cover whole rows of chunks, and the rows whole passes");
  // Each thread keeps one chunk column (i0) and steps down the rows: its column, the extent check
  // along dimension 0 and its pointers are computed once.
  constexpr int kRowsPerPass = Threads / chunks_per_row;
  const int i0 = thread % chunks_per_row * kChunk, row = thread / chunks_per_row;
  const int g0 = origin.crd[0] + i0;
  int valid = origin.crd[2] < src.extent[2] ? src.extent[0] - g0 : 0;
  valid = valid < 0 ? 0 : valid > kChunk ? kChunk : valid;
  const long long ld = src.stride[0];
  T const* g = src.ptr + (long long)origin.crd[2] * src.stride[1] + (long long)(origin.crd[1] + row) * ld + g0;
  // The tensor's first and last elements: the register path reads one element on each side.
  T const* const last = src.ptr + (long long)(src.extent[2] - 1) * src.stride[1] + (long long)(src.extent[1] - 1) * ld +
                        (src.extent[0] - 1);
  CUTE_DSL_UNROLL
  for (int j = 0; j < e1 / kRowsPerPass; ++j, g += kRowsPerPass * ld) {
    const int i1 = row + j * kRowsPerPass;
    T* s = &dst(make_coord(i0, i1, 0));
    const int n = origin.crd[1] + i1 < src.extent[1] ? valid : 0;
    const auto address = reinterpret_cast<unsigned long long>(g);
    if (n == 0) {  // wholly past an extent
      *reinterpret_cast<detail::CopyBoxChunk*>(s) = detail::CopyBoxChunk{};
    } else if (n < kChunk) {  // the extent ends inside the chunk: read nothing past it
      detail::copy_box_elements<T, kChunk>(g, s, n);
    } else if (address % 16 == 0) {
      detail::cp_async<true, 16>(s, g, 16);
    } else if (address % 8 == 0) {
      detail::cp_async<false, 8>(s, g, 8);
      detail::cp_async<false, 8>(s + kChunk / 2, g + kChunk / 2, 8);
    } else if (address % 4 == 0) {
      CUTE_DSL_UNROLL
      for (int w = 0; w < 4; ++w) detail::cp_async<false, 4>(s + 2 * w, g + 2 * w, 4);
    } else if (address % 2 == 0 && g != src.ptr && g + kChunk <= last) {
      *reinterpret_cast<detail::CopyBoxChunk*>(s) = detail::copy_box_shifted_chunk(reinterpret_cast<unsigned char const*>(g));
    } else {
      detail::copy_box_elements<T, kChunk>(g, s, n);
    }
  }
}
#endif

}  // namespace cute_dsl
