// Host-side facts of the distributed GEMM: which rank owns which rows and the symmetric
// buffer's layout.
#include <gtest/gtest.h>

#include <cute_dsl/dist/reduce_scatter_layout.hpp>
#include <cute_dsl/dist/row_owners.hpp>

#include <set>
#include <tuple>
#include <vector>

namespace {

using cute_dsl::dist::ReduceScatterLayout;
using cute_dsl::dist::RowOwners;

TEST(RowOwners, EveryRowHasExactlyTheOwnerWhoseRangeHoldsIt) {
  for (int world = 1; world <= 8; ++world)
    for (int m = 1; m <= 300; ++m) {
      const RowOwners o{m, world};
      int rows = 0;
      for (int r = 0; r < world; ++r) {
        EXPECT_LE(o.rows(r), o.max_rows());
        EXPECT_GE(o.rows(r), m / world);
        for (int row = o.begin(r); row < o.begin(r + 1); ++row) EXPECT_EQ(o.owner(row), r) << m << " " << world << " " << row;
        rows += o.rows(r);
      }
      EXPECT_EQ(rows, m);
      EXPECT_EQ(o.begin(world), m);
    }
}

TEST(RowOwners, MatchesNcclReduceScatterLayoutWhenRanksDivideRows) {
  const RowOwners o{8192, 4};
  for (int r = 0; r < 4; ++r) EXPECT_EQ(o.begin(r), r * 2048);
  EXPECT_EQ((RowOwners{16384 * 3, 8}.owner(16384 * 3 - 1)), 7);  // large rows: no 32-bit overflow
  EXPECT_EQ((RowOwners{2000000000, 8}.owner(1999999999)), 7);
}

TEST(ReduceScatterLayout, RegionsAreDisjointAlignedAndInsideTheBuffer) {
  for (int world : {1, 2, 3, 8})
    for (auto [m, n] : {std::pair{1, 1}, std::pair{1000, 520}, std::pair{8192, 8192}, std::pair{130, 7}}) {
      const ReduceScatterLayout l{m, n, world, 2};
      for (int s = 0; s < cute_dsl::dist::kMaxRanks; ++s) EXPECT_LT(l.done_offset(s) + 4, l.counter_offset() + 1);
      EXPECT_LE(l.counter_offset() + 4, l.ready_offset(0));
      EXPECT_LE(l.ready_offset(l.blocks() - 1) + 4, l.partial_offset());
      EXPECT_EQ(l.partial_offset() % 256, 0);
      EXPECT_GE(l.bytes(), l.partial_offset() + (long long)m * n * 2);
      // Every element's 64 x 64 block has a flag.
      EXPECT_EQ(l.block_id(m - 1, n - 1), l.blocks() - 1);
    }
  static_assert(ReduceScatterLayout{128, 128, 2, 2}.blocks() == 4, "64 x 64 blocks");
}

}  // namespace
