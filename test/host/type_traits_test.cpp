// util/type_traits.hpp: the hand-written traits agree with what they claim, on every compiler.
#include "cute_dsl/util/type_traits.hpp"

#include <gtest/gtest.h>

#include <type_traits>  // the reference, in the test only
#include <utility>

namespace {
using namespace cute_dsl;

struct Empty {};
struct NotEmpty { int x; };

static_assert(is_same_v<int, int> && !is_same_v<int, long> && !is_same_v<int, int const>);
static_assert(is_same_v<remove_cvref_t<int const&>, int> && is_same_v<remove_cvref_t<int volatile&&>, int>);
static_assert(is_same_v<conditional_t<true, int, long>, int> && is_same_v<conditional_t<false, int, long>, long>);
static_assert(is_same_v<enable_if_t<true, int>, int>);
static_assert(is_empty_v<Empty> && !is_empty_v<NotEmpty> && !is_empty_v<int>);
static_assert(is_std_integral_v<int> && is_std_integral_v<unsigned long long const&> && is_std_integral_v<bool>);
static_assert(!is_std_integral_v<float> && !is_std_integral_v<Empty> && !is_std_integral_v<int*>);
static_assert(is_signed_integer_v<int> && !is_signed_integer_v<unsigned>);
static_assert(is_same_v<decltype(declval<int&>()), int&> && is_same_v<decltype(declval<int>()), int&&>);

// make_integer_sequence against the standard one, including the lengths where the doubling
// fallback (used under NVRTC) splits unevenly.
template <unsigned long... Is>
constexpr bool same_as_std(index_sequence<Is...>, std::index_sequence<Is...>) { return true; }
template <unsigned long N>
constexpr bool sequence_matches() {
  return same_as_std(make_index_sequence<N>{}, std::make_index_sequence<N>{});
}
static_assert(sequence_matches<0>() && sequence_matches<1>() && sequence_matches<2>() && sequence_matches<7>() &&
              sequence_matches<64>() && sequence_matches<127>());
static_assert(is_same_v<detail::make_seq<int, 5>::type, integer_sequence<int, 0, 1, 2, 3, 4>>);
static_assert(make_index_sequence<300>::size() == 300);

static_assert(is_same_v<type_pack_element_t<0, int, long, char>, int>);
static_assert(is_same_v<type_pack_element_t<2, int, long, char>, char>);
using Fallback = decltype(detail::select_indexed<1>(declval<detail::indexed_types<index_sequence<0, 1, 2>, int, long, char>>()));
static_assert(is_same_v<Fallback::type, long>);


TEST(TypeTraits, ForwardKeepsValueCategory) {
  int x = 1;
  static_assert(is_same_v<decltype(cute_dsl::forward<int&>(x)), int&>);
  static_assert(is_same_v<decltype(cute_dsl::forward<int>(x)), int&&>);
  static_assert(is_same_v<decltype(cute_dsl::move(x)), int&&>);
  EXPECT_EQ(cute_dsl::forward<int&>(x), 1);
}

TEST(TypeTraits, DetailSequencesMatchStd) {
  // The doubling construction itself, whichever one make_integer_sequence uses here.
  EXPECT_TRUE((is_same_v<detail::make_seq<unsigned long, 37>::type, index_sequence<
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
      31, 32, 33, 34, 35, 36>>));
}
}  // namespace
