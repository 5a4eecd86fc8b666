// The underscore `_`: "every coordinate of this mode", used to slice layouts (`L(_, 2)`) and,
// later, tensors. An empty type, so a coordinate made only of underscores and static integers
// stays static.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"

namespace cute_dsl {

struct Underscore {};

// Under CUDA the constant must live in device memory too: kernels pass `_` by reference
// (make_coord(_, 2)), which would otherwise name a host variable in device code. nvcc accepts
// a __device__ constexpr variable from host code as well, but only with internal linkage.
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
static constexpr __device__ Underscore _{};
#else
inline constexpr Underscore _{};
#endif

template <class T> inline constexpr bool is_underscore_v = is_same_v<remove_cvref_t<T>, Underscore>;

}  // namespace cute_dsl
