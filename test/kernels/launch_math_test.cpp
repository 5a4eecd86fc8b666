// The grid arithmetic of include/cute_dsl/kernels/elementwise_launch.hpp (host only, no GPU):
// proven at compile time where the inputs are constants, checked at run time for the 64-bit sizes.
#include "cute_dsl/kernels/elementwise_launch.hpp"

#include <gtest/gtest.h>

namespace {

namespace ck = cute_dsl::kernels;

// Threads bind (8 blocks of 256 = 2048 threads); registers bind (64 regs x 256 threads = 16 K
// registers per block: 4 blocks); shared memory binds (33 KiB + 1 KiB reserved: 6 blocks of 228 KiB).
static_assert(ck::resident_blocks_per_sm(256, 0) == 8);
static_assert(ck::resident_blocks_per_sm(256, 32) == 8);
static_assert(ck::resident_blocks_per_sm(256, 64) == 4);
static_assert(ck::resident_blocks_per_sm(32, 32) == 32);  // the 32-block limit
static_assert(ck::resident_blocks_per_sm(32, 32, 33 * 1024) == 6);
static_assert(ck::resident_blocks_per_sm(256, 32, 16 * 1024) == 8);

// The bulk copy: one chunk per block, capped at the resident blocks; no cap when blocks_per_sm = 0.
static_assert(ck::bulk_copy_grid(0, 8192, 132, 6) == 1);
static_assert(ck::bulk_copy_grid(8192, 8192, 132, 6) == 1);
static_assert(ck::bulk_copy_grid(8193, 8192, 132, 6) == 2);
static_assert(ck::bulk_copy_grid(1 << 30, 8192, 132, 6) == 132 * 6);
static_assert(ck::bulk_copy_grid(1 << 30, 8192, 132, 0) == (1 << 30) / 8192);

// The default one-trip grid: one block per 256 vectors of 16 bytes (elementwise_defaults.hpp), no
// residency cap, at least one block, at most the grid.x limit.
static_assert(ck::elementwise_onetrip_grid(0) == 1);
static_assert(ck::elementwise_onetrip_grid(1024) == 1);
static_assert(ck::elementwise_onetrip_grid(1025) == 2);
static_assert(ck::elementwise_onetrip_grid(1025, {8, 512, 2}) == 1);
static_assert(ck::elementwise_onetrip_grid(1ll << 62) == 2147483647);

// Transpose tiles: square and rectangular, ragged edges round up.
static_assert(ck::transpose_grid(64, 64, 64) == 1);
static_assert(ck::transpose_grid(65, 64, 64) == 2);
static_assert(ck::transpose_grid(8192, 8192, 32, 128) == 256 * 64);
static_assert(ck::transpose_grid(0, 0, 32) == 1);

TEST(LaunchMath, LargeSizes) {
  // 2 GiB of floats through the elementwise kernels: capped at the resident blocks.
  const long long n = (1ll << 31) / 4;
  EXPECT_EQ(ck::elementwise_grid(n, {4, 256, 4}, 132, 8), 132 * 8);
  EXPECT_EQ(ck::elementwise_grid(n, {4, 256, 4}, 132, 1 << 20), n / (4 * 256 * 4));  // uncapped: one trip each
  EXPECT_EQ(ck::bulk_copy_grid(1ll << 31, 8192, 132, 0), (1ll << 31) / 8192);
  EXPECT_EQ(ck::elementwise_onetrip_grid(n), n / (4 * 256));  // the default: 524288 blocks of 256 threads
}

}  // namespace
