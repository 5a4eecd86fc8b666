// The Hopper GEMM: warp-specialized, pipelined, persistent, with clusters and TMA multicast.
//
//   D[l] = alpha * A[l] * B[l]^T + beta * C[l]      A: M x K, B: N x K (both K-major), C, D: M x N
//
// Roles (3 warpgroups, 384 threads, one CTA per SM):
//   warpgroup 0, the PRODUCER: one thread issues TMA loads of A and B tiles into a ring of
//     `Stages` shared-memory buffers; the other 127 threads idle. It gives up registers.
//   warpgroups 1 and 2, the CONSUMERS: each multiplies 64 rows of the 128 x TileN tile with wgmma
//     (f32 accumulators in registers, TileN/2 per thread), then runs the epilogue. PingPong
//     variant instead: each consumer takes every other tile whole (128 x TileN, TileN <= 128),
//     their K loops alternate, and one's epilogue overlaps the other's K loop.
// The ring is synchronised by two mbarriers per stage:
//   full[s]  the producer arms it with the stage's byte count; TMA completes it when the bytes
//            have landed. Consumers wait on it.
//   empty[s] each consumer warpgroup of EVERY CTA of the cluster arrives when its wgmma have
//            finished reading stage s; the producer waits on it before refilling s.
// That is pipeline::TmaPipeline (pipeline/tma_pipeline.hpp); producer and consumers each track a
// (stage, phase) PipelineState that flips its phase each time the ring wraps.
//
// Cluster (ClusterM x 1 CTAs, stacked along M): the CTAs compute tiles in the same columns, so
// they need the same B tile. CTA r loads the r-th slice (TileN / ClusterM rows) of it and
// MULTICASTS it to every CTA of the cluster: each CTA's full[s] then receives its own A tile plus
// all slices of B, i.e. the same byte count as without a cluster, while L2 serves each B tile
// once per cluster. Since a peer's TMA writes into my stage s, my empty[s] must know that the
// consumers of every CTA of the cluster released stage s: hence 2 * ClusterM arrivals.
//
// Shared memory tiles are 64 elements (128 bytes) wide along K, stored with the 128-byte swizzle
// that TMA writes and wgmma reads (a K-major "SW128" atom: 8 rows of 128 bytes, 16-byte chunks
// XOR-ed with the row index), so neither side has bank conflicts.
//
// Requirements (checked by the launcher, gemm_sm90_launch.hpp): K-major A and B in global memory
// with 16-byte aligned base and row stride (K a multiple of 8 for 16-bit types); any M, N, K
// >= 1 otherwise: TMA fills rows/columns past the ends with zeros and the epilogue masks them.
// Compiles for sm_90a only (wgmma, setmaxnreg).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/kernels/gemm_epilogue.hpp"
#include "cute_dsl/kernels/gemm_tile_scheduler.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

#include <cuda/std/cstdint>

#include "cute_dsl/arch/copy.hpp"
#include "cute_dsl/arch/sm90/cluster.hpp"
#include "cute_dsl/arch/sm90/gmma_desc.hpp"
#include "cute_dsl/arch/sm90/mbarrier.hpp"
#include "cute_dsl/arch/sm90/setmaxnreg.hpp"
#include "cute_dsl/arch/sm90/tma_copy.hpp"
#include "cute_dsl/arch/sm90/wgmma.hpp"
#include "cute_dsl/pipeline/tma_pipeline.hpp"

// The 16-bit input types, declared so that the kernel can tell them apart without including
// <cuda_bf16.h> / <cuda_fp16.h> (costly under NVRTC); the caller includes the one it uses.
struct __nv_bfloat16;
struct __half;

namespace cute_dsl::kernels {

// A CUtensorMap as the kernel sees it: 128 opaque bytes, 64-byte aligned (the driver's layout;
// built on the host by gemm_sm90_launch.hpp).
struct alignas(64) GemmTensorMap {
  cuda::std::uint64_t opaque[16];
};

template <class TD>
struct GemmSm90Params {
  GemmTensorMap tma_a;  // (K, M, L), box (64, 128)
  GemmTensorMap tma_b;  // (K, N, L), box (64, TileN / ClusterM)
  int k;
  int l;                            // batches
  GemmEpilogueParams<TD> epilogue;  // M, N, D, C, alpha, beta
};

namespace gemm_sm90_impl {

constexpr int kTileM = 128;          // two consumer warpgroups x 64 rows
constexpr int kTileK = 64;           // 64 16-bit elements = one 128-byte swizzle row
constexpr int kThreads = 384;        // producer + 2 consumer warpgroups
constexpr int kProducerRegisters = 40;
constexpr int kConsumerRegisters = 232;  // 128 * 40 + 256 * 232 = 64512 <= 65536
static_assert(128 * kProducerRegisters + 256 * kConsumerRegisters <= 65536,
              "gemm_sm90: the warpgroups' register budgets exceed the SM's 64K registers");

template <class T> inline constexpr bool is_bf16 = false;
template <> inline constexpr bool is_bf16<__nv_bfloat16> = true;
template <class T> inline constexpr bool is_f16 = false;
template <> inline constexpr bool is_f16<__half> = true;

// The shared memory of one CTA: the operand ring, then the barriers. Each tile is a multiple of
// 1024 bytes so that every tile starts on the 1024-byte boundary the 128-byte swizzle repeats on.
template <int TileN, int Stages>
struct SharedStorage {
  static constexpr int kABytes = kTileM * kTileK * 2;
  static constexpr int kBBytes = TileN * kTileK * 2;
  alignas(1024) cuda::std::uint8_t a[Stages][kABytes];
  alignas(1024) cuda::std::uint8_t b[Stages][kBBytes];
  pipeline::PipelineStorage<Stages> barriers;  // full[s] / empty[s] of the ring
  cuda::std::uint64_t turn[2];                 // ping-pong: "consumer w may start its next K loop"
};

// Bytes of dynamic shared memory to request: the storage plus slack to align it to 1024 bytes
// (the dynamic shared memory base is only guaranteed 16-byte alignment).
template <int TileN, int Stages>
inline constexpr int shared_bytes = int(sizeof(SharedStorage<TileN, Stages>)) + 1024;

// The wgmma descriptor of a K-major tile of 128-byte swizzled rows starting at `smem` (1024-byte
// aligned, or inside such a tile along K): 8-row groups 1024 bytes apart (SBO); the leading
// offset is unused by swizzled K-major layouts. Stepping k16 along K is gmma_desc_advance(+32 B).
CUTE_DSL_DEVICE inline cuda::std::uint64_t sw128_kmajor_desc(const void* smem) {
  return GmmaDescriptor{smem_address(smem), 16, 1024, 0, GmmaLayoutType::sw128}.encode();
}

// One tile's K loop for one consumer warpgroup: acc[h] += (64 rows of A starting at row block
// first_block + h) * B^T over every k-block, reading the ring's stages in order. One batch of
// wgmma stays in flight; the stage before it is released (by `releaser`, one thread of the
// warpgroup) as soon as its batch has completed.
template <class Mma, int Blocks, int TileN, class Ring, class State, class Storage>
CUTE_DSL_DEVICE void consume_k_loop(const Ring& ring, State& state, Storage& smem, int first_block, int k_tiles,
                                    float (&acc)[Blocks][TileN / 2], bool releaser) {
#pragma unroll
  for (int h = 0; h < Blocks; ++h) {
#pragma unroll
    for (int i = 0; i < TileN / 2; ++i) acc[h][i] = 0.f;
    warpgroup_fence_operand(acc[h]);
  }
  State reading = state;  // the oldest stage whose wgmma may still be reading it
  for (int kt = 0; kt < k_tiles; ++kt, ++state) {
    ring.consumer_wait(state);
    const int s = int(state.index());
    const cuda::std::uint64_t desc_b = sw128_kmajor_desc(smem.b[s]);
    warpgroup_arrive();
#pragma unroll
    for (int kk = 0; kk < kTileK / 16; ++kk) {  // k16 steps of 32 bytes through the 128-byte rows
#pragma unroll
      for (int h = 0; h < Blocks; ++h) {
        const cuda::std::uint64_t desc_a = sw128_kmajor_desc(smem.a[s] + (first_block + h) * 64 * 128);
        Mma::fma(gmma_desc_advance(desc_a, 32 * kk), gmma_desc_advance(desc_b, 32 * kk), acc[h]);
      }
    }
    warpgroup_commit_batch();
    // Keep this batch in flight; the one before it has finished reading its stage.
    warpgroup_wait<1>();
#pragma unroll
    for (int h = 0; h < Blocks; ++h) warpgroup_fence_operand(acc[h]);
    if (kt > 0) {
      if (releaser) ring.consumer_release(reading);
      ++reading;
    }
  }
  warpgroup_wait<0>();
#pragma unroll
  for (int h = 0; h < Blocks; ++h) warpgroup_fence_operand(acc[h]);
  if (k_tiles > 0 && releaser) ring.consumer_release(reading);
}

}  // namespace gemm_sm90_impl

// TA: the input type (__nv_bfloat16 or __half) of A and B; TD: the output type (float,
// __nv_bfloat16 or __half); TileN in {64, 128, 192, 256} columns per CTA; Stages in the ring;
// ClusterM CTAs per cluster along M (1 or 2), launched with that cluster shape. PingPong: the
// two consumer warpgroups take turns on whole 128 x TileN tiles (one's epilogue overlaps the
// other's K loop) instead of sharing each tile (cooperative, 64 rows each).
template <class TA, class TD, int TileN, int Stages, int ClusterM, bool PingPong = false>
__global__ void __launch_bounds__(gemm_sm90_impl::kThreads, 1) gemm_sm90_kernel(const __grid_constant__ GemmSm90Params<TD> p) {
  using namespace gemm_sm90_impl;
  static_assert(is_bf16<TA> || is_f16<TA>, "gemm_sm90_kernel: A and B must be __nv_bfloat16 or __half");
  static_assert(TileN % 64 == 0 && TileN >= 64 && TileN <= 256, "gemm_sm90_kernel: TileN must be 64, 128, 192 or 256");
  static_assert(Stages >= 2, "gemm_sm90_kernel: the ring needs at least 2 stages");
  static_assert(ClusterM == 1 || ClusterM == 2, "gemm_sm90_kernel: clusters of 1 or 2 CTAs along M");
  static_assert(!PingPong || TileN <= 128, "gemm_sm90_kernel: a ping-pong warpgroup holds 128 x TileN accumulators: TileN <= 128");
  static_assert((TileN / ClusterM) % 8 == 0, "gemm_sm90_kernel: each CTA's multicast slice of B must be whole 8-row swizzle atoms");
  using Storage = SharedStorage<TileN, Stages>;
  using Mma = SM90_64xNx16_F32_SS<TileN, is_bf16<TA> ? GmmaInput::bf16 : GmmaInput::f16>;
  constexpr cuda::std::uint32_t kStageBytes = Storage::kABytes + Storage::kBBytes;
  constexpr int kSliceRows = TileN / ClusterM;  // rows of the B tile this CTA loads and multicasts

  extern __shared__ cuda::std::uint8_t smem_raw[];
  Storage& smem = *reinterpret_cast<Storage*>((reinterpret_cast<cuda::std::uintptr_t>(smem_raw) + 1023) & ~cuda::std::uintptr_t(1023));

  const int warpgroup = threadIdx.x / 128;
  const int thread_in_wg = threadIdx.x % 128;
  const int cta_rank = ClusterM == 1 ? 0 : int(arch::cluster_ctarank());

  // The ring: full[s] expects both tiles' bytes (own A, every CTA's slice of B); each consumer
  // warpgroup releases stage s to every CTA of the cluster (their producers write into it).
  pipeline::TmaPipelineParams ring_params;
  ring_params.transaction_bytes = kStageBytes;
  ring_params.consumer_arrivals = PingPong ? 1 : 2;  // warpgroups that read each stage
  ring_params.release_mask = ClusterM == 1 ? 0 : (1u << ClusterM) - 1;
  using Ring = pipeline::TmaPipeline<Stages>;
  if (threadIdx.x == 0) {
    Ring::init(smem.barriers, ring_params);
    if constexpr (PingPong) {
      arch::mbarrier_init(&smem.turn[0], 128);  // every thread of the other consumer arrives
      arch::mbarrier_init(&smem.turn[1], 128);
    }
    // Publishes the inits beyond this thread's generic view: to peers that arrive or multicast
    // on them, and to the TMA unit's complete_tx (also for a cluster of 1).
    arch::fence_barrier_init();
  }
  // Every barrier is initialised before anyone (of any CTA of the cluster) uses it.
  if constexpr (ClusterM > 1) arch::cluster_sync();
  else __syncthreads();
  const Ring ring(smem.barriers, ring_params);

  const GemmTileScheduler<kTileM, TileN, ClusterM> scheduler(p.epilogue.m, p.epilogue.n, p.l);
  const int k_tiles = (p.k + kTileK - 1) / kTileK;
  const int tiles = scheduler.cluster_tiles();
  const int first = blockIdx.x / ClusterM, step = gridDim.x / ClusterM;

  if (warpgroup == 0) {
    // ---- producer ------------------------------------------------------------------------------
    arch::setmaxnreg_dec<kProducerRegisters>();
    if (threadIdx.x == 0) {
      prefetch_tma_descriptor(&p.tma_a);
      prefetch_tma_descriptor(&p.tma_b);
      auto state = pipeline::make_producer_start_state<Stages>();
      for (int t = first; t < tiles; t += step) {
        const GemmTile tile = scheduler.tile(t, cta_rank);
        for (int kt = 0; kt < k_tiles; ++kt, ++state) {
          ring.producer_acquire(state);  // stage empty in this CTA; its bytes announced on full
          const int s = int(state.index());
          const unsigned full = arch::shared_address(ring.producer_barrier(state));
          SM90_TMA_LOAD::copy(&p.tma_a, full, smem.a[s], kt * kTileK, tile.m_block, tile.batch);
          if constexpr (ClusterM == 1) {
            SM90_TMA_LOAD::copy(&p.tma_b, full, smem.b[s], kt * kTileK, tile.n_block, tile.batch);
          } else {
            constexpr unsigned short kAllCtas = (1u << ClusterM) - 1;
            SM90_TMA_LOAD_MULTICAST::copy(&p.tma_b, full, kAllCtas, smem.b[s] + cta_rank * kSliceRows * 128,
                                          kt * kTileK, tile.n_block + cta_rank * kSliceRows, tile.batch);
          }
        }
      }
    }
  } else {
    // ---- consumers -----------------------------------------------------------------------------
    arch::setmaxnreg_inc<kConsumerRegisters>();
    const int consumer = warpgroup - 1;
    constexpr int kBlocks = PingPong ? 2 : 1;  // 64-row blocks of the tile this warpgroup computes
    auto state = pipeline::make_consumer_start_state<Stages>();
    int turn = 0, my_tiles = 0;
    for (int t = first; t < tiles; t += step, ++turn) {
      if (PingPong && turn % 2 != consumer) {  // the other warpgroup's tile: skip its stages
        state.advance(k_tiles);
        continue;
      }
      // Ping-pong: K loops strictly alternate between the two consumers. Besides overlapping one's
      // epilogue with the other's K loop, this keeps every stage's barrier at most one phase
      // behind the phase a consumer waits for, which a parity wait needs (a consumer that jumped
      // k_tiles stages ahead would otherwise mistake an older phase for its own).
      if constexpr (PingPong) {
        const int waits_before = consumer == 1 ? my_tiles : my_tiles - 1;  // consumer 0 starts free
        if (waits_before >= 0) arch::mbarrier_wait(&smem.turn[consumer], cuda::std::uint32_t(waits_before & 1));
      }
      const GemmTile tile = scheduler.tile(t, cta_rank);
      const int first_block = PingPong ? 0 : consumer;  // cooperative: this warpgroup's 64 rows
      float acc[kBlocks][TileN / 2];
      consume_k_loop<Mma, kBlocks, TileN>(ring, state, smem, first_block, k_tiles, acc, thread_in_wg == 0);
      if constexpr (PingPong) {
        arch::mbarrier_arrive(&smem.turn[1 - consumer]);  // the other consumer's K loop may start
        ++my_tiles;
      }
#pragma unroll
      for (int h = 0; h < kBlocks; ++h)
        gemm_store_accumulators<TD, TileN>(acc[h], p.epilogue, tile.m_block + (first_block + h) * 64, tile.n_block,
                                           tile.batch, thread_in_wg);
    }
  }
  // Peers may still arrive on my barriers or multicast into my ring: stay until they are done.
  // (__syncwarp: the producer's lane 0 rejoins its warp before the .aligned cluster barrier.)
  if constexpr (ClusterM > 1) {
    __syncwarp();
    arch::cluster_sync();
  }
}

}  // namespace cute_dsl::kernels

#endif  // __CUDACC__ || __CUDACC_RTC__
