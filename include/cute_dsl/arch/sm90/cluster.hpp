// Thread block clusters (sm_90): who am I in the cluster, cluster-wide barriers, and addressing a
// peer CTA's shared memory (distributed shared memory, DSMEM).
//
// A cluster is up to 8 (16 with opt-in) CTAs co-scheduled on one GPC. CTAs of a cluster can read,
// write and arrive on each other's shared memory: `mapa` maps an address of MY shared memory to the
// same offset in a PEER's, which is how a consumer releases a buffer to a multicast producer and
// how CTAs exchange partial results. Launch with cudaLaunchKernelEx +
// cudaLaunchAttributeClusterDimension (or __cluster_dims__); without it every CTA is a cluster of 1.
//
// The multicast-mask helpers at the end are plain constexpr arithmetic, usable on the host.
#pragma once

#include "cute_dsl/arch/arch_requirement.hpp"
#include "cute_dsl/config.hpp"

namespace cute_dsl::arch {

// Rank (x fastest: x + y * nx + z * nx * ny, as %cluster_ctarank numbers CTAs) of the CTA at
// position (x, y) of a cluster nx wide. Pure arithmetic, host or device.
CUTE_DSL_HOST_DEVICE constexpr unsigned cluster_rank_of(unsigned x, unsigned y, unsigned nx) { return x + y * nx; }

// Multicast masks for a 2D cluster of nx * ny CTAs: bit r set for every CTA rank r that should
// receive a copy. A tile of A is shared by the CTAs of one cluster ROW (same x, all y: they compute
// the same rows of C), a tile of B by one COLUMN (same y, all x) -- the CTAs named here are also
// the ones whose consumers must release the buffer before the producer refills it.
CUTE_DSL_HOST_DEVICE constexpr unsigned short multicast_mask_same_x(unsigned x, unsigned nx, unsigned ny) {
  unsigned mask = 0;
  for (unsigned y = 0; y < ny; ++y) mask |= 1u << cluster_rank_of(x, y, nx);
  return static_cast<unsigned short>(mask);
}
CUTE_DSL_HOST_DEVICE constexpr unsigned short multicast_mask_same_y(unsigned y, unsigned nx) {
  unsigned mask = 0;
  for (unsigned x = 0; x < nx; ++x) mask |= 1u << cluster_rank_of(x, y, nx);
  return static_cast<unsigned short>(mask);
}
// Every CTA of a cluster of `n` CTAs.
CUTE_DSL_HOST_DEVICE constexpr unsigned short multicast_mask_all(unsigned n) {
  return static_cast<unsigned short>((n >= 16u) ? 0xFFFFu : ((1u << n) - 1u));
}

}  // namespace cute_dsl::arch

// The rest is device code: a plain host compiler sees nothing.
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

#include <cuda/std/cstdint>

namespace cute_dsl::arch {

// One read of a special register; macros because the register name must be a literal in the asm.
#define CUTE_DSL_READ_SREG(reg, out) asm volatile("mov.u32 %0, %%" reg ";" : "=r"(out))
#define CUTE_DSL_READ_SREG_DIM3(reg)                                                            \
  cuda::std::uint32_t x, y, z;                                                                  \
  CUTE_DSL_READ_SREG(reg ".x", x);                                                              \
  CUTE_DSL_READ_SREG(reg ".y", y);                                                              \
  CUTE_DSL_READ_SREG(reg ".z", z);                                                              \
  return dim3(x, y, z)

// mov.u32 r, %cluster_ctarank;                                                        sm_90
// This CTA's rank in its cluster, 0 .. cluster_size()-1.
template <class Gate = void>
CUTE_DSL_DEVICE cuda::std::uint32_t cluster_ctarank() {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "%cluster_ctarank");
  cuda::std::uint32_t r;
  CUTE_DSL_READ_SREG("cluster_ctarank", r);
  return r;
}

// mov.u32 r, %cluster_nctarank;                                                       sm_90
// Number of CTAs in the cluster.
template <class Gate = void>
CUTE_DSL_DEVICE cuda::std::uint32_t cluster_size() {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "%cluster_nctarank");
  cuda::std::uint32_t r;
  CUTE_DSL_READ_SREG("cluster_nctarank", r);
  return r;
}

// mov.u32 r, %cluster_nctaid.{x,y,z};                                                 sm_90
// The cluster's shape in CTAs.
template <class Gate = void>
CUTE_DSL_DEVICE dim3 cluster_shape() {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "%cluster_nctaid");
  CUTE_DSL_READ_SREG_DIM3("cluster_nctaid");
}

// mov.u32 r, %clusterid.{x,y,z};                                                      sm_90
// The cluster's position in the grid of clusters.
template <class Gate = void>
CUTE_DSL_DEVICE dim3 cluster_id() {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "%clusterid");
  CUTE_DSL_READ_SREG_DIM3("clusterid");
}

// mov.u32 r, %cluster_ctaid.{x,y,z};                                                  sm_90
// This CTA's position inside its cluster.
template <class Gate = void>
CUTE_DSL_DEVICE dim3 block_id_in_cluster() {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "%cluster_ctaid");
  CUTE_DSL_READ_SREG_DIM3("cluster_ctaid");
}

#undef CUTE_DSL_READ_SREG_DIM3
#undef CUTE_DSL_READ_SREG

// barrier.cluster.arrive.aligned;                                                     sm_90
// This thread's arrival at the cluster barrier, with RELEASE semantics (its prior writes, shared
// memory of peers included, become visible to threads that complete cluster_wait). Every thread of
// every CTA of the cluster must arrive; `.aligned`: all threads of the warp execute it together.
template <class Gate = void>
CUTE_DSL_DEVICE void cluster_arrive() {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "barrier.cluster.arrive");
  asm volatile("barrier.cluster.arrive.aligned;" ::: "memory");
}

// barrier.cluster.arrive.relaxed.aligned;                                             sm_90
// Arrival without release ordering: for "I have started / I still exist" handshakes (e.g. before
// a peer may address my shared memory) where no data is published; cheaper than cluster_arrive.
template <class Gate = void>
CUTE_DSL_DEVICE void cluster_arrive_relaxed() {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "barrier.cluster.arrive.relaxed");
  asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
}

// barrier.cluster.wait.aligned;                                                       sm_90
// Waits until every thread of the cluster has arrived (acquire semantics).
template <class Gate = void>
CUTE_DSL_DEVICE void cluster_wait() {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "barrier.cluster.wait");
  asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
}

// cluster_arrive + cluster_wait: a __syncthreads() over the whole cluster. Also what keeps a CTA
// alive (its shared memory valid) until peers have finished addressing it: end kernels that use
// DSMEM or remote arrives with a cluster_sync.
template <class Gate = void>
CUTE_DSL_DEVICE void cluster_sync() {
  cluster_arrive<Gate>();
  cluster_wait<Gate>();
}

// mapa.shared::cluster.u32 r, addr, cta;                                              sm_90
// The shared::cluster address (for .shared::cluster operands) of shared-window address `addr`
// in CTA `cta_rank`.
template <class Gate = void>
CUTE_DSL_DEVICE cuda::std::uint32_t map_shared_address(cuda::std::uint32_t addr, cuda::std::uint32_t cta_rank) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "mapa.shared::cluster");
  cuda::std::uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(addr), "r"(cta_rank));
  return r;
}

// mapa.u64 r, p, cta;                                                                 sm_90
// A GENERIC pointer to the object at the same shared-memory offset as `p` in CTA `cta_rank`:
// ordinary loads and stores through it access the peer's shared memory (DSMEM).
template <class T, class Gate = void>
CUTE_DSL_DEVICE T* map_shared_to_cta(T* p, cuda::std::uint32_t cta_rank) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "mapa (generic)");
  cuda::std::uint64_t r;
  asm volatile("mapa.u64 %0, %1, %2;" : "=l"(r) : "l"(reinterpret_cast<cuda::std::uint64_t>(p)), "r"(cta_rank));
  return reinterpret_cast<T*>(r);
}

// elect.sync r|p, 0xFFFFFFFF;                                                         sm_90
// True in exactly one active lane of the (fully converged) warp. Unlike `lane == 0` it is one
// instruction (no lane-id read and compare) and the elected lane is guaranteed to be active,
// which `lane == 0` is not when lane 0 has exited or diverged.
template <class Gate = void>
CUTE_DSL_DEVICE bool elect_one_sync() {
  CUTE_DSL_REQUIRE_ARCH(Gate, 90, "elect.sync");
  cuda::std::uint32_t elected = 0;
  asm volatile(
      "{\n\t.reg .b32 lane;\n\t.reg .pred p;\n\t"
      "elect.sync lane|p, 0xFFFFFFFF;\n\t"
      "selp.u32 %0, 1, 0, p;\n\t}"
      : "=r"(elected));
  return elected != 0;
}

}  // namespace cute_dsl::arch

#endif  // __CUDACC__ || __CUDACC_RTC__
