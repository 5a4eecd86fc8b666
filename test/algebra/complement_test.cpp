// complement(L), complement(L, cotarget), complement(L, cotarget shape).
#include <gtest/gtest.h>

#include <set>

#include "algebra_test_support.hpp"

namespace {

using namespace algebra_test;
using namespace cute_dsl::tree;

constexpr bool complement_examples() {
  return gives(complement(L("4:2"), 24), "(2,3):(1,8)") &&
         gives(complement(L("(16,1,6):(4,256,1024)")), "(4,16):(1,64)") &&
         gives(complement(L("(2,2):(1,4)"), 16), "(2,2):(2,8)") &&
         gives(complement(L("(4,3):(0,0)"), 12), "12:1") &&  // nothing to avoid
         gives(complement(L("8:1"), 8), "1:0") &&             // nothing left
         gives(complement(L("8:1"), 20), "3:8") &&            // the last mode rounds the cotarget up
         // a tuple cotarget is divided element by element, as logical_divide needs
         gives(complement(L("4:1"), L("(6,4):(0,0)")), "8:4") && gives(complement(L("4:1"), 24), "6:4");
}
static_assert(complement_examples());

constexpr bool complement_refusals() {
  return refuses(complement(L("(2,2):(1,1)")), Error::complement_injective) &&
         refuses(complement(L("(3,3):(1,4)")), Error::complement_divisibility) &&
         refuses(complement(L("((2,2)):((12,5))"), 36), Error::complement_divisibility);
}
static_assert(complement_refusals());

TEST(Complement, Examples) {
  EXPECT_TRUE(complement_examples());
  EXPECT_TRUE(complement_refusals());
}

// The sorted strides of filter(L) nest exactly when d_{k+1} is a positive multiple of s_k*d_k.
bool nests_exactly(const Tree& l) {
  const Modes f = cute_dsl::tree::detail::filter_modes(l);
  if (f.count == 1 && f.stride[0] == 0) return true;
  std::vector<std::pair<index_t, index_t>> modes;  // (stride, shape)
  for (int k = 0; k < f.count; ++k) modes.emplace_back(f.stride[k], f.shape[k]);
  std::sort(modes.begin(), modes.end());
  index_t extent = 1;
  for (auto [d, s] : modes) {
    if (d < extent || d % extent != 0) return false;
    extent = s * d;
  }
  return true;
}

TEST(Complement, IsDisjointOrderedAndCoversTheCotarget) {
  Generator g(20);
  int accepted = 0;
  for (int n = 0; n < 4000; ++n) {
    const Tree l = g.layout();
    const index_t cotarget = n % 3 == 0 ? cosize(l) : n % 3 == 1 ? cosize(l) * g.between(1, 4) : g.between(1, 600);
    const Result<Tree> c = complement(l, cotarget);
    ASSERT_EQ(c.ok(), nests_exactly(l)) << to_string(l);
    if (!c.ok()) continue;
    ++accepted;
    const Tree f = filter(l).value;
    // (filter(L), C) is injective: no offset of C + offset of L repeats
    std::set<index_t> seen;
    for (index_t j = 0; j < size(c.value); ++j)
      for (index_t i = 0; i < size(f); ++i)
        ASSERT_TRUE(seen.insert(evaluate(f, i) + evaluate(c.value, j)).second) << to_string(l) << " " << cotarget;
    // C is ordered and reaches the cotarget
    for (index_t j = 1; j < size(c.value); ++j) ASSERT_LT(evaluate(c.value, j - 1), evaluate(c.value, j));
    ASSERT_GE(size(c.value) * size(f), cotarget) << to_string(l) << " " << cotarget;
  }
  EXPECT_GT(accepted, 2000);
}

TEST(Complement, DefaultCotargetIsTheCosize) {
  Generator g(21);
  for (int n = 0; n < 1000; ++n) {
    const Tree l = g.layout();
    const Result<Tree> a = complement(l), b = complement(l, cosize(l));
    ASSERT_EQ(a.ok(), b.ok());
    if (a.ok()) {
      ASSERT_TRUE(a.value == b.value);
    }
  }
}

}  // namespace
