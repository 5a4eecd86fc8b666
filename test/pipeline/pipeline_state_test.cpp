// PipelineState (pipeline/pipeline_state.hpp): index wraps, phase flips, advance(n) agrees with
// n increments -- on the host, proven at compile time too.
#include <cute_dsl/arch/sm90/cluster.hpp>
#include <cute_dsl/pipeline/pipeline_state.hpp>
#include <cute_dsl/warp/reduce_ops.hpp>

#include <gtest/gtest.h>

namespace {
using namespace cute_dsl::pipeline;

template <int S>
constexpr bool increments_wrap_and_flip() {
  PipelineState<S> s;
  for (unsigned k = 0; k < 5 * S + 3; ++k) {
    if (s.index() != k % S || s.phase() != (k / S) % 2 || s.count() != k) return false;
    ++s;
  }
  return true;
}

template <int S>
constexpr bool advance_equals_increments() {
  for (unsigned start = 0; start < 3 * S; ++start)
    for (unsigned n = 0; n < 4 * S; ++n) {
      PipelineState<S> a, b;
      a.advance(start);
      b.advance(start);
      a.advance(n);
      for (unsigned k = 0; k < n; ++k) ++b;
      if (!(a == b)) return false;
    }
  return true;
}

static_assert(increments_wrap_and_flip<1>() && increments_wrap_and_flip<2>() && increments_wrap_and_flip<3>() &&
              increments_wrap_and_flip<7>());
static_assert(advance_equals_increments<1>() && advance_equals_increments<4>() && advance_equals_increments<5>());
static_assert(make_producer_start_state<4>().phase() == 1 && make_producer_start_state<4>().index() == 0);
static_assert(make_consumer_start_state<4>().phase() == 0);

TEST(PipelineState, WrapsAndFlips) {
  EXPECT_TRUE(increments_wrap_and_flip<3>());
  EXPECT_TRUE(advance_equals_increments<6>());
  PipelineState<3> s;
  auto before = s++;
  EXPECT_EQ(before.index(), 0u);
  EXPECT_EQ(s.index(), 1u);
}

// The producer, starting one phase "ahead", waits on the parity that the consumers' releases of
// the previous pass completed: producer phase at step k == consumer phase at step k, flipped.
TEST(PipelineState, ProducerWaitsOnTheOppositeParity) {
  auto p = make_producer_start_state<5>();
  auto c = make_consumer_start_state<5>();
  for (int k = 0; k < 40; ++k, ++p, ++c) {
    EXPECT_EQ(p.index(), c.index());
    EXPECT_EQ(p.phase(), c.phase() ^ 1u);
  }
}

TEST(MulticastMask, RowColumnAndAll) {
  using namespace cute_dsl::arch;
  static_assert(cluster_rank_of(1, 1, 2) == 3);
  static_assert(multicast_mask_same_x(0, 2, 2) == 0b0101 && multicast_mask_same_x(1, 2, 2) == 0b1010);
  static_assert(multicast_mask_same_y(0, 2) == 0b0011 && multicast_mask_same_y(1, 4) == 0b11110000);
  static_assert(multicast_mask_all(1) == 1 && multicast_mask_all(16) == 0xFFFF);
  for (unsigned nx = 1; nx <= 4; ++nx)
    for (unsigned ny = 1; nx * ny <= 16; ++ny) {
      unsigned rows = 0;
      for (unsigned x = 0; x < nx; ++x) {
        EXPECT_EQ(__builtin_popcount(multicast_mask_same_x(x, nx, ny)), static_cast<int>(ny));
        EXPECT_EQ(rows & multicast_mask_same_x(x, nx, ny), 0u);
        rows |= multicast_mask_same_x(x, nx, ny);
      }
      EXPECT_EQ(rows, multicast_mask_all(nx * ny));
    }
}

TEST(ReduceOps, ThreadReduceInIndexOrder) {
  struct Arr {
    int v[5];
    constexpr int size() const { return 5; }
    constexpr int operator[](int i) const { return v[i]; }
  };
  constexpr Arr a{{3, -9, 4, 12, -1}};
  static_assert(cute_dsl::warp::thread_reduce(a, cute_dsl::warp::SumOp{}) == 9);
  static_assert(cute_dsl::warp::thread_reduce(a, cute_dsl::warp::MaxOp{}) == 12);
  static_assert(cute_dsl::warp::thread_reduce(a, cute_dsl::warp::MinOp{}) == -9);
  EXPECT_EQ(cute_dsl::warp::thread_reduce(a, cute_dsl::warp::SumOp{}), 9);
}

}  // namespace
