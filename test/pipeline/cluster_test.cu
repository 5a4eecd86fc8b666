// Thread block clusters (arch/sm90/cluster.hpp): ranks and shapes, DSMEM reads of a peer's shared
// memory through mapa, remote mbarrier arrivals, cluster-wide barriers; clusters of 2 and 4 CTAs.
#include <gpu_test.cuh>
#include <cluster_launch.cuh>

#include <cute_dsl/arch/sm90/cluster.hpp>
#include <cute_dsl/arch/sm90/mbarrier.hpp>

#include <cstdint>
#include <vector>

namespace {
using namespace cute_dsl::arch;

constexpr int kIds = 12;

__global__ void ids_kernel(int* out) {
  if (threadIdx.x != 0) return;
  int* o = out + blockIdx.x * kIds;
  dim3 shape = cluster_shape(), id = cluster_id(), in = block_id_in_cluster();
  o[0] = cluster_ctarank();
  o[1] = cluster_size();
  o[2] = shape.x; o[3] = shape.y; o[4] = shape.z;
  o[5] = id.x;    o[6] = id.y;    o[7] = id.z;
  o[8] = in.x;    o[9] = in.y;    o[10] = in.z;
  o[11] = 1;
}

constexpr int kInts = 2048;

// Each CTA fills its shared memory, then reads the shared memory of the CTA `shift` ranks ahead.
__global__ void dsmem_kernel(const int* in, int* out, unsigned shift) {
  __shared__ int data[kInts];
  for (int i = threadIdx.x; i < kInts; i += blockDim.x) data[i] = in[blockIdx.x * kInts + i];
  cluster_sync();  // peers' data written (release/acquire of barrier.cluster)
  const unsigned n = cluster_size();
  const unsigned peer = (cluster_ctarank() + shift) % n;
  const int* remote = map_shared_to_cta(data, peer);
  for (int i = threadIdx.x; i < kInts; i += blockDim.x) out[blockIdx.x * kInts + i] = remote[i];
  cluster_sync();  // nobody exits while a peer still reads its shared memory
}

// Every CTA writes a value into slot[my_rank] of every peer (DSMEM store), then arrives remotely on
// the peer's barrier (release at cluster scope). Each CTA waits for all arrivals on its own barrier
// (acquire at cluster scope) and publishes its slots. Repeated for several phases, alternating
// two barriers: a fast CTA may arrive for round p+1 on a peer whose round p is still collecting
// arrivals, so round p+1 must not use round p's barrier; it may reuse round p-1's, which completed
// before the fast CTA could finish round p.
constexpr int kPhases = 6;
__global__ void remote_arrive_kernel(const int* in, int* out) {
  __shared__ std::uint64_t bars[2];
  __shared__ int slots[kPhases][16];
  const unsigned n = cluster_size();
  const unsigned me = cluster_ctarank();
  if (threadIdx.x == 0) {
    mbarrier_init(&bars[0], n);
    mbarrier_init(&bars[1], n);
    fence_barrier_init();
  }
  cluster_sync();  // barriers initialised everywhere before anyone arrives remotely
  for (int p = 0; p < kPhases; ++p) {
    if (threadIdx.x < n) {
      const unsigned peer = threadIdx.x;
      int* peer_slots = map_shared_to_cta(&slots[p][0], peer);
      peer_slots[me] = in[(blockIdx.x * kPhases + p)];
      mbarrier_arrive_cluster_release(&bars[p & 1], peer);
    }
    mbarrier_wait_cluster(&bars[p & 1], (p / 2) & 1);
    if (threadIdx.x < n) out[(blockIdx.x * kPhases + p) * 16 + threadIdx.x] = slots[p][threadIdx.x];
  }
  cluster_sync();
}

class Cluster : public ::testing::TestWithParam<int> {};

TEST_P(Cluster, RanksShapesAndIds) {
  CUTE_DSL_REQUIRE_GPU(90);
  const int n = GetParam(), blocks = n * 6;
  cute_dsl_test::DeviceBuffer<int> d_out(blocks * kIds);
  CUTE_DSL_TEST_CUDA(d_out.poison());
  CUTE_DSL_TEST_CUDA(cute_dsl_test::launch_cluster(ids_kernel, dim3(blocks), dim3(32), dim3(n), 0, d_out.get()));
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<int> out;
  CUTE_DSL_TEST_CUDA(d_out.download(out));
  for (int b = 0; b < blocks; ++b) {
    const int* o = &out[b * kIds];
    const int expect[kIds] = {b % n, n, n, 1, 1, b / n, 0, 0, b % n, 0, 0, 1};
    for (int k = 0; k < kIds; ++k) EXPECT_EQ(o[k], expect[k]) << "block " << b << " field " << k;
  }
}

TEST_P(Cluster, DsmemReadOfPeers) {
  CUTE_DSL_REQUIRE_GPU(90);
  const int n = GetParam(), blocks = n * 8;
  auto seed = cute_dsl_test::test_seed();
  auto in = cute_dsl_test::random_ints(static_cast<std::size_t>(blocks) * kInts, seed);
  for (unsigned shift = 0; shift < static_cast<unsigned>(n); ++shift) {
    cute_dsl_test::DeviceBuffer<int> d_in(in.size()), d_out(in.size());
    CUTE_DSL_TEST_CUDA(d_in.upload(in));
    CUTE_DSL_TEST_CUDA(d_out.poison());
    CUTE_DSL_TEST_CUDA(cute_dsl_test::launch_cluster(dsmem_kernel, dim3(blocks), dim3(256), dim3(n), 0,
                                                     d_in.get(), d_out.get(), shift));
    CUTE_DSL_TEST_LAUNCHED();
    std::vector<int> out;
    CUTE_DSL_TEST_CUDA(d_out.download(out));
    for (int b = 0; b < blocks; ++b) {
      const int peer_block = b - b % n + (b % n + static_cast<int>(shift)) % n;
      for (int i = 0; i < kInts; ++i)
        ASSERT_EQ(out[b * kInts + i], in[peer_block * kInts + i]) << "block " << b << " shift " << shift << " i " << i << " seed " << seed;
    }
  }
}

TEST_P(Cluster, RemoteArriveThroughMapa) {
  CUTE_DSL_REQUIRE_GPU(90);
  const int n = GetParam(), blocks = n * 10;
  auto seed = cute_dsl_test::test_seed();
  auto in = cute_dsl_test::random_ints(static_cast<std::size_t>(blocks) * kPhases, seed);
  cute_dsl_test::DeviceBuffer<int> d_in(in.size()), d_out(static_cast<std::size_t>(blocks) * kPhases * 16);
  CUTE_DSL_TEST_CUDA(d_in.upload(in));
  CUTE_DSL_TEST_CUDA(d_out.poison());
  CUTE_DSL_TEST_CUDA(cute_dsl_test::launch_cluster(remote_arrive_kernel, dim3(blocks), dim3(64), dim3(n), 0,
                                                   d_in.get(), d_out.get()));
  CUTE_DSL_TEST_LAUNCHED();
  std::vector<int> out;
  CUTE_DSL_TEST_CUDA(d_out.download(out));
  for (int b = 0; b < blocks; ++b)
    for (int p = 0; p < kPhases; ++p)
      for (int r = 0; r < 16; ++r) {
        const int got = out[(b * kPhases + p) * 16 + r];
        if (r < n) {
          ASSERT_EQ(got, in[(b - b % n + r) * kPhases + p]) << "block " << b << " phase " << p << " from rank " << r << " seed " << seed;
        } else {
          ASSERT_EQ(got, -1) << "block " << b << " wrote past the cluster";  // still poisoned
        }
      }
}

INSTANTIATE_TEST_SUITE_P(Sizes, Cluster, ::testing::Values(2, 4));

TEST(MulticastMask, RowsAndColumnsOfA2x2Cluster) {
  // Host-side arithmetic, no GPU needed.
  static_assert(multicast_mask_all(4) == 0xF);
  static_assert(multicast_mask_same_x(0, 2, 2) == 0b0101);
  static_assert(multicast_mask_same_x(1, 2, 2) == 0b1010);
  static_assert(multicast_mask_same_y(1, 2) == 0b1100);
  EXPECT_EQ(multicast_mask_same_y(0, 4), 0xF);
}

}  // namespace
