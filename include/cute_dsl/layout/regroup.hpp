// The regroupings shared by the divides and the products, on template layouts: the zipped form
// ((tiles...),(rests...)) of a mode-wise result, and the splicing of the tiled_ and flat_ forms.
// They mirror tree::detail::tile_unzip and tree::detail::splice; structure only, so static
// layouts stay static and run-time leaves are carried along.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/layout.hpp"
#include "cute_dsl/layout/dynamic_support.hpp"

namespace cute_dsl::detail {

// The top-level modes of a layout as a tuple of layouts (an integral layout is one mode).
template <class L, unsigned long... Ks>
CUTE_DSL_HOST_DEVICE constexpr auto modes_of(L const& l, index_sequence<Ks...>) {
  return make_tuple(mode<int(Ks)>(l)...);
}
template <class L>
CUTE_DSL_HOST_DEVICE constexpr auto modes_of(L const& l) {
  return modes_of(l, make_index_sequence<rank_v<typename L::shape_type>>{});
}

template <class T, unsigned long... Ks>
CUTE_DSL_HOST_DEVICE constexpr auto layout_of_mode_tuple(T const& t, index_sequence<Ks...>) {
  return layout_of_modes(get<Ks>(t)...);
}
template <class... Ls>
CUTE_DSL_HOST_DEVICE constexpr auto layout_of_mode_tuple(tuple<Ls...> const& t) {
  return layout_of_mode_tuple(t, index_sequence_for<Ls...>{});
}

// ((m0_0, m1_0, ...), (m0_1, m1_1, ..., modes tr.. of the layout)) where mode k < tr is a pair.
template <int TR, class L, unsigned long... Ks, unsigned long... Es>
CUTE_DSL_HOST_DEVICE constexpr auto tile_unzip(L const& l, index_sequence<Ks...>, index_sequence<Es...>) {
  return layout_of_modes(layout_of_modes(mode<0>(mode<int(Ks)>(l))...),
                         layout_of_modes(mode<1>(mode<int(Ks)>(l))..., mode<TR + int(Es)>(l)...));
}
template <int TR, class L>
CUTE_DSL_HOST_DEVICE constexpr auto tile_unzip(L const& l) {
  constexpr int LR = rank_v<typename L::shape_type>;
  return tile_unzip<TR>(l, make_index_sequence<TR>{}, make_index_sequence<LR - TR>{});
}

// A mode of rank > 1 contributes its modes, others themselves (when splicing is asked for).
template <bool Splice, class M>
CUTE_DSL_HOST_DEVICE constexpr auto splice_part(M const& m) {
  if constexpr (Splice && rank_v<typename M::shape_type> > 1) return modes_of(m);
  else return make_tuple(m);
}
template <bool SpliceFirst, bool SpliceSecond, class P>
CUTE_DSL_HOST_DEVICE constexpr auto splice(P const& pair) {
  return layout_of_mode_tuple(tuple_cat(splice_part<SpliceFirst>(mode<0>(pair)), splice_part<SpliceSecond>(mode<1>(pair))));
}

// zipped (TR > 0: a tiler of TR elements), then spliced as asked.
template <int TR, bool SpliceFirst, bool SpliceSecond, class L>
CUTE_DSL_HOST_DEVICE constexpr auto regroup(L const& logical) {
  if constexpr (TR > 0) {
    auto zipped = tile_unzip<TR>(logical);
    if constexpr (SpliceFirst || SpliceSecond) return splice<SpliceFirst, SpliceSecond>(zipped);
    else return zipped;
  } else {
    if constexpr (SpliceFirst || SpliceSecond) return splice<SpliceFirst, SpliceSecond>(logical);
    else return logical;
  }
}

// The number of elements of a tiler argument: a tuple's size, 0 for a single layout/integer.
template <class T> inline constexpr int tiler_rank_v = 0;
template <class... Ts> inline constexpr int tiler_rank_v<tuple<Ts...>> = int(sizeof...(Ts));

}  // namespace cute_dsl::detail
