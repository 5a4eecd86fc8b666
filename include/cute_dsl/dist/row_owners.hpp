// Which rank owns which rows of an M-row output split across `world` ranks (reduce-scatter along
// M): rank r owns rows [begin(r), begin(r + 1)) with begin(r) = floor(r * M / world), so shares
// differ by at most one row and every row has exactly one owner. With M a multiple of world this
// is NCCL's ReduceScatter layout of a row-major M x N buffer (rank r: the r-th M/world rows).
#pragma once

#include "cute_dsl/config.hpp"

namespace cute_dsl::dist {

struct RowOwners {
  int m;      // rows
  int world;  // ranks

  CUTE_DSL_HOST_DEVICE constexpr int begin(int r) const { return int((long long)r * m / world); }
  CUTE_DSL_HOST_DEVICE constexpr int rows(int r) const { return begin(r + 1) - begin(r); }
  // The largest r with begin(r) <= row. @pre 0 <= row < m
  CUTE_DSL_HOST_DEVICE constexpr int owner(int row) const { return int((((long long)row + 1) * world - 1) / m); }
  // The most rows any rank owns.
  CUTE_DSL_HOST_DEVICE constexpr int max_rows() const { return (m + world - 1) / world; }
};

}  // namespace cute_dsl::dist
