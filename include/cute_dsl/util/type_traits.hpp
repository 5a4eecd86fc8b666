// The handful of type traits the library needs, written by hand.
//
// Why not <type_traits> or <cuda/std/type_traits>: NVRTC compile time is a tracked metric and
// <cuda/std/type_traits> alone costs about 1.3 s there. Everything below is a few lines and uses
// compiler builtins where every compiler we target (g++, clang, nvcc, NVRTC) has them.
#pragma once

#include "cute_dsl/config.hpp"

namespace cute_dsl {

// ---- identity, selection -------------------------------------------------------------------

template <class T> struct type_identity { using type = T; };
template <class T> using type_identity_t = typename type_identity<T>::type;

template <bool B, class T, class F> struct conditional { using type = T; };
template <class T, class F> struct conditional<false, T, F> { using type = F; };
template <bool B, class T, class F> using conditional_t = typename conditional<B, T, F>::type;

template <bool B, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { using type = T; };
template <bool B, class T = void> using enable_if_t = typename enable_if<B, T>::type;

template <class...> using void_t = void;

// For static_assert(dependent_false<T>, "...") in a discarded branch.
template <class...> inline constexpr bool dependent_false = false;

// ---- comparison, qualifiers ----------------------------------------------------------------

template <class A, class B> inline constexpr bool is_same_v = false;
template <class A> inline constexpr bool is_same_v<A, A> = true;
template <class A, class B> struct is_same { static constexpr bool value = is_same_v<A, B>; };

template <class T> struct remove_reference { using type = T; };
template <class T> struct remove_reference<T&> { using type = T; };
template <class T> struct remove_reference<T&&> { using type = T; };
template <class T> using remove_reference_t = typename remove_reference<T>::type;

template <class T> struct remove_cv { using type = T; };
template <class T> struct remove_cv<T const> { using type = T; };
template <class T> struct remove_cv<T volatile> { using type = T; };
template <class T> struct remove_cv<T const volatile> { using type = T; };
template <class T> using remove_cv_t = typename remove_cv<T>::type;

template <class T> using remove_cvref_t = remove_cv_t<remove_reference_t<T>>;
template <class T> struct remove_cvref { using type = remove_cvref_t<T>; };

template <class T> inline constexpr bool is_lvalue_reference_v = false;
template <class T> inline constexpr bool is_lvalue_reference_v<T&> = true;

// ---- object model (compiler builtins: g++, clang and EDG-based nvcc/NVRTC all provide them) --

template <class T> inline constexpr bool is_empty_v = __is_empty(T);
template <class T> inline constexpr bool is_class_v = __is_class(T);
template <class T> inline constexpr bool is_final_v = __is_final(T);

// The built-in integer types (bool and the character types included, as the standard does).
template <class T> inline constexpr bool is_std_integral_impl_v = false;
template <> inline constexpr bool is_std_integral_impl_v<bool> = true;
template <> inline constexpr bool is_std_integral_impl_v<char> = true;
template <> inline constexpr bool is_std_integral_impl_v<signed char> = true;
template <> inline constexpr bool is_std_integral_impl_v<unsigned char> = true;
template <> inline constexpr bool is_std_integral_impl_v<char8_t> = true;
template <> inline constexpr bool is_std_integral_impl_v<char16_t> = true;
template <> inline constexpr bool is_std_integral_impl_v<char32_t> = true;
template <> inline constexpr bool is_std_integral_impl_v<wchar_t> = true;
template <> inline constexpr bool is_std_integral_impl_v<short> = true;
template <> inline constexpr bool is_std_integral_impl_v<unsigned short> = true;
template <> inline constexpr bool is_std_integral_impl_v<int> = true;
template <> inline constexpr bool is_std_integral_impl_v<unsigned int> = true;
template <> inline constexpr bool is_std_integral_impl_v<long> = true;
template <> inline constexpr bool is_std_integral_impl_v<unsigned long> = true;
template <> inline constexpr bool is_std_integral_impl_v<long long> = true;
template <> inline constexpr bool is_std_integral_impl_v<unsigned long long> = true;
template <class T> inline constexpr bool is_std_integral_v = is_std_integral_impl_v<remove_cvref_t<T>>;

template <class T> inline constexpr bool is_signed_integer_v = is_std_integral_v<T> && (remove_cvref_t<T>(-1) < remove_cvref_t<T>(0));

// ---- value categories ----------------------------------------------------------------------

template <class T> CUTE_DSL_HOST_DEVICE T&& declval_impl(int);
template <class T> CUTE_DSL_HOST_DEVICE T declval_impl(long);
// Unevaluated only (no definition), like std::declval.
template <class T> CUTE_DSL_HOST_DEVICE decltype(declval_impl<T>(0)) declval() noexcept;

template <class T>
CUTE_DSL_HOST_DEVICE constexpr T&& forward(remove_reference_t<T>& t) noexcept { return static_cast<T&&>(t); }
template <class T>
CUTE_DSL_HOST_DEVICE constexpr T&& forward(remove_reference_t<T>&& t) noexcept { return static_cast<T&&>(t); }
template <class T>
CUTE_DSL_HOST_DEVICE constexpr remove_reference_t<T>&& move(T&& t) noexcept {
  return static_cast<remove_reference_t<T>&&>(t);
}

// ---- integer sequences ---------------------------------------------------------------------

template <class T, T... Is>
struct integer_sequence {
  using value_type = T;
  CUTE_DSL_HOST_DEVICE static constexpr unsigned long size() noexcept { return sizeof...(Is); }
};
template <unsigned long... Is> using index_sequence = integer_sequence<unsigned long, Is...>;

// g++ (and nvcc, whose front end follows it) offers __integer_pack, clang __make_integer_seq.
// NVRTC has neither, so it gets a doubling construction: depth log2(N), not N.
namespace detail {
template <class T, class A, class B> struct concat_seq;
template <class T, T... As, T... Bs>
struct concat_seq<T, integer_sequence<T, As...>, integer_sequence<T, Bs...>> {
  using type = integer_sequence<T, As..., (T(sizeof...(As)) + Bs)...>;
};
template <class T, unsigned long N> struct make_seq {
  using type = typename concat_seq<T, typename make_seq<T, N / 2>::type,
                                   typename make_seq<T, N - N / 2>::type>::type;
};
template <class T> struct make_seq<T, 0> { using type = integer_sequence<T>; };
template <class T> struct make_seq<T, 1> { using type = integer_sequence<T, T(0)>; };
}  // namespace detail

#if !defined(__CUDACC_RTC__) && defined(__has_builtin)
#  if __has_builtin(__make_integer_seq)
#    define CUTE_DSL_MAKE_INTEGER_SEQ_BUILTIN 1
#  elif __has_builtin(__integer_pack)
#    define CUTE_DSL_INTEGER_PACK_BUILTIN 1
#  endif
#endif

#if defined(CUTE_DSL_MAKE_INTEGER_SEQ_BUILTIN)
template <class T, T N> using make_integer_sequence = __make_integer_seq<integer_sequence, T, N>;
#elif defined(CUTE_DSL_INTEGER_PACK_BUILTIN)
template <class T, T N> using make_integer_sequence = integer_sequence<T, __integer_pack(N)...>;
#else
template <class T, T N> using make_integer_sequence = typename detail::make_seq<T, (unsigned long)N>::type;
#endif

template <unsigned long N> using make_index_sequence = make_integer_sequence<unsigned long, N>;
template <class... Ts> using index_sequence_for = make_index_sequence<sizeof...(Ts)>;

// ---- pack indexing ---------------------------------------------------------------------------

// The I-th type of a pack. clang has a builtin; elsewhere overload resolution against a
// set of bases picks it in one step (no recursion).
namespace detail {
template <unsigned long I, class T> struct indexed_type { using type = T; };
template <class Seq, class... Ts> struct indexed_types;
template <unsigned long... Is, class... Ts>
struct indexed_types<index_sequence<Is...>, Ts...> : indexed_type<Is, Ts>... {};
template <unsigned long I, class T> CUTE_DSL_HOST_DEVICE indexed_type<I, T> select_indexed(indexed_type<I, T> const&);
}  // namespace detail

#if !defined(__CUDACC_RTC__) && defined(__has_builtin)
#  if __has_builtin(__type_pack_element)
#    define CUTE_DSL_TYPE_PACK_ELEMENT_BUILTIN 1
#  endif
#endif

#if defined(CUTE_DSL_TYPE_PACK_ELEMENT_BUILTIN)
template <unsigned long I, class... Ts> using type_pack_element_t = __type_pack_element<I, Ts...>;
#else
template <unsigned long I, class... Ts>
using type_pack_element_t = typename decltype(detail::select_indexed<I>(
    declval<detail::indexed_types<index_sequence_for<Ts...>, Ts...>>()))::type;
#endif

}  // namespace cute_dsl
