// composition(A, B) and composition(A, [T0,T1,...]).
#include <gtest/gtest.h>

#include "algebra_test_support.hpp"

namespace {

using namespace algebra_test;
using namespace cute_dsl::tree;

constexpr bool composition_examples() {
  return gives(composition(L("(4,2):(1,10)"), L("16:1")), "(4,4):(1,10)") &&
         gives(composition(L("4:2"), L("8:1")), "8:2") &&
         // a trailing size-1 mode of A still continues A past its size, with its own stride
         gives(composition(L("(4,1):(1,0)"), L("8:1")), "(4,2):(1,0)") &&
         // B distributes: the result has B's modes, each a sub-layout of A
         gives(composition(L("(4,6):(1,8)"), L("(2,12):(2,4)")), "(2,12):(2,8)") &&
         gives(composition(L("(4,6):(1,8)"), L("8:2")), "(2,4):(2,8)") &&  // one leaf, two sub-modes
         // a stride-0 mode of B is returned unchanged
         gives(composition(L("(4,8):(1,5)"), L("(3,2):(0,1)")), "(3,2):(0,1)") &&
         // size-1 modes that come from B survive
         gives(composition(L("(2,2):(1,2)"), L("(2,1):(1,0)")), "(2,1):(1,0)") &&
         // a leaf of B that stays inside one mode of A need not divide it
         gives(composition(L("((3,2)):((1,6))"), L("2:2")), "2:2");
}
static_assert(composition_examples());

constexpr bool composition_tiler_examples() {
  return gives(composition(L("(12,2):(4,144)"), T("[3:1]")), "(3):(4)") &&  // modes beyond the tiler drop
         gives(composition(L("(6,6):(18,3)"), T("[2:1,2:1]")), "(2,2):(18,3)") &&
         gives(composition(L("(2,2):(1,2)"), T("[(1):(4),(2,1):(2,16)]")), "((1),(2,1)):((4),(4,32))") &&
         gives(composition(L("(16,5):(10,2)"), T("[1,5]")), "(1,5):(10,2)");
}
static_assert(composition_tiler_examples());

constexpr bool composition_refusals() {
  // CuTe accepts these, but its answer breaks R(i) == A(B(i))
  return refuses(composition(L("((3,2)):((1,6))"), L("(2,2):(1,2)")), Error::stride_divisibility) &&
         refuses(composition(L("(3,4):(1,10)"), L("4:2")), Error::stride_divisibility) &&
         // and CuTe's own checks
         refuses(composition(L("(4,8):(1,5)"), L("6:1")), Error::shape_divisibility) &&
         refuses(composition(L("(4,8):(1,5)"), L("2:6")), Error::stride_divisibility);
}
static_assert(composition_refusals());

TEST(Composition, Examples) {
  EXPECT_TRUE(composition_examples());
  EXPECT_TRUE(composition_tiler_examples());
  EXPECT_TRUE(composition_refusals());
}

// Every accepted composition meets the postcondition; every refusal is either one of CuTe's own
// checks or an input on which CuTe's answer breaks the postcondition.
TEST(Composition, AcceptsExactlyWhatMeetsThePostcondition) {
  Generator g(10);
  int accepted = 0, refused_by_postcondition = 0;
  for (int n = 0; n < 6000; ++n) {
    const Tree a = g.layout(), b = g.layout(n % 2 ? 64 : 1024);
    const Result<Tree> r = composition(a, b);
    const Result<Tree> cute = cute_dsl::tree::detail::composition(a, b, false);
    if (r.ok()) {
      ++accepted;
      ASSERT_TRUE(composes(a, b, r.value)) << to_string(a) << " o " << to_string(b);
      // B's modes keep their sizes (an integral B may become a tuple of sub-modes)
      if (!b.is_leaf(0)) {
        ASSERT_EQ(rank(r.value), rank(b));
        for (int k = 0; k < rank(b); ++k) ASSERT_EQ(size(mode(r.value, k)), size(mode(b, k)));
      }
    } else if (cute.ok()) {  // refused although CuTe answers: its answer must be wrong
      ++refused_by_postcondition;
      ASSERT_EQ(r.error, Error::stride_divisibility);
      ASSERT_FALSE(composes(a, b, cute.value)) << "refused a valid " << to_string(a) << " o " << to_string(b);
    } else {
      ASSERT_EQ(r.error, cute.error);
    }
  }
  EXPECT_GT(accepted, 3000);
  EXPECT_GT(refused_by_postcondition, 50);
}

TEST(Composition, TilerComposesModeByMode) {
  Generator g(11);
  for (int n = 0; n < 2000; ++n) {
    const Tree a = g.layout();
    Tiler t{};
    const int tr = 1 + n % rank(a);
    t.modes.push_tuple(tr);
    for (int k = 0; k < tr; ++k) t.modes.push_subtree(g.layout(64), 0);
    const Result<Tree> r = composition(a, t);
    bool all_ok = true;
    for (int k = 0; k < tr; ++k) {
      const Result<Tree> rk = composition(mode(a, k), mode(t.modes, k));
      all_ok = all_ok && rk.ok();
      if (r.ok()) {
        ASSERT_TRUE(rk.ok() && rk.value == mode(r.value, k));
      }
    }
    ASSERT_EQ(r.ok(), all_ok);
    if (r.ok()) {
      ASSERT_EQ(rank(r.value), tr);
    }
  }
}

}  // namespace
