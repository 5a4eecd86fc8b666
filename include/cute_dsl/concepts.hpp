// The named concepts used in public signatures.
//
// An int-tuple is an integer (static or run-time) or a tuple of int-tuples; shapes, strides and
// coordinates are int-tuples read in different roles. A coordinate may also hold the
// underscore `_` ("all of this mode") where slicing is allowed.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/container/tuple.hpp"
#include "cute_dsl/layout/underscore.hpp"

namespace cute_dsl {

// ---- traits behind the concepts (recursive, so written as specializations) ---------------------

template <class T> inline constexpr bool is_int_tuple_impl_v = is_integral_v<T>;
template <class... Ts> inline constexpr bool is_int_tuple_impl_v<tuple<Ts...>> = (is_int_tuple_impl_v<Ts> && ...);
template <class T> inline constexpr bool is_int_tuple_v = is_int_tuple_impl_v<remove_cvref_t<T>>;

// An int-tuple that may also hold underscores.
template <class T> inline constexpr bool is_coord_like_impl_v = is_integral_v<T> || is_underscore_v<T>;
template <class... Ts> inline constexpr bool is_coord_like_impl_v<tuple<Ts...>> = (is_coord_like_impl_v<Ts> && ...);
template <class T> inline constexpr bool is_coord_like_v = is_coord_like_impl_v<remove_cvref_t<T>>;

// Specialized by every layout type (Layout, ComposedLayout) next to its definition.
template <class T> struct is_layout : false_type {};
template <class T> inline constexpr bool is_layout_v = is_layout<remove_cvref_t<T>>::value;

// ---- concepts ----------------------------------------------------------------------------------

template <class T> concept Integral = is_integral_v<T>;
template <class T> concept StdIntegral = is_std_integral_v<T>;
template <class T> concept StaticIntegral = is_integral_v<T> && is_C_v<remove_cvref_t<T>>;
template <class T> concept DynamicIntegral = is_std_integral_v<T>;

template <class T> concept IntTuple = is_int_tuple_v<T>;
template <class T> concept StaticIntTuple = is_int_tuple_v<T> && is_static_v<T>;
// Not named Shape/Stride/Coord: those are CuTe's tuple aliases (`Shape<_2,_4>`), kept so CuTe
// code reads the same here (layout/int_tuple.hpp).
template <class T> concept ShapeLike = IntTuple<T>;
template <class T> concept StrideLike = IntTuple<T>;
template <class T> concept CoordLike = IntTuple<T>;
template <class T> concept SliceCoord = is_coord_like_v<T>;  // a coordinate that may contain `_`

template <class T> concept LayoutLike = is_layout_v<T>;

}  // namespace cute_dsl
