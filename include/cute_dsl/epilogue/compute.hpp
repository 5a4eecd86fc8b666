// Compute nodes: any functor over one or more subtrees, and the operator syntax that builds them.
//
//   map(f, a, b...)                 f applied elementwise; f: `template <class V> V operator()(V...)`
//   a + b, a - b, a * b, a / b, -a  with nodes or numbers on either side (numbers become scalar())
//   relu leaky_relu gelu(erf) gelu_tanh silu sigmoid tanh exp max min fma clamp
//   drelu(grad, pre) dgelu(grad, pre) dgelu_tanh(grad, pre)      backward pieces (functors.hpp)
//   to_bf16 to_fp16 to_fp8_e4m3 to_fp8_e5m2                      rounding with saturation (convert.hpp)
// e.g.  auto e = gelu(alpha * acc() + col_broadcast(bias));
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/container/tuple.hpp"
#include "cute_dsl/epilogue/convert.hpp"
#include "cute_dsl/epilogue/functors.hpp"
#include "cute_dsl/epilogue/leaves.hpp"
#include "cute_dsl/epilogue/node.hpp"

namespace cute_dsl::epilogue {

// Sums of the children's counts before child I (their leaves / outputs in tree order).
template <int... N>
CUTE_DSL_HOST_DEVICE constexpr int prefix_sum(int i) {
  const int n[] = {N..., 0};
  int s = 0;
  for (int k = 0; k < i; ++k) s += n[k];
  return s;
}

// f(children...): its leaves and outputs are its children's, in order.
template <class F, class... A>
struct Map {
  using epilogue_node = void;
  static_assert(sizeof...(A) >= 1, "epilogue::Map: at least one input");
  static constexpr int kLeaves = (0 + ... + A::kLeaves);
  static constexpr int kOutputs = (0 + ... + A::kOutputs);
  F f;
  tuple<A...> args;

  CUTE_DSL_HOST_DEVICE static constexpr int leaf_key(int i) { return find<true>(i, 0); }
  CUTE_DSL_HOST_DEVICE static constexpr int leaf_code(int i) { return find<true>(i, 1); }
  CUTE_DSL_HOST_DEVICE static constexpr int output_key(int i) { return find<false>(i, 0); }

  template <int Pos, class Table, class V>
  CUTE_DSL_HOST_DEVICE void load(ElementContext<V> const& ctx, V* values) const {
    load_each<Pos, Table>(ctx, values, index_sequence_for<A...>{});
  }
  template <int Pos, int Out, class Table, class V, class Sink>
  CUTE_DSL_HOST_DEVICE V compute(ElementContext<V> const& ctx, V const* values, Sink& sink) const {
    return compute_each<Pos, Out, Table>(ctx, values, sink, index_sequence_for<A...>{});
  }
  template <int Out, class Visit>
  CUTE_DSL_HOST_DEVICE constexpr void visit_outputs(Visit& visit) const {
    visit_each<Out>(visit, index_sequence_for<A...>{});
  }

 private:
  // Child i's leaf key / code (Leaves) or output key: which child holds position i, asked there.
  template <bool Leaves>
  CUTE_DSL_HOST_DEVICE static constexpr int find(int i, int what) {
    int result = 0, base = 0;
    ((i >= base && i < base + (Leaves ? A::kLeaves : A::kOutputs)
          ? (result = Leaves ? (what == 0 ? A::leaf_key(i - base) : A::leaf_code(i - base)) : A::output_key(i - base), 0)
          : 0,
      base += Leaves ? A::kLeaves : A::kOutputs),
     ...);
    return result;
  }
  template <int Pos, class Table, class V, unsigned long... I>
  CUTE_DSL_HOST_DEVICE void load_each(ElementContext<V> const& ctx, V* values, index_sequence<I...>) const {
    (get<I>(args).template load<Pos + prefix_sum<A::kLeaves...>(int(I)), Table>(ctx, values), ...);
  }
  template <int Pos, int Out, class Table, class V, class Sink, unsigned long... I>
  CUTE_DSL_HOST_DEVICE V compute_each(ElementContext<V> const& ctx, V const* values, Sink& sink, index_sequence<I...>) const {
    return f(get<I>(args).template compute<Pos + prefix_sum<A::kLeaves...>(int(I)), Out + prefix_sum<A::kOutputs...>(int(I)),
                                           Table>(ctx, values, sink)...);
  }
  template <int Out, class Visit, unsigned long... I>
  CUTE_DSL_HOST_DEVICE constexpr void visit_each(Visit& visit, index_sequence<I...>) const {
    (visit_child<Out + prefix_sum<A::kOutputs...>(int(I))>(get<I>(args), visit), ...);
  }
  // kOutputs, not a requires-expression on the call (see PassThrough::visit_child_outputs).
  template <int Out, class Child, class Visit>
  CUTE_DSL_HOST_DEVICE static constexpr void visit_child(Child const& c, Visit& visit) {
    if constexpr (Child::kOutputs > 0) c.template visit_outputs<Out>(visit);
  }
};

// A number in an expression is a scalar() leaf; a node stays itself.
template <class X>
concept Number = !EpilogueNode<X> && requires(X x) { static_cast<float>(x); } && !requires(X x) { *x; };
template <class X>
concept Operand = EpilogueNode<X> || Number<X>;

template <class X>
CUTE_DSL_HOST_DEVICE constexpr auto as_node(X const& x) {
  if constexpr (EpilogueNode<X>) return x;
  else return scalar(static_cast<float>(x));
}

// Whether f takes one V per input (a pack of A's length) and returns something V converts from.
template <class T, class>
using repeat_t = T;
template <class F, class V, class... A>
concept CallableOnValues = requires(F const& g, repeat_t<V, A>... x) { static_cast<V>(g(x...)); };

// f applied to the inputs' values at each element.
// @pre f is trivially copyable (it travels in the kernel's parameters) and callable as f(V...)
template <class F, Operand... A>
CUTE_DSL_HOST_DEVICE constexpr auto map(F f, A const&... a) {
  static_assert(CallableOnValues<F, float, A...>,
                "epilogue::map: the functor must be callable with one value per input, as `template <class V> V operator()(V...) const`");
  static_assert(CallableOnValues<F, double, A...>,
                "epilogue::map: the functor must also take double (the host reference evaluates the tree in double): use `auto` parameters");
  using M = Map<F, decltype(as_node(a))...>;
  return M{f, {as_node(a)...}};
}

// Operator syntax: at least one side is a node.
template <Operand A, Operand B> requires(EpilogueNode<A> || EpilogueNode<B>)
CUTE_DSL_HOST_DEVICE constexpr auto operator+(A const& a, B const& b) { return map(Add{}, a, b); }
template <Operand A, Operand B> requires(EpilogueNode<A> || EpilogueNode<B>)
CUTE_DSL_HOST_DEVICE constexpr auto operator-(A const& a, B const& b) { return map(Sub{}, a, b); }
template <Operand A, Operand B> requires(EpilogueNode<A> || EpilogueNode<B>)
CUTE_DSL_HOST_DEVICE constexpr auto operator*(A const& a, B const& b) { return map(Mul{}, a, b); }
template <Operand A, Operand B> requires(EpilogueNode<A> || EpilogueNode<B>)
CUTE_DSL_HOST_DEVICE constexpr auto operator/(A const& a, B const& b) { return map(Div{}, a, b); }
template <EpilogueNode A>
CUTE_DSL_HOST_DEVICE constexpr auto operator-(A const& a) { return map(Neg{}, a); }

template <Operand A, Operand B> CUTE_DSL_HOST_DEVICE constexpr auto max(A const& a, B const& b) { return map(Max{}, a, b); }
template <Operand A, Operand B> CUTE_DSL_HOST_DEVICE constexpr auto min(A const& a, B const& b) { return map(Min{}, a, b); }
template <Operand A, Operand B, Operand C>
CUTE_DSL_HOST_DEVICE constexpr auto fma(A const& a, B const& b, C const& c) { return map(Fma{}, a, b, c); }
// @pre lo <= hi
template <Operand A, Operand B, Operand C>
CUTE_DSL_HOST_DEVICE constexpr auto clamp(A const& x, B const& lo, C const& hi) { return map(Clamp{}, x, lo, hi); }

template <EpilogueNode A> CUTE_DSL_HOST_DEVICE constexpr auto relu(A const& a) { return map(Relu{}, a); }
template <EpilogueNode A> CUTE_DSL_HOST_DEVICE constexpr auto leaky_relu(A const& a, float slope) { return map(LeakyRelu{slope}, a); }
template <EpilogueNode A> CUTE_DSL_HOST_DEVICE constexpr auto gelu(A const& a) { return map(GeluErf{}, a); }
template <EpilogueNode A> CUTE_DSL_HOST_DEVICE constexpr auto gelu_tanh(A const& a) { return map(GeluTanh{}, a); }
template <EpilogueNode A> CUTE_DSL_HOST_DEVICE constexpr auto silu(A const& a) { return map(Silu{}, a); }
template <EpilogueNode A> CUTE_DSL_HOST_DEVICE constexpr auto sigmoid(A const& a) { return map(Sigmoid{}, a); }
template <EpilogueNode A> CUTE_DSL_HOST_DEVICE constexpr auto tanh(A const& a) { return map(Tanh{}, a); }
template <EpilogueNode A> CUTE_DSL_HOST_DEVICE constexpr auto exp(A const& a) { return map(Exp{}, a); }

template <Operand G, Operand P> CUTE_DSL_HOST_DEVICE constexpr auto drelu(G const& grad, P const& pre) { return map(DRelu{}, grad, pre); }
template <Operand G, Operand P> CUTE_DSL_HOST_DEVICE constexpr auto dgelu(G const& grad, P const& pre) { return map(DGeluErf{}, grad, pre); }
template <Operand G, Operand P>
CUTE_DSL_HOST_DEVICE constexpr auto dgelu_tanh(G const& grad, P const& pre) { return map(DGeluTanh{}, grad, pre); }

template <EpilogueNode A> CUTE_DSL_HOST_DEVICE constexpr auto to_bf16(A const& a) { return map(ToBf16{}, a); }
template <EpilogueNode A> CUTE_DSL_HOST_DEVICE constexpr auto to_fp16(A const& a) { return map(ToFp16{}, a); }
template <EpilogueNode A> CUTE_DSL_HOST_DEVICE constexpr auto to_fp8_e4m3(A const& a) { return map(ToFp8E4M3{}, a); }
template <EpilogueNode A> CUTE_DSL_HOST_DEVICE constexpr auto to_fp8_e5m2(A const& a) { return map(ToFp8E5M2{}, a); }

}  // namespace cute_dsl::epilogue
