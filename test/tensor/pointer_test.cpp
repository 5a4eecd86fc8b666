// Tagged pointers: the memory space is in the type, arithmetic and access are those of T*.
#include <cute_dsl/tensor/pointer.hpp>

#include <gtest/gtest.h>

using namespace cute_dsl;

namespace {

static_assert(is_gmem_v<gmem_ptr<float>> && !is_smem_v<gmem_ptr<float>> && !is_rmem_v<gmem_ptr<float>>);
static_assert(is_smem_v<smem_ptr<int const>> && !is_gmem_v<smem_ptr<int const>>);
static_assert(is_rmem_v<rmem_ptr<double>>);
static_assert(!is_gmem_v<float*> && !is_smem_v<float*> && !is_rmem_v<float*>, "a raw pointer's space is unknown");
static_assert(sizeof(gmem_ptr<float>) == sizeof(float*), "a tag costs nothing");
static_assert(is_same_v<decltype(make_smem_ptr((float*)nullptr) + Int<3>{}), smem_ptr<float>>);
static_assert(is_same_v<memory_space_t<smem_ptr<float>>, smem_tag> && is_same_v<memory_space_t<float*>, void>);
static_assert(is_same_v<decltype(recast_ptr<int>(gmem_ptr<float const>{})), gmem_ptr<int const>>, "recast keeps tag and const");
static_assert(is_same_v<decltype(recast_ptr<int>((float*)nullptr)), int*>);

constexpr bool arithmetic() {
  int a[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  auto p = make_gmem_ptr(a);
  auto q = p + 5;
  bool ok = *q == 5 && q[Int<2>{}] == 7 && (q - 2)[0] == 3 && (q - p) == 5 && (2 + p).get() == a + 2;
  *(p + Int<1>{}) = 42;
  gmem_ptr<int const> c = p;  // to const
  return ok && a[1] == 42 && c[1] == 42 && c == p && q != p;
}
static_assert(arithmetic());

TEST(Pointer, ArithmeticAndAccess) { EXPECT_TRUE(arithmetic()); }

TEST(Pointer, RecastReadsTheSameBytes) {
  alignas(8) unsigned short h[4] = {1, 2, 3, 4};
  auto p = recast_ptr<unsigned int>(make_rmem_ptr(h));
  static_assert(is_rmem_v<decltype(p)>);
  EXPECT_EQ(p.get(), reinterpret_cast<unsigned int*>(h));
  EXPECT_EQ(raw_pointer(p), reinterpret_cast<unsigned int*>(h));
}

}  // namespace
