// Typed shared-memory storage: an array of T sized and aligned by the layout it will be viewed
// through, so a kernel's shared storage is a plain struct of these (no byte arrays, no hand
// alignment, no reinterpret_cast of offsets):
//
//   struct Storage {
//     SharedBuffer<bf16, decltype(smem_layout_a)> a;   // cosize(layout) elements, swizzle-aligned
//     SharedBuffer<bf16, decltype(smem_layout_b)> b;
//     pipeline::PipelineStorage<Stages> barriers;
//   };
//   Storage& smem = shared_storage<Storage>(dynamic_smem);      // aligned to alignof(Storage)
//   auto sA = smem.a.tensor();                                  // (M, K, PIPE) smem tensor
//
// Alignment: a swizzled layout repeats its pattern every 2^(B+M+S) elements and the hardware
// units that read or write it (TMA, wgmma) apply the swizzle to ADDRESS bits, so the buffer must
// start on a multiple of that period in bytes; plain layouts need 16 bytes (vector accesses).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/composed_layout.hpp"
#include "cute_dsl/layout/swizzle.hpp"
#include "cute_dsl/tensor/pointer.hpp"
#include "cute_dsl/tensor/tensor.hpp"

namespace cute_dsl {

namespace detail {
template <class L> struct layout_swizzle_period { static constexpr long value = 1; };
template <int B, int M, int S, class O, class L>
struct layout_swizzle_period<ComposedLayout<Swizzle<B, M, S>, O, L>> {
  static constexpr long value = B == 0 ? 1 : 1L << (B + M + S);
};
}  // namespace detail

// Bytes a buffer of T viewed through Layout must be aligned to.
template <class T, class Layout>
inline constexpr int shared_buffer_alignment =
    int(detail::layout_swizzle_period<Layout>::value * long(sizeof(T))) > 16
        ? int(detail::layout_swizzle_period<Layout>::value * long(sizeof(T)))
        : 16;

// @pre Layout is static; its offsets lie in [0, cosize).
template <class T, class Layout>
struct alignas(shared_buffer_alignment<T, Layout>) SharedBuffer {
  static_assert(is_static_v<Layout>, "SharedBuffer: the layout must be static (its cosize sizes the array)");
  using layout_type = Layout;
  static constexpr long elements = long(decltype(cosize(Layout{}))::value);
  static constexpr long bytes = elements * long(sizeof(T));
  T data[elements];

  CUTE_DSL_HOST_DEVICE constexpr auto tensor() { return make_tensor(make_smem_ptr(&data[0]), Layout{}); }
  CUTE_DSL_HOST_DEVICE constexpr auto tensor() const { return make_tensor(make_smem_ptr(&data[0]), Layout{}); }
};

// Bytes of dynamic shared memory that hold a Storage once its start is aligned (the dynamic
// base is only guaranteed 16-byte alignment).
template <class Storage>
inline constexpr int shared_storage_bytes = int(sizeof(Storage)) + (alignof(Storage) > 16 ? int(alignof(Storage)) - 16 : 0);

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
// The Storage at the first alignof(Storage) boundary of the dynamic shared memory `raw`.
// @pre the launch requested shared_storage_bytes<Storage> of dynamic shared memory.
template <class Storage>
CUTE_DSL_DEVICE Storage& shared_storage(unsigned char* raw) {
  constexpr unsigned long long mask = alignof(Storage) - 1;
  return *reinterpret_cast<Storage*>((reinterpret_cast<unsigned long long>(raw) + mask) & ~mask);
}
#endif

}  // namespace cute_dsl
