// CuteDSL::dist's refusals as a user sees them: a world size outside [1, kMaxRanks], and more
// ranks than the machine has GPUs (the CI machine has none; kMaxRanks ranks exceed any machine
// lent here but an 8-GPU one, where the ranks start, do nothing and succeed).
#include <gtest/gtest.h>

#include <cute_dsl/dist/nccl_session.hpp>

#include <stdexcept>
#include <string>

namespace {

namespace dist = cute_dsl::dist;

std::string refusal(int world) {
  try {
    const int status = dist::run_local_ranks(world, [](int, int, const ncclUniqueId&) { return 0; });
    return "returned " + std::to_string(status);
  } catch (const std::exception& e) {
    return e.what();
  }
}

TEST(RunLocalRanks, WorldOutsideOneToMaxRanksIsRefused) {
  EXPECT_EQ(refusal(0), "cute_dsl::dist::run_local_ranks: world must be in [1, 8], got 0");
  EXPECT_EQ(refusal(dist::kMaxRanks + 1), "cute_dsl::dist::run_local_ranks: world must be in [1, 8], got 9");
}

TEST(RunLocalRanks, MoreRanksThanGpusIsRefusedWithTheCounts) {
  const std::string what = refusal(dist::kMaxRanks);
  if (what == "returned 0") GTEST_SKIP() << "SKIPPED: this machine has " << dist::kMaxRanks << " GPUs; the ranks ran";
  EXPECT_EQ(what.rfind("cute_dsl::dist::run_local_ranks: 8 ranks need 8 GPUs, this machine has ", 0), 0u) << what;
}

}  // namespace
