// Engines: where a tensor's elements live. A Tensor is an engine (an iterator to the elements)
// plus a layout (which element a coordinate names).
//
//   ArrayEngine<T, N>   owns N elements of T by value: register storage in a kernel. N is static,
//                       so the array is a plain C array the compiler can keep in registers.
//   ViewEngine<It>      borrows: holds only an iterator (raw or tagged pointer, or a coordinate
//                       iterator for identity tensors). Copying it copies the iterator.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/tensor/pointer.hpp"

namespace cute_dsl {

// What an iterator yields: reference is `*it`, value_type the same without reference/cv.
template <class It> using iter_reference_t = decltype(*declval<It const&>());
template <class It> using iter_value_t = remove_cvref_t<iter_reference_t<It>>;

// Fragments are reinterpreted as 32-bit registers (mma/ldmatrix operands) and as 8/16-byte words
// (vector copies), so the array is aligned to the widest such word its size allows, not just to T.
// (Variable templates, not functions: NVRTC rejects unannotated constexpr functions.)
template <class T, int N> inline constexpr unsigned long array_engine_bytes = sizeof(T) * static_cast<unsigned long>(N);
template <class T, int N>
inline constexpr unsigned long array_engine_word = array_engine_bytes<T, N> % 16 == 0   ? 16
                                                   : array_engine_bytes<T, N> % 8 == 0 ? 8
                                                   : array_engine_bytes<T, N> % 4 == 0 ? 4
                                                                                       : 1;
template <class T, int N>
inline constexpr unsigned long array_engine_alignment = array_engine_word<T, N> > alignof(T) ? array_engine_word<T, N> : alignof(T);

template <class T, int N>
struct alignas(array_engine_alignment<T, N>) ArrayEngine {
  static_assert(N > 0, "ArrayEngine: the number of elements must be positive");
  using value_type = T;
  using reference = T&;
  using const_reference = T const&;
  using iterator = rmem_ptr<T>;
  using const_iterator = rmem_ptr<T const>;
  static constexpr int size = N;

  T storage[N];

  // Computed on each call (never stored): a copied engine must point at its own storage.
  CUTE_DSL_HOST_DEVICE constexpr iterator begin() { return iterator(storage); }
  CUTE_DSL_HOST_DEVICE constexpr const_iterator begin() const { return const_iterator(storage); }
};

template <class It>
struct ViewEngine {
  using value_type = iter_value_t<It>;
  using reference = iter_reference_t<It>;
  using const_reference = reference;  // a view is shallow: a const view still writes through
  using iterator = It;
  using const_iterator = It;

  It it_;

  constexpr ViewEngine() = default;
  CUTE_DSL_HOST_DEVICE constexpr explicit ViewEngine(It const& it) : it_(it) {}
  CUTE_DSL_HOST_DEVICE constexpr It begin() const { return it_; }
};

template <class E> inline constexpr bool is_array_engine_impl_v = false;
template <class T, int N> inline constexpr bool is_array_engine_impl_v<ArrayEngine<T, N>> = true;
template <class E> inline constexpr bool is_array_engine_v = is_array_engine_impl_v<remove_cvref_t<E>>;

}  // namespace cute_dsl
