// composition(A, B): the layout R with R(i) == A(B(i)) for every i < size(B), shaped like B.
//
// Algorithm (CuTe's static one): A is coalesced, keeping its last mode so that A's continuation
// past its size is preserved. B distributes: each leaf s:d of B becomes a sub-layout found by
// walking A's modes (e, a) except the last with a "rest stride" r = d and a "rest shape" n = s:
// a mode that r steps over entirely divides r; a mode that r lands inside yields a sub-mode
// min(ceil(e/r), n) : r*a. The last mode of A takes what is left of n.
//
// CuTe checks this walk only loosely (r % e == 0 or r < e), which lets through inputs whose
// answer breaks R(i) == A(B(i)). We keep CuTe's checks and then require the postcondition
// itself: cheaply when every leaf walks A exactly and the leaves' digits in each mode of A cannot
// carry into the next mode; otherwise by evaluating both sides over the whole domain of B.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/layout/tree.hpp"
#include "cute_dsl/layout/tree_basics.hpp"
#include "cute_dsl/layout/tree_coalesce.hpp"

namespace cute_dsl::tree {

namespace detail {

// Above this many indices, a composition that needs the enumerating check is refused rather
// than left unchecked (in a constant expression it would exceed the compiler's step limit).
inline constexpr index_t kMaxEnumeratedDomain = index_t(1) << 22;

// The walk of one leaf n:d of B through the coalesced A. With `out` null it only counts the
// sub-modes and checks CuTe's rules; with `out` it appends them.
struct LeafWalk {
  int emitted = 0;
  index_t rest_shape = 1;
  index_t rest_stride = 1;
  Error error = Error::none;
  index_t detail0 = 0, detail1 = 0;
};

CUTE_DSL_HOST_DEVICE constexpr LeafWalk walk_leaf(const Modes& a, index_t n, index_t d, Tree* out) {
  LeafWalk w{};
  index_t r = d;
  for (int i = 0; i + 1 < a.count; ++i) {
    const index_t e = a.shape[i];
    if (!(r % e == 0 || r < e)) {
      w.error = Error::stride_divisibility;
      w.detail0 = r;
      w.detail1 = e;
      return w;
    }
    const index_t k = ceil_div(e, r);
    if (k != 1 && n != 1) {
      const index_t m = min_index(k, n);
      if (n % m != 0) {
        w.error = Error::shape_divisibility;
        w.detail0 = n;
        w.detail1 = m;
        return w;
      }
      index_t stride = 0;
      if (!mul_fits(r, a.stride[i], stride)) {
        w.error = Error::overflow;
        w.detail0 = r;
        w.detail1 = a.stride[i];
        return w;
      }
      if (out) out->push_leaf(m, stride);
      ++w.emitted;
      n /= m;
    }
    r = ceil_div(r, e);
  }
  w.rest_shape = n;
  w.rest_stride = r;
  return w;
}

// Appends A∘(n:d) to out, shaped as CuTe shapes it: a stride-0 leaf is returned unchanged, a
// single sub-mode is unwrapped, and the rest of n goes to A's last mode.
CUTE_DSL_HOST_DEVICE constexpr LeafWalk compose_leaf(const Modes& a, index_t n, index_t d, Tree& out) {
  LeafWalk w{};
  if (d == 0) {
    out.push_leaf(n, 0);
    return w;
  }
  w = walk_leaf(a, n, d, nullptr);
  if (w.error != Error::none) return w;
  index_t last = 0;
  if (!mul_fits(w.rest_stride, a.stride[a.count - 1], last)) {
    w.error = Error::overflow;
    w.detail0 = w.rest_stride;
    w.detail1 = a.stride[a.count - 1];
    return w;
  }
  if (w.emitted == 0) {
    out.push_leaf(w.rest_shape, last);
  } else if (w.rest_shape == 1) {
    if (w.emitted > 1) out.push_tuple(w.emitted);
    walk_leaf(a, n, d, &out);
  } else {
    out.push_tuple(w.emitted + 1);
    walk_leaf(a, n, d, &out);
    out.push_leaf(w.rest_shape, last);
  }
  return w;
}

// The cheap sufficient test of the postcondition. Each leaf of B must walk A exactly (in each
// mode it reaches, e divides r, or r divides e, or all its remaining steps stay inside the mode),
// so that its own sub-layout is exact; then the digits the
// leaves produce in each mode of A (r*(m-1) at most per sub-mode) must sum to less than the
// mode's extent, so that adding the leaves' offsets never carries and A is additive over them.
// On failure, (bad_stride, bad_extent) name the leaf stride and the extent of A at fault.
CUTE_DSL_HOST_DEVICE constexpr bool composition_is_exact(const Modes& a, const Modes& b, index_t& bad_stride,
                                                         index_t& bad_extent) {
  index_t digit_sum[kCapacity] = {};
  for (int j = 0; j < b.count; ++j) {
    index_t n = b.shape[j], r = b.stride[j];
    if (n == 1 || r == 0) continue;
    for (int i = 0; i + 1 < a.count && n > 1; ++i) {
      const index_t e = a.shape[i];
      if (r % e == 0) {
        r /= e;
        continue;
      }
      // r lands inside the mode: exact if it divides the extent, or if all n steps stay inside.
      const bool divides = r < e && e % r == 0;
      index_t reach = 0;  // r*(n-1), the furthest step; one that does not fit is past e anyway
      if (!divides && !(r < e && mul_fits(r, n - 1, reach) && reach < e)) {
        bad_stride = r;
        bad_extent = e;
        return false;
      }
      const index_t m = divides ? min_index(e / r, n) : n;
      // r*(m-1) < e here (m <= e/r, or r*(n-1) < e), so only the sum can overflow.
      if (!add_fits(digit_sum[i], r * (m - 1), digit_sum[i]) || digit_sum[i] >= e) {
        bad_stride = b.stride[j];
        bad_extent = e;
        return false;
      }
      n /= m;
      r = 1;
    }
  }
  return true;
}

// The postcondition by enumeration: R(i) == A(B(i)) for all i < size(B). B and R are checked
// layouts, so their offsets fit; A(B(i)) may not (A continues past its size), and then it
// cannot equal the representable R(i).
CUTE_DSL_HOST_DEVICE constexpr bool composition_holds_everywhere(const Modes& a, const Modes& b, const Modes& r) {
  const index_t n = size(b);
  Odometer ob{}, orr{};
  for (index_t i = 0; i < n; ++i) {
    if (i > 0) {
      ob.advance(b);
      orr.advance(r);
    }
    index_t expected = 0;
    if (!evaluate_fits(a, ob.offset, expected) || orr.offset != expected) return false;
  }
  return true;
}

// composition on checked inputs, with A already coalesced (keeping its last mode).
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> compose(const Modes& a, const Tree& b, bool check_postcondition) {
  Result<Tree> res{};
  Tree& out = res.value;
  for (int j = 0; j < b.count; ++j) {
    if (!b.is_leaf(j)) {
      out.push_tuple(b.nodes[j].children);
      continue;
    }
    const LeafWalk w = compose_leaf(a, b.nodes[j].shape, b.nodes[j].stride, out);
    if (w.error != Error::none) return make_error<Tree>(w.error, w.detail0, w.detail1);
  }
  res = tree_result(out);  // capacity, and a size or cosize beyond index_t
  if (!res.ok() || !check_postcondition || a.count == 1) return res;  // one mode of A is linear everywhere
  const Modes bm = leaves(b);
  index_t bad_stride = 0, bad_extent = 0;
  if (composition_is_exact(a, bm, bad_stride, bad_extent)) return res;
  if (size(bm) > kMaxEnumeratedDomain || !composition_holds_everywhere(a, bm, leaves(out)))
    return make_error<Tree>(Error::stride_divisibility, bad_stride, bad_extent);
  return res;
}

CUTE_DSL_HOST_DEVICE constexpr Result<Tree> composition(const Tree& lhs, const Tree& rhs, bool check_postcondition) {
  Result<Tree> r{};
  if (!check_layout(lhs, r) || !check_layout(rhs, r, false)) return r;
  return compose(coalesce_modes(leaves(lhs), true), rhs, check_postcondition);
}

}  // namespace detail

CUTE_DSL_HOST_DEVICE constexpr Result<Tree> composition(const Tree& lhs, const Tree& rhs) {
  return detail::composition(lhs, rhs, true);
}

// Tiler form: mode i of lhs composed with tiler element i; modes of lhs beyond the tiler are
// dropped, and the result is always a tuple with one mode per tiler element.
CUTE_DSL_HOST_DEVICE constexpr Result<Tree> composition(const Tree& lhs, const Tiler& tiler) {
  Result<Tree> r{};
  if (!check_layout(lhs, r) || !check_layout(tiler.modes, r, false)) return r;
  const Tree& t = tiler.modes;
  const int tr = t.is_leaf(0) ? 1 : t.nodes[0].children;
  const int lr = rank(lhs);
  if (tr > lr) return make_error<Tree>(Error::rank_mismatch, tr, lr);
  Tree out{};
  out.push_tuple(tr);
  for (int k = 0; k < tr; ++k) {
    const Result<Tree> sub = composition(mode(lhs, k), mode(t, k));
    if (!sub.ok()) return sub;
    out.push_subtree(sub.value, 0);
  }
  return tree_result(out);
}

}  // namespace cute_dsl::tree
