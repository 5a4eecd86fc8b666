// The underscore `_`: "every coordinate of this mode", used to slice layouts (`L(_, 2)`) and,
// later, tensors. An empty type, so a coordinate made only of underscores and static integers
// stays static.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"

namespace cute_dsl {

struct Underscore {};

inline constexpr Underscore _{};

template <class T> inline constexpr bool is_underscore_v = is_same_v<remove_cvref_t<T>, Underscore>;

}  // namespace cute_dsl
