// Pointers tagged with the memory they point into: gmem_ptr<T>, smem_ptr<T>, rmem_ptr<T>.
//
// Why a tag: the same copy `copy(src, dst)` lowers to different instructions depending on where
// src and dst live (cp.async needs global -> shared, ldmatrix shared -> registers, TMA global ->
// shared). The tag is in the type, so the choice is made at compile time (is_smem_v<P> ...) and
// costs nothing at run time: a tagged pointer is exactly one raw pointer.
//
//   float* g = ...;
//   auto p = make_gmem_ptr(g);          // gmem_ptr<float>
//   p[3] = 1.f;  *(p + 2) = 0.f;        // arithmetic and dereference as for T*
//   float* raw = p.get();
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"

namespace cute_dsl {

// The memory spaces. Empty types: only their names matter.
struct gmem_tag {};
struct smem_tag {};
struct rmem_tag {};

template <class Space, class T>
struct tagged_ptr {
  using memory_space = Space;
  using element_type = T;  // may be const
  using value_type = remove_cv_t<T>;
  using reference = T&;

  T* ptr_ = nullptr;

  constexpr tagged_ptr() = default;
  CUTE_DSL_HOST_DEVICE constexpr explicit tagged_ptr(T* p) : ptr_(p) {}
  // T* converts to T const*: a pointer to mutable data may be viewed as one to const data.
  template <class U>
    requires(!is_same_v<U, T> && is_same_v<U const, T>)
  CUTE_DSL_HOST_DEVICE constexpr tagged_ptr(tagged_ptr<Space, U> const& p) : ptr_(p.get()) {}

  CUTE_DSL_HOST_DEVICE constexpr T* get() const { return ptr_; }
  CUTE_DSL_HOST_DEVICE constexpr T& operator*() const { return *ptr_; }
  CUTE_DSL_HOST_DEVICE constexpr T* operator->() const { return ptr_; }
  // Offsets may be static (Int<N>) or run-time integers; both convert to an integer.
  template <class I>
    requires is_integral_v<I>
  CUTE_DSL_HOST_DEVICE constexpr T& operator[](I const& i) const { return ptr_[i]; }
};

template <class T> using gmem_ptr = tagged_ptr<gmem_tag, T>;
template <class T> using smem_ptr = tagged_ptr<smem_tag, T>;
template <class T> using rmem_ptr = tagged_ptr<rmem_tag, T>;

template <class T> CUTE_DSL_HOST_DEVICE constexpr gmem_ptr<T> make_gmem_ptr(T* p) { return gmem_ptr<T>(p); }
template <class T> CUTE_DSL_HOST_DEVICE constexpr smem_ptr<T> make_smem_ptr(T* p) { return smem_ptr<T>(p); }
template <class T> CUTE_DSL_HOST_DEVICE constexpr rmem_ptr<T> make_rmem_ptr(T* p) { return rmem_ptr<T>(p); }

// ---- arithmetic and comparison ------------------------------------------------------------------

template <class S, class T, class I>
  requires is_integral_v<I>
CUTE_DSL_HOST_DEVICE constexpr tagged_ptr<S, T> operator+(tagged_ptr<S, T> const& p, I const& i) {
  return tagged_ptr<S, T>(p.get() + i);
}
template <class S, class T, class I>
  requires is_integral_v<I>
CUTE_DSL_HOST_DEVICE constexpr tagged_ptr<S, T> operator+(I const& i, tagged_ptr<S, T> const& p) {
  return p + i;
}
template <class S, class T, class I>
  requires is_integral_v<I>
CUTE_DSL_HOST_DEVICE constexpr tagged_ptr<S, T> operator-(tagged_ptr<S, T> const& p, I const& i) {
  return tagged_ptr<S, T>(p.get() - i);
}
template <class S, class T, class U>
CUTE_DSL_HOST_DEVICE constexpr auto operator-(tagged_ptr<S, T> const& a, tagged_ptr<S, U> const& b) {
  return a.get() - b.get();
}
template <class S, class T, class U>
CUTE_DSL_HOST_DEVICE constexpr bool operator==(tagged_ptr<S, T> const& a, tagged_ptr<S, U> const& b) {
  return a.get() == b.get();
}
template <class S, class T, class U>
CUTE_DSL_HOST_DEVICE constexpr bool operator!=(tagged_ptr<S, T> const& a, tagged_ptr<S, U> const& b) {
  return a.get() != b.get();
}

// ---- traits -------------------------------------------------------------------------------------

template <class P> inline constexpr bool is_tagged_ptr_impl_v = false;
template <class S, class T> inline constexpr bool is_tagged_ptr_impl_v<tagged_ptr<S, T>> = true;
template <class P> inline constexpr bool is_tagged_ptr_v = is_tagged_ptr_impl_v<remove_cvref_t<P>>;

template <class P> inline constexpr bool is_raw_pointer_impl_v = false;
template <class T> inline constexpr bool is_raw_pointer_impl_v<T*> = true;
template <class P> inline constexpr bool is_raw_pointer_v = is_raw_pointer_impl_v<remove_cvref_t<P>>;

namespace detail {
template <class P> struct memory_space_of { using type = void; };  // raw pointers: unknown
template <class S, class T> struct memory_space_of<tagged_ptr<S, T>> { using type = S; };
}  // namespace detail
template <class P> using memory_space_t = typename detail::memory_space_of<remove_cvref_t<P>>::type;

// A raw pointer is none of these: its memory is not known at compile time.
template <class P> inline constexpr bool is_gmem_v = is_same_v<memory_space_t<P>, gmem_tag>;
template <class P> inline constexpr bool is_smem_v = is_same_v<memory_space_t<P>, smem_tag>;
template <class P> inline constexpr bool is_rmem_v = is_same_v<memory_space_t<P>, rmem_tag>;

// ---- reinterpretation ---------------------------------------------------------------------------

// The same address read as U, same memory space (const carried over). A raw pointer stays raw.
template <class U, class S, class T>
CUTE_DSL_HOST_DEVICE constexpr auto recast_ptr(tagged_ptr<S, T> const& p) {
  using V = conditional_t<is_same_v<T const, T>, U const, U>;
  return tagged_ptr<S, V>(reinterpret_cast<V*>(p.get()));
}
template <class U, class T>
CUTE_DSL_HOST_DEVICE constexpr auto recast_ptr(T* p) {
  using V = conditional_t<is_same_v<T const, T>, U const, U>;
  return reinterpret_cast<V*>(p);
}

// The raw address of any pointer-like value.
template <class S, class T> CUTE_DSL_HOST_DEVICE constexpr T* raw_pointer(tagged_ptr<S, T> const& p) { return p.get(); }
template <class T> CUTE_DSL_HOST_DEVICE constexpr T* raw_pointer(T* p) { return p; }

}  // namespace cute_dsl
