// Leaf bookkeeping shared by the tensor headers that build a stride leaf by leaf (identity
// tensors, fragments): how many leaves an int-tuple has, how many come before mode I, and
// rebuilding a nested int-tuple from a flat list of leaves (the inverse of flatten_to_tuple).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/container/tuple.hpp"
#include "cute_dsl/container/tuple_algorithms.hpp"

namespace cute_dsl::detail {

template <class S> inline constexpr int leaf_count_v = 1;
template <class... Ts> inline constexpr int leaf_count_v<tuple<Ts...>> = (0 + ... + leaf_count_v<Ts>);

// The number of leaves in the modes before mode i of tuple<Ts...>.
template <class... Ts>
CUTE_DSL_HOST_DEVICE constexpr int leaves_before(unsigned long i) {
  int counts[] = {0, leaf_count_v<Ts>...};
  int s = 0;
  for (unsigned long k = 0; k < i; ++k) s += counts[k + 1];
  return s;
}

// The flat leaves [First, First + leaf_count_v<Profile>) of `flat`, nested like Profile.
template <int First, class Profile, class Flat> CUTE_DSL_HOST_DEVICE constexpr auto unflatten_like(Flat const& flat);
template <int First, class Flat, unsigned long... Is, class... Ts>
CUTE_DSL_HOST_DEVICE constexpr auto unflatten_modes(Flat const& flat, index_sequence<Is...>, tuple<Ts...> const*) {
  return make_tuple(unflatten_like<First + leaves_before<Ts...>(Is), Ts>(flat)...);
}
template <int First, class Profile, class Flat>
CUTE_DSL_HOST_DEVICE constexpr auto unflatten_like(Flat const& flat) {
  if constexpr (is_tuple_v<Profile>)
    return unflatten_modes<First>(flat, tuple_seq<Profile>{}, static_cast<Profile const*>(nullptr));
  else
    return get<First>(flat);
}

}  // namespace cute_dsl::detail
