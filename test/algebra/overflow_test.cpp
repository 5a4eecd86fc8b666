// Integer overflow: no operation computes a wrapped value. Inputs whose size or cosize does not
// fit, intermediate products that do not fit, and results beyond 64 bits are all Error::overflow;
// a result that does fit is computed exactly, however close to the limit.
//
// The static_asserts are the strongest form of the check: signed overflow inside a constant
// expression is a compile error, so each one proves the whole computation stays in range.
// Most cases were found by the libFuzzer target (test/fuzz, docs/fuzzing.md).
#include <gtest/gtest.h>

#include "algebra_test_support.hpp"

namespace {

using namespace algebra_test;
using namespace cute_dsl::tree;
using cute_dsl::tree::detail::add_fits;
using cute_dsl::tree::detail::ceil_div;
using cute_dsl::tree::detail::kIndexMax;
using cute_dsl::tree::detail::kIndexMin;
using cute_dsl::tree::detail::mul_fits;

constexpr bool product_fits(index_t a, index_t b) {
  index_t out = 0;
  return mul_fits(a, b, out) && out == a * b;
}
constexpr bool product_refused(index_t a, index_t b) {
  index_t out = 7;
  return !mul_fits(a, b, out) && out == 7;  // out is left alone
}
constexpr bool sum_refused(index_t a, index_t b) {
  index_t out = 7;
  return !add_fits(a, b, out) && out == 7;
}

// Every sign combination at both ends of the range.
static_assert(product_fits(0, kIndexMin) && product_fits(kIndexMin, 0) && product_fits(-1, kIndexMax));
static_assert(product_fits(kIndexMin, 1) && product_fits(3074457345618258602, 3) && product_fits(-4, index_t(1) << 61));
static_assert(product_refused(kIndexMin, -1) && product_refused(-1, kIndexMin) && product_refused(2, index_t(1) << 62));
static_assert(product_refused(3074457345618258603, 3) && product_refused(-3, 3074457345618258603));
static_assert(product_refused(3074457345618258603, -3) && product_refused(-3074457345618258603, -3));
static_assert(product_fits(-3074457345618258602, -3) && product_fits(4294967296, -2147483648));
static_assert(product_refused(4294967296, 4294967296) && product_refused(-4294967296, -2147483648));
static_assert(sum_refused(kIndexMax, 1) && sum_refused(kIndexMin, -1) && sum_refused(index_t(1) << 62, index_t(1) << 62));
static_assert([] {
  index_t out = 0;
  return add_fits(kIndexMax, kIndexMin, out) && out == -1 && add_fits(kIndexMax - 5, 5, out) && out == kIndexMax;
}());
// ceil_div near the top of the range: (a + b - 1) / b would overflow here.
static_assert(ceil_div(kIndexMax, 8) == 1152921504606846976 && ceil_div(kIndexMax, kIndexMax) == 1);
static_assert(ceil_div(kIndexMax - 1, kIndexMax) == 1 && ceil_div(0, 5) == 0 && ceil_div(10, 5) == 2);

constexpr bool overflows(const Result<Tree>& r) { return r.error == Error::overflow; }

// ---- inputs -------------------------------------------------------------------------------------

// The input bound is the reader's (layout/tree_parse.hpp): size and cosize fit in 64 bits,
// exactly. Inputs past it are built by hand, since the reader refuses them as text.
constexpr Tree pair(index_t s0, index_t d0, index_t s1, index_t d1) {
  Tree t{};
  t.push_tuple(2);
  t.push_leaf(s0, d0);
  t.push_leaf(s1, d1);
  return t;
}
constexpr bool unreadable(const char* text) {
  return parse_whole_layout(make_text(text)).status == ParseStatus::too_large;
}
static_assert(coalesce(L("(2,2):(3074457345618258602,3074457345618258602)")).ok());  // cosize = 2^63 - 2
static_assert(gives(coalesce(L("3:3074457345618258603")), "3:3074457345618258603"));
static_assert(overflows(coalesce(make_tree_leaf(4, 3074457345618258603))) && unreadable("4:3074457345618258603"));
static_assert(overflows(filter(pair(4294967296, 0, 4294967296, 0))) && unreadable("(4294967296,4294967296):(0,0)"));
static_assert(overflows(coalesce(make_tree_leaf(2, -9223372036854775807))) && unreadable("2:-9223372036854775807"));
static_assert(overflows(coalesce(make_tree_leaf(1, kIndexMin))));  // |stride| itself does not fit
static_assert(coalesce(L("1:-9223372036854775807")).ok());
static_assert(coalesce(L("3:-4611686018427387903")).ok() && overflows(coalesce(make_tree_leaf(4, -4611686018427387903))));

// ---- intermediate products ----------------------------------------------------------------------

TEST(Overflow, CompositionSubModeStride) {
  // r * a.stride of a sub-mode: 42429672 * 44444404444444444
  constexpr Result<Tree> r = composition(L("(3,2):(44444404444444444,8)"), T("[1:42429672]"));
  static_assert(overflows(r));
  EXPECT_EQ(r.detail0, 42429672);
  EXPECT_EQ(r.detail1, 44444404444444444);
  // the same through a divide: 111111111111 * 111111112 in the composition flat_divide performs
  constexpr Result<Tree> d = flat_divide(L("((1,7)):((11,111111112))"), L("4:111111111111"));
  static_assert(overflows(d));
  EXPECT_EQ(d.detail0, 111111111111);
  EXPECT_EQ(d.detail1, 111111112);
}

TEST(Overflow, CompositionLastModeStride) {
  // rest stride * the stride of A's last mode
  static_assert(overflows(composition(L("(2,2):(1,4611686018427387904)"), L("2:4"))));
  static_assert(gives(composition(L("(2,2):(1,2305843009213693952)"), L("1:4")), "1:4611686018427387904"));
  static_assert(overflows(composition(L("(2,2):(1,2305843009213693952)"), L("1:8"))));
}

TEST(Overflow, CoalesceMergeProductIsChecked) {
  // s*d of the left mode (2 * 2^62) does not fit: no merge, and a valid answer
  static_assert(gives(coalesce(L("(2,2):(4611686018427387904,0)")), "(2,2):(4611686018427387904,0)"));
  static_assert(gives(filter(L("(2,3,2):(4611686018427387904,0,0)")), "2:4611686018427387904"));
}

TEST(Overflow, MaxCommonLayout) {
  constexpr Result<Tree> r = max_common_layout(L("(1,2):(1,42949672964)"), L("(203681624,2):(2,1)"));
  static_assert(overflows(r));
}

TEST(Overflow, ComplementFinalExtent) {
  // the extent s*d of the last mode, 2 * 2^62, is the stride the rest would need
  static_assert(overflows(complement(L("2:4611686018427387904"))));
  // exact answers next to the limit: ceil_div no longer wraps to a negative shape
  // (compared as text: gives() would enumerate 2^60 indices)
  constexpr Result<Tree> a = complement(L("(4,2):(1,4)"), kIndexMax);
  static_assert(a.ok());
  EXPECT_EQ(to_string(a.value), "1152921504606846976:8");
  constexpr Result<Tree> b = complement(L("3:2122437203685475807"));
  static_assert(b.ok());
  EXPECT_EQ(to_string(b.value), "2122437203685475807:1");
}

// ---- results ------------------------------------------------------------------------------------

TEST(Overflow, ResultsBeyond64Bits) {
  // size 36 * 1424294967294967296
  static_assert(overflows(blocked_product(L("(3,3):(1,3)"), L("(4,1424294967294967296):(2,0)"))));
  static_assert(overflows(raked_product(L("(3,3):(1,3)"), L("(4,1424294967294967296):(2,0)"))));
  // cosize about 2^64
  static_assert(overflows(composition(L("(1,2):(1,4294967296)"), L("(2,4294967296):(2,1)"))));
  static_assert(overflows(logical_product(L("4294967296:1"), L("4294967296:1"))));
  // a result whose cosize is exactly 2^63 - 1 is fine
  static_assert(gives(composition(L("3:3074457345618258602"), L("(2,2):(1,2)")),
                      "(2,2):(3074457345618258602,6148914691236517204)"));
}

// Every result of every operation meets the input rules, on layouts whose strides are spread
// over the whole 64-bit range: either an error, or a layout check_layout accepts.
TEST(Overflow, EveryResultIsAValidInput) {
  const index_t strides[] = {1, 3, index_t(1) << 31, 1000000007, index_t(1) << 61, 3074457345618258602};
  int results = 0, overflow_errors = 0;
  for (index_t s0 : strides)
    for (index_t s1 : strides)
      for (index_t n : {2, 3, 4096}) {
        Tree a{};
        a.push_tuple(2);
        a.push_leaf(n, s0);
        a.push_leaf(2, s1);
        Result<Tree> in{};
        if (!check_layout(a, in)) {
          EXPECT_EQ(in.error, Error::overflow);
          continue;
        }
        const Tree b = make_tree_leaf(2, s1);
        const Result<Tree> rs[] = {coalesce(a), filter(a), complement(a), right_inverse(a), left_inverse(a),
                                   composition(a, b), composition(b, a), logical_divide(a, b), logical_product(a, b),
                                   logical_product(b, a), blocked_product(a, b), raked_product(b, a),
                                   max_common_layout(a, b)};
        for (const Result<Tree>& r : rs) {
          Result<Tree> again{};
          if (r.ok()) {
            EXPECT_TRUE(check_layout(r.value, again)) << to_string(a) << " " << to_string(r.value);
            ++results;
          } else if (r.error == Error::overflow) {
            ++overflow_errors;
          }
        }
      }
  EXPECT_GT(results, 100);
  EXPECT_GT(overflow_errors, 10);  // the grid does reach the limit
}

TEST(Overflow, LeftInverseTooLargeToCheckIsDistinct) {
  // overlapping modes and 2^24 indices: the injectivity check cannot run
  const Result<Tree> r = left_inverse(L("(4096,4096):(1,1)"));
  EXPECT_EQ(r.error, Error::left_inverse_injective);
  EXPECT_EQ(r.detail0, index_t(1) << 24);
  EXPECT_LT(r.detail1, 0);
  // a collision that was found reports two offsets
  const Result<Tree> c = left_inverse(L("((2,3)):((2,1))"));
  EXPECT_EQ(c.error, Error::left_inverse_injective);
  EXPECT_GE(c.detail1, 0);
}

}  // namespace
