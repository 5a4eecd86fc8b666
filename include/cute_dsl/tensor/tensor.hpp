// Tensor<Engine, Layout>: elements (an engine, tensor/engine.hpp) addressed through a layout.
// t(c) is the element at offset layout(c) from the engine's iterator.
//
//   float* g = ...;
//   auto A = make_tensor(make_gmem_ptr(g), make_shape(M, N), make_stride(_1{}, M));  // a view
//   A(i, j) = 1.f;               // element (i, j): g[i + j*M]
//   auto col = A(_, 3);          // slicing: a view of column 3, layout (M):(_1), pointer g + 3*M
//   auto r = make_tensor<float>(make_shape(_4{}, _8{}));  // owning, 32 floats in registers
//
// Slicing keeps static layouts static: the sliced layout is slice(c, layout) (its type follows
// from the types of c and the layout), and the origin's offset is folded into the iterator, so
// an Int<> coordinate moves the pointer by a compile-time constant.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"
#include "cute_dsl/numeric/integral_constant.hpp"
#include "cute_dsl/container/tuple.hpp"
#include "cute_dsl/layout/underscore.hpp"
#include "cute_dsl/layout/int_tuple.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/tensor/pointer.hpp"
#include "cute_dsl/tensor/engine.hpp"
#include "cute_dsl/tensor/fragment_layout.hpp"

namespace cute_dsl {

// Anything a ViewEngine may hold: a raw or tagged pointer, or a class that declares itself an
// iterator with a member type `tensor_iterator` (the coordinate iterator of identity tensors).
template <class T> inline constexpr bool is_tensor_iterator_impl_v = is_raw_pointer_v<T> || is_tagged_ptr_v<T>;
template <class T>
  requires requires { typename T::tensor_iterator; }
inline constexpr bool is_tensor_iterator_impl_v<T> = true;
template <class T> inline constexpr bool is_tensor_iterator_v = is_tensor_iterator_impl_v<remove_cvref_t<T>>;

namespace detail {
// The engine and the layout; a static (empty) layout takes no storage.
template <class E, class L, bool = is_empty_v<L>>
struct tensor_storage {
  E engine_;
  L layout_;
  constexpr tensor_storage() = default;
  CUTE_DSL_HOST_DEVICE constexpr tensor_storage(E const& e, L const& l) : engine_(e), layout_(l) {}
  CUTE_DSL_HOST_DEVICE constexpr L const& layout() const { return layout_; }
};
template <class E, class L>
struct tensor_storage<E, L, true> {
  E engine_;
  constexpr tensor_storage() = default;
  CUTE_DSL_HOST_DEVICE constexpr tensor_storage(E const& e, L const&) : engine_(e) {}
  CUTE_DSL_HOST_DEVICE constexpr L layout() const { return {}; }
};
}  // namespace detail

template <class It, class L> CUTE_DSL_HOST_DEVICE constexpr auto make_tensor(It it, L const& layout)
  requires(is_tensor_iterator_v<It> && is_layout_v<L>);

template <class Engine, class Layout_>
struct Tensor : detail::tensor_storage<Engine, Layout_> {
  static_assert(is_layout_v<Layout_>, "Tensor: the second parameter must be a layout");
  using base_type = detail::tensor_storage<Engine, Layout_>;
  using engine_type = Engine;
  using layout_type = Layout_;
  using iterator = typename Engine::iterator;
  using const_iterator = typename Engine::const_iterator;
  using value_type = typename Engine::value_type;
  using reference = typename Engine::reference;
  using const_reference = typename Engine::const_reference;
  using shape_type = remove_cvref_t<decltype(declval<Layout_ const&>().shape())>;
  static constexpr int rank = rank_v<shape_type>;

  constexpr Tensor() = default;
  CUTE_DSL_HOST_DEVICE constexpr Tensor(Engine const& e, Layout_ const& l) : base_type(e, l) {}

  CUTE_DSL_HOST_DEVICE constexpr Engine& engine() { return this->engine_; }
  CUTE_DSL_HOST_DEVICE constexpr Engine const& engine() const { return this->engine_; }
  using base_type::layout;

  // An iterator to the element at offset 0.
  CUTE_DSL_HOST_DEVICE constexpr iterator data() { return engine().begin(); }
  CUTE_DSL_HOST_DEVICE constexpr const_iterator data() const { return engine().begin(); }

  template <int... Is> CUTE_DSL_HOST_DEVICE constexpr decltype(auto) shape() const { return layout().template shape<Is...>(); }
  template <int... Is> CUTE_DSL_HOST_DEVICE constexpr decltype(auto) stride() const { return layout().template stride<Is...>(); }
  CUTE_DSL_HOST_DEVICE constexpr auto size() const { return cute_dsl::size(shape()); }

  // t(c): the element at coordinate c (an integer is a 1-D index into the whole tensor).
  // With underscores: a view of the modes c leaves open (see the header comment).
  template <class Crd>
  CUTE_DSL_HOST_DEVICE constexpr decltype(auto) operator()(Crd const& c) {
    if constexpr (has_underscore_v<Crd>) return slice_view(data(), c);
    else return data()[layout()(c)];
  }
  template <class Crd>
  CUTE_DSL_HOST_DEVICE constexpr decltype(auto) operator()(Crd const& c) const {
    if constexpr (has_underscore_v<Crd>) return slice_view(data(), c);
    else return data()[layout()(c)];
  }
  template <class C0, class C1, class... Cs>
  CUTE_DSL_HOST_DEVICE constexpr decltype(auto) operator()(C0 const& c0, C1 const& c1, Cs const&... cs) {
    return (*this)(make_coord(c0, c1, cs...));
  }
  template <class C0, class C1, class... Cs>
  CUTE_DSL_HOST_DEVICE constexpr decltype(auto) operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const {
    return (*this)(make_coord(c0, c1, cs...));
  }

  // t[c]: the same as t(c); reads best with a 1-D index (t[i] for i < size(t)).
  template <class Crd>
  CUTE_DSL_HOST_DEVICE constexpr decltype(auto) operator[](Crd const& c) { return (*this)(c); }
  template <class Crd>
  CUTE_DSL_HOST_DEVICE constexpr decltype(auto) operator[](Crd const& c) const { return (*this)(c); }

 private:
  // A plain Layout's slice origin moves the iterator; any other layout (a ComposedLayout, whose
  // outer function must see the full offset) keeps the iterator and folds the origin into itself.
  template <class It, class Crd>
  CUTE_DSL_HOST_DEVICE constexpr auto slice_view(It const& it, Crd const& c) const {
    // The requirement names a parameter, not `layout()`: nvcc 13.0's device pass evaluates a
    // requires-expression that calls a member function through the implicit `this` as false
    // (every run-time slice t(_, k) then lost its offset on the GPU).
    if constexpr (requires(Layout_ const& l) { slice_and_offset(c, l); }) {
      auto so = slice_and_offset(c, layout());
      return make_tensor(it + get<1>(so), get<0>(so));
    } else {
      return make_tensor(it, layout()(c));
    }
  }
};

template <class T> inline constexpr bool is_tensor_impl_v = false;
template <class E, class L> inline constexpr bool is_tensor_impl_v<Tensor<E, L>> = true;
template <class T> inline constexpr bool is_tensor_v = is_tensor_impl_v<remove_cvref_t<T>>;
template <class T> concept TensorLike = is_tensor_v<T>;

// An owning (register) tensor: ArrayEngine storage.
template <class T> inline constexpr bool is_owning_tensor_v = false;
template <class E, class L> inline constexpr bool is_owning_tensor_v<Tensor<E, L>> = is_array_engine_v<E>;

// ---- construction ---------------------------------------------------------------------------------

// A view: the iterator (raw pointer, tagged pointer, coordinate iterator; taken by value so that
// an array decays to its pointer) and a layout ...
template <class It, class L>
CUTE_DSL_HOST_DEVICE constexpr auto make_tensor(It it, L const& layout)
  requires(is_tensor_iterator_v<It> && is_layout_v<L>)
{
  return Tensor<ViewEngine<It>, L>(ViewEngine<It>(it), layout);
}
// ... or a shape (column-major), or a shape and a stride.
template <class It, class S>
  requires(is_tensor_iterator_v<It> && is_int_tuple_v<S>)
CUTE_DSL_HOST_DEVICE constexpr auto make_tensor(It it, S const& shape) {
  return make_tensor(it, make_layout(shape));
}
template <class It, class S, class D>
  requires(is_tensor_iterator_v<It> && is_int_tuple_v<S> && is_int_tuple_v<D>)
CUTE_DSL_HOST_DEVICE constexpr auto make_tensor(It it, S const& shape, D const& stride) {
  return make_tensor(it, make_layout(shape, stride));
}

// An owning register tensor of T: the layout must be static (the storage size is a template
// argument); it holds cosize(layout) elements, uninitialised.
template <class T, class L>
  requires is_layout_v<L>
CUTE_DSL_HOST_DEVICE constexpr auto make_tensor(L const& layout) {
  static_assert(is_static_v<L>, "make_tensor<T>(layout): an owning tensor needs a static layout (its size is a template argument)");
  constexpr int n = int(decltype(cosize(layout))::value);
  return Tensor<ArrayEngine<T, n>, L>(ArrayEngine<T, n>{}, layout);
}
template <class T, class S>
  requires is_int_tuple_v<S>
CUTE_DSL_HOST_DEVICE constexpr auto make_tensor(S const& shape) {
  static_assert(is_static_v<S>, "make_tensor<T>(shape): an owning tensor needs a static shape (its size is a template argument)");
  return make_tensor<T>(make_layout(shape));
}

// ---- observers (as for layouts) -------------------------------------------------------------------

template <int... Is, class E, class L>
CUTE_DSL_HOST_DEVICE constexpr decltype(auto) shape(Tensor<E, L> const& t) { return shape<Is...>(t.layout()); }
template <int... Is, class E, class L>
CUTE_DSL_HOST_DEVICE constexpr decltype(auto) stride(Tensor<E, L> const& t) { return stride<Is...>(t.layout()); }
template <int... Is, class E, class L>
CUTE_DSL_HOST_DEVICE constexpr auto size(Tensor<E, L> const& t) { return size<Is...>(t.layout()); }
template <int... Is, class E, class L>
CUTE_DSL_HOST_DEVICE constexpr auto rank(Tensor<E, L> const& t) { return rank<Is...>(t.layout()); }
template <int... Is, class E, class L>
CUTE_DSL_HOST_DEVICE constexpr auto depth(Tensor<E, L> const& t) { return depth<Is...>(t.layout()); }
template <int... Is, class E, class L>
CUTE_DSL_HOST_DEVICE constexpr auto cosize(Tensor<E, L> const& t) { return cosize<Is...>(t.layout()); }
template <int... Is, class E, class L>
CUTE_DSL_HOST_DEVICE constexpr auto layout(Tensor<E, L> const& t) { return layout<Is...>(t.layout()); }

// ---- register fragments ---------------------------------------------------------------------------

// An owning register tensor shaped like a tensor or a layout (element type: the tensor's, or T),
// laid out by make_fragment_layout (tensor/fragment_layout.hpp).
template <class T, class L>
  requires is_layout_v<L>
CUTE_DSL_HOST_DEVICE constexpr auto make_fragment_like(L const& layout) {
  return make_tensor<T>(make_fragment_layout(layout));
}
template <class T = void, class E, class L>
CUTE_DSL_HOST_DEVICE constexpr auto make_fragment_like(Tensor<E, L> const& tensor) {
  using V = conditional_t<is_same_v<T, void>, typename E::value_type, T>;
  return make_tensor<V>(make_fragment_layout(tensor.layout()));
}

}  // namespace cute_dsl
