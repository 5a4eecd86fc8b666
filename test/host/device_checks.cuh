// Instantiation checks that every compiler must accept: the host compiler (device_checks_test),
// nvcc and NVRTC (both compile a kernel over these functions, see CMakeLists.txt). Including a
// header proves little for templates; NVRTC in particular rejects some constructs (generic
// lambdas in __host__ __device__ functions) only when they are instantiated.
//
// Every function is evaluated in a static_assert (compile time on every compiler) and again,
// with a run-time argument, in the kernel.
#pragma once

#include "cute_dsl/cute_dsl.hpp"

namespace cute_dsl_device_checks {
using namespace cute_dsl;

CUTE_DSL_HOST_DEVICE constexpr bool integers(int n) {
  static_assert(is_same_v<decltype(_2{} * _3{}), _6> && is_same_v<decltype(_0{} * n), _0>);
  static_assert(is_same_v<decltype(shape_div(_4{}, _12{})), _1> && is_same_v<decltype(gcd(_12{}, _18{})), _6>);
  return _2{} + n == 2 + n && ceil_div(n + 7, 4) == (n + 10) / 4 && shape_div(n * 4, 4) == n && lcm(4, 6) == 12 &&
         min(n, _3{}) <= 3 && max(n, _3{}) >= 3 && cute_dsl::abs(-n) == (n < 0 ? -n : n);
}

struct Twice { template <class X> CUTE_DSL_HOST_DEVICE constexpr auto operator()(X const& x) const { return x + x; } };
struct Plus { template <class A, class B> CUTE_DSL_HOST_DEVICE constexpr auto operator()(A const& a, B const& b) const { return a + b; } };

CUTE_DSL_HOST_DEVICE constexpr bool tuples(int n) {
  auto t = make_tuple(_1{}, n, make_tuple(_3{}, n));
  static_assert(is_same_v<decltype(flatten(t)), tuple<_1, int, _3, int>>);
  auto tw = transform_leaf(t, Twice{});
  auto f = fold(flatten(t), _0{}, Plus{});
  auto z = zip(make_tuple(_1{}, n), make_tuple(n, _2{}));
  auto g = group<0, 2>(t);
  return get<1>(tw) == 2 * n && f == 4 + 2 * n && get<1>(get<0>(z)) == n && get<1>(get<0>(g)) == n &&
         get<0>(take<1, 2>(t)) == n && get<0>(reverse(t)) == get<2>(t) &&
         tuple_cat(t, make_tuple(n)) == append(t, n) && unwrap(make_tuple(make_tuple(n))) == n;
}

CUTE_DSL_HOST_DEVICE constexpr bool int_tuples(int n) {
  auto s = make_shape(make_shape(_2{}, n), _4{});
  static_assert(is_same_v<decltype(rank(s)), _2> && is_same_v<decltype(depth(s)), _2>);
  return size(s) == 8 * n && product_each(s) == make_tuple(2 * n, _4{}) && congruent(s, s) &&
         compatible(8 * n, s) && weakly_congruent(make_shape(1, 1), s) && elem_less(make_coord(make_coord(1, n - 1), 3), s) &&
         shape_div(make_shape(4, 5, 6), 40) == make_tuple(1, 1, 3) && ceil_div(make_shape(n, 9), make_shape(2, 4)) == make_tuple((n + 1) / 2, 3) &&
         elem_add(s, s) == make_tuple(make_tuple(_4{}, 2 * n), _8{}) && max(s) >= 4 && gcd(s) >= 1 && inner_product(s, s) == 4 + n * n + 16 &&
         slice(make_coord(_, 1), s) == make_tuple(get<0>(s)) && dice(make_coord(_, 1), s) == make_tuple(_4{});
}

CUTE_DSL_HOST_DEVICE constexpr bool strides_and_layouts(int n) {
  auto l = make_layout(make_shape(make_shape(_2{}, n), _3{}), make_stride(make_stride(_1{}, 3 * n), _2{}));
  auto r = make_layout(make_shape(n, _4{}), LayoutRight{});
  bool ok = true;
  for (int i = 0; i < int(size(l)); ++i) ok = ok && l(i) == l(idx2crd(i, l.shape()));
  for (int i = 0; i < int(size(r)); ++i) ok = ok && crd2idx(idx2crd(i, r.shape()), r.shape()) == i && r(i) == (i % n) * 4 + i / n;
  auto so = slice_and_offset(make_coord(_, 1), l);
  return ok && cosize(l) == 1 + 1 + 3 * n * (n - 1) + 4 && rank(l) == 2 && depth(l) == 2 && get<0>(so).shape<0, 1>() == n &&
         get<1>(so) == 2 && l(_, 1)(1) == 1 && size(take<0, 1>(l)) == 2 * n && size(select<1>(l)) == 3 &&
         size(flatten(l)) == size(l) && rank(flatten(l)) == 3 && rank(group<0, 2>(l)) == 1 && rank(append(l, make_layout(n))) == 3 &&
         rank(prepend<4>(l)) == 4 && layout<0, 1>(l).shape() == n && get<1>(l).stride() == _2{} && (l == l) &&
         compact_row_major(make_shape(n, _2{})) == make_tuple(_2{}, _1{}) && compact_col_major(make_shape(n, _2{})) == make_tuple(_1{}, n);
}

CUTE_DSL_HOST_DEVICE constexpr bool swizzles(int n) {
  auto sl = composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_8{}, _64{}), LayoutRight{}));
  static_assert(is_same_v<decltype(sl(_1{}, _8{})), C<(64 + 8) ^ 8>>);
  bool ok = true;
  for (int j = 0; j < 64; ++j) ok = ok && sl(n % 8, _)(j) == sl(n % 8, j);
  return ok && Swizzle<2, 1, -3>{}(n) == Swizzle<2, 1, -3>::apply_value(n) && size(sl) == 512;
}

CUTE_DSL_HOST_DEVICE constexpr bool trees(int n) {
  tree::Tree t = to_tree(make_layout(make_shape(make_shape(_2{}, n), _3{})));
  return t.count == 5 && t.size() == 6 * n && t.depth() == 2 && to_tree(make_shape(n, _2{})).size() == 2 * n;
}

CUTE_DSL_HOST_DEVICE constexpr bool all(int n) {
  return integers(n) && tuples(n) && int_tuples(n) && strides_and_layouts(n) && swizzles(n) && trees(n);
}

static_assert(all(1) && all(3) && all(7));

}  // namespace cute_dsl_device_checks
