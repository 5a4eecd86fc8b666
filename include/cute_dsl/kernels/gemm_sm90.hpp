// The Hopper GEMM: warp-specialized, pipelined, persistent, with clusters and TMA multicast.
//
//   D[l] = alpha * A[l] * B[l]^T + beta * C[l]      A: M x K, B: N x K, C, D: M x N (row-major)
//
// A and B may each be K-major (K contiguous: A row-major, B "column-major K x N") or MN-major
// (M resp. N contiguous): BLAS's TN, NN, TT and NT. The major-ness is a template parameter: it
// picks the TMA boxes, the shared-memory atom and wgmma's transpose bit (see "Shared memory").
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
// Shared memory: each stage holds a Rows x 64 (K) tile of A and of B, stored with the 128-byte
// swizzle that TMA writes and wgmma reads (8 rows of 128 bytes, 16-byte chunks XOR-ed with the
// row index), so neither side has bank conflicts. What a 128-byte row holds depends on the major:
//   K-major:  one operand row's 64 K values; rows follow each other (row r at r * 128 bytes).
//             ONE TMA box (64 K x Rows) per tile. wgmma: SBO = 1024 (8 rows), k16 step = 32 bytes.
//   MN-major: 64 consecutive rows (M or N) at one k; a 64 x 64 block is 64 such rows (8 KiB),
//             and the tile is Rows / 64 of these blocks, one TMA box (64 MN x 64 K) each.
//             wgmma (transposed): LBO = 8192 (next 64 MN), SBO = 1024 (next 8 k), k16 step = 2048.
// Either way rows r..r+63 start r * 128 bytes into the tile, so slicing a tile by rows (a consumer's
// 64 rows of A, a CTA's multicast slice of B) is the same byte offset for both majors.
//
// 64-row tiles (TileM = 64, for skinny M): both consumer warpgroups share the 64 rows of A and
// split the TileN columns, each running 64 x TileN/2 wgmma.
//
// Requirements (checked by the launcher, gemm_sm90_launch.hpp): A and B with 16-byte aligned base
// and leading dimension (a multiple of 8 elements for 16-bit types); any M, N, K >= 1 otherwise:
// TMA fills rows/columns past the ends with zeros and the epilogue masks them.
// Compiles for sm_90a only (wgmma, setmaxnreg).
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/kernels/gemm_epilogue.hpp"
#include "cute_dsl/kernels/gemm_tile_scheduler.hpp"

namespace cute_dsl::kernels {

// A CUtensorMap as the kernel sees it: 128 opaque bytes, 64-byte aligned (the driver's layout;
// built on the host by gemm_sm90_launch.hpp). Host-visible (plain `unsigned long long`): the JIT
// launcher, compiled by a host compiler, fills the same parameter block.
struct alignas(64) GemmTensorMap {
  unsigned long long opaque[16];
};

template <class TD>
struct GemmSm90Params {
  GemmTensorMap tma_a;  // K-major: (K, M, L), box (64, TileM); MN-major: (M, K, L), box (64, 64)
  GemmTensorMap tma_b;  // K-major: (K, N, L), box (64, TileN / ClusterM); MN-major: (N, K, L), box (64, 64)
  int k;
  int l;                            // batches
  GemmEpilogueParams<TD> epilogue;  // M, N, D, C, alpha, beta
};

}  // namespace cute_dsl::kernels

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

namespace gemm_sm90_impl {

constexpr int kTileM = 128;          // default: two consumer warpgroups x 64 rows
constexpr int kTileK = 64;           // 64 16-bit elements = one 128-byte swizzle row
constexpr int kThreads = 384;        // producer + 2 consumer warpgroups
constexpr int kProducerRegisters = 40;
constexpr int kConsumerRegisters = 232;  // 128 * 40 + 256 * 232 = 64512 <= 65536
static_assert(128 * kProducerRegisters + 256 * kConsumerRegisters <= 65536,
              "gemm_sm90: the warpgroups' register budgets exceed the SM's 64K registers");
constexpr int kMnBlock = 64;         // MN-major: rows (M or N) per 128-byte swizzle row = per TMA box
constexpr int kMnBlockBytes = kMnBlock * kTileK * 2;  // one 64 x 64 MN-major block: 8 KiB

template <class T> inline constexpr bool is_bf16 = false;
template <> inline constexpr bool is_bf16<__nv_bfloat16> = true;
template <class T> inline constexpr bool is_f16 = false;
template <> inline constexpr bool is_f16<__half> = true;

// The shared memory of one CTA: the operand ring, then the barriers. Each tile is a multiple of
// 1024 bytes so that every tile starts on the 1024-byte boundary the 128-byte swizzle repeats on.
template <int TileN, int Stages, int TileM = kTileM>
struct SharedStorage {
  static constexpr int kABytes = TileM * kTileK * 2;
  static constexpr int kBBytes = TileN * kTileK * 2;
  alignas(1024) cuda::std::uint8_t a[Stages][kABytes];
  alignas(1024) cuda::std::uint8_t b[Stages][kBBytes];
  pipeline::PipelineStorage<Stages> barriers;  // full[s] / empty[s] of the ring
  cuda::std::uint64_t turn[2];                 // ping-pong: "consumer w may start its next K loop"
};

// Bytes of dynamic shared memory to request: the storage plus slack to align it to 1024 bytes
// (the dynamic shared memory base is only guaranteed 16-byte alignment).
template <int TileN, int Stages, int TileM = kTileM>
inline constexpr int shared_bytes = int(sizeof(SharedStorage<TileN, Stages, TileM>)) + 1024;

// The wgmma descriptor of the rows starting `first_row` rows into an operand tile of the ring
// (layout: see the top of this file; first_row a multiple of 8, of 64 for MN-major), stepped
// `kk` k16 steps along K.
//   K-major:  128-byte rows, 8-row groups 1024 bytes apart (SBO); LBO unused by swizzled K-major.
//   MN-major: LBO = 8 KiB to the next 64 MN (next TMA box), SBO = 1024 to the next 8 k.
template <GmmaMajor Major>
CUTE_DSL_DEVICE cuda::std::uint64_t operand_desc(const cuda::std::uint8_t* tile, int first_row, int kk) {
  const unsigned base = smem_address(tile + first_row * 128);
  if constexpr (Major == GmmaMajor::K)
    return gmma_desc_advance(GmmaDescriptor{base, 16, 1024, 0, GmmaLayoutType::sw128}.encode(), 32 * kk);
  else
    return gmma_desc_advance(GmmaDescriptor{base, kMnBlockBytes, 1024, 0, GmmaLayoutType::sw128}.encode(), 16 * 128 * kk);
}

// The producer's loads of `rows` operand rows starting at `row0`, k-block at `k0`, into `dst`
// (one stage's tile, or a slice of it), completing on mbarrier `full`. K-major: one box (64 K x
// rows); MN-major: rows / 64 boxes (64 MN x 64 K). Multicast to the CTAs of `mask` when nonzero.
template <GmmaMajor Major, int Rows>
CUTE_DSL_DEVICE void load_operand(const GemmTensorMap* map, unsigned full, cuda::std::uint8_t* dst, int k0, int row0,
                                  int batch, unsigned short mask) {
  if constexpr (Major == GmmaMajor::K) {
    if (mask == 0) SM90_TMA_LOAD::copy(map, full, dst, k0, row0, batch);
    else SM90_TMA_LOAD_MULTICAST::copy(map, full, mask, dst, k0, row0, batch);
  } else {
    static_assert(Rows % kMnBlock == 0, "gemm_sm90: an MN-major tile (or multicast slice) must be whole 64-row blocks");
#pragma unroll
    for (int i = 0; i < Rows / kMnBlock; ++i) {
      if (mask == 0) SM90_TMA_LOAD::copy(map, full, dst + i * kMnBlockBytes, row0 + i * kMnBlock, k0, batch);
      else SM90_TMA_LOAD_MULTICAST::copy(map, full, mask, dst + i * kMnBlockBytes, row0 + i * kMnBlock, k0, batch);
    }
  }
}

// One tile's K loop for one consumer warpgroup: acc[h] += (64 rows of A starting at row a_row +
// 64 h) * (AccN rows of B starting at b_row)^T over every k-block, reading the ring's stages in
// order. One batch of wgmma stays in flight; the stage before it is released (by `releaser`,
// one thread of the warpgroup) as soon as its batch has completed.
template <class Mma, int Blocks, int AccN, GmmaMajor MajorA, GmmaMajor MajorB, class Ring, class State, class Storage>
CUTE_DSL_DEVICE void consume_k_loop(const Ring& ring, State& state, Storage& smem, int a_row, int b_row, int k_tiles,
                                    float (&acc)[Blocks][AccN / 2], bool releaser) {
#pragma unroll
  for (int h = 0; h < Blocks; ++h) {
#pragma unroll
    for (int i = 0; i < AccN / 2; ++i) acc[h][i] = 0.f;
    warpgroup_fence_operand(acc[h]);
  }
  State reading = state;  // the oldest stage whose wgmma may still be reading it
  for (int kt = 0; kt < k_tiles; ++kt, ++state) {
    ring.consumer_wait(state);
    const int s = int(state.index());
    warpgroup_arrive();
#pragma unroll
    for (int kk = 0; kk < kTileK / 16; ++kk) {  // k16 steps through the stage
#pragma unroll
      for (int h = 0; h < Blocks; ++h)
        Mma::fma(operand_desc<MajorA>(smem.a[s], a_row + 64 * h, kk), operand_desc<MajorB>(smem.b[s], b_row, kk), acc[h]);
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
// other's K loop) instead of sharing each tile (cooperative, 64 rows each). MajorA / MajorB:
// which dimension of A (M x K) / B (N x K) is contiguous in global memory. TileM: 128 (each
// consumer 64 rows), or 64 (skinny M: the consumers split TileN instead).
// (New parameters go last, with defaults: the JIT path names instantiations by these arguments.)
template <class TA, class TD, int TileN, int Stages, int ClusterM, bool PingPong = false,
          GmmaMajor MajorA = GmmaMajor::K, GmmaMajor MajorB = GmmaMajor::K, int TileM = gemm_sm90_impl::kTileM>
__global__ void __launch_bounds__(gemm_sm90_impl::kThreads, 1) gemm_sm90_kernel(const __grid_constant__ GemmSm90Params<TD> p) {
  using namespace gemm_sm90_impl;
  // Only an sm_90a pass compiles the body. Other passes of the same translation unit (the
  // compute_90 PTX that `nvcc -arch=sm_90a` also embeds, sm_80 in a fat binary) get a trap: the
  // kernel exists there (the host stub refers to it) but must never run.
  if constexpr (!arch::sm90a_features<TA>) {
    __trap();
  } else {
  constexpr bool kSplitN = TileM == 64;  // both consumers on the same 64 rows, TileN / 2 columns each
  static_assert(is_bf16<TA> || is_f16<TA>, "gemm_sm90_kernel: A and B must be __nv_bfloat16 or __half");
  static_assert(TileN % 64 == 0 && TileN >= 64 && TileN <= 256, "gemm_sm90_kernel: TileN must be 64, 128, 192 or 256");
  static_assert(Stages >= 2, "gemm_sm90_kernel: the ring needs at least 2 stages");
  static_assert(ClusterM == 1 || ClusterM == 2, "gemm_sm90_kernel: clusters of 1 or 2 CTAs along M");
  static_assert(!PingPong || TileN <= 128, "gemm_sm90_kernel: a ping-pong warpgroup holds 128 x TileN accumulators: TileN <= 128");
  static_assert((TileN / ClusterM) % 8 == 0, "gemm_sm90_kernel: each CTA's multicast slice of B must be whole 8-row swizzle atoms");
  static_assert(TileM == 128 || TileM == 64, "gemm_sm90_kernel: TileM must be 128 or 64");
  static_assert(!kSplitN || (!PingPong && ClusterM == 1), "gemm_sm90_kernel: 64-row tiles are cooperative, without clusters");
  static_assert(!kSplitN || MajorB == GmmaMajor::K || (TileN / 2) % kMnBlock == 0,
                "gemm_sm90_kernel: 64-row tiles with MN-major B split B at a 64-column block: TileN must be 128 or 256");
  using Storage = SharedStorage<TileN, Stages, TileM>;
  constexpr int kAccN = kSplitN ? TileN / 2 : TileN;  // columns of one consumer's wgmma
  using Mma = SM90_64xNx16_F32_SS<kAccN, is_bf16<TA> ? GmmaInput::bf16 : GmmaInput::f16, MajorA, MajorB>;
  constexpr cuda::std::uint32_t kStageBytes = Storage::kABytes + Storage::kBBytes;
  constexpr int kSliceRows = TileN / ClusterM;  // rows of the B tile this CTA loads and multicasts

  extern __shared__ cuda::std::uint8_t smem_raw[];
  // 16-bit D leaves through a 2 KiB block per consumer warp (gemm_epilogue.hpp). Static shared
  // memory, so the dynamic size (the ring) stays what launchers compute from SharedStorage.
  constexpr bool kStagedEpilogue = sizeof(TD) == 2;
  __shared__ alignas(16) unsigned char epilogue_stage[kStagedEpilogue ? 8 * kGemmEpilogueStageBytesPerWarp : 16];
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

  const GemmTileScheduler<TileM, TileN, ClusterM> scheduler(p.epilogue.m, p.epilogue.n, p.l);
  const int k_tiles = (p.k + kTileK - 1) / kTileK;
  const int tiles = scheduler.cluster_tiles();
  const int first = blockIdx.x / ClusterM, step = gridDim.x / ClusterM;

  if (warpgroup == 0) {
    // ---- producer ------------------------------------------------------------------------------
    arch::setmaxnreg_dec<kProducerRegisters>();
    if (threadIdx.x == 0) {
      prefetch_tma_descriptor(&p.tma_a);
      prefetch_tma_descriptor(&p.tma_b);
      constexpr unsigned short kMulticast = ClusterM == 1 ? 0 : (1u << ClusterM) - 1;
      auto state = pipeline::make_producer_start_state<Stages>();
      for (int t = first; t < tiles; t += step) {
        const GemmTile tile = scheduler.tile(t, cta_rank);
        for (int kt = 0; kt < k_tiles; ++kt, ++state) {
          ring.producer_acquire(state);  // stage empty in this CTA; its bytes announced on full
          const int s = int(state.index());
          const unsigned full = arch::shared_address(ring.producer_barrier(state));
          load_operand<MajorA, TileM>(&p.tma_a, full, smem.a[s], kt * kTileK, tile.m_block, tile.batch, 0);
          // Cluster: my slice of B, multicast into the same place of every CTA's stage s.
          load_operand<MajorB, kSliceRows>(&p.tma_b, full, smem.b[s] + cta_rank * kSliceRows * 128, kt * kTileK,
                                           tile.n_block + cta_rank * kSliceRows, tile.batch, kMulticast);
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
      // Which rows of A / of B this warpgroup multiplies: cooperative, its 64 rows of A and all of
      // B; 64-row tiles, all of A and its half of B; ping-pong, everything.
      const int a_row = PingPong || kSplitN ? 0 : 64 * consumer;
      const int b_row = kSplitN ? consumer * kAccN : 0;
      float acc[kBlocks][kAccN / 2];
      consume_k_loop<Mma, kBlocks, kAccN, MajorA, MajorB>(ring, state, smem, a_row, b_row, k_tiles, acc, thread_in_wg == 0);
      if constexpr (PingPong) {
        arch::mbarrier_arrive(&smem.turn[1 - consumer]);  // the other consumer's K loop may start
        ++my_tiles;
      }
#pragma unroll
      for (int h = 0; h < kBlocks; ++h) {
        const int row0 = tile.m_block + a_row + 64 * h, col0 = tile.n_block + b_row;
        if constexpr (kStagedEpilogue)
          gemm_store_accumulators_staged<TD, kAccN>(acc[h], p.epilogue, row0, col0, tile.batch, thread_in_wg,
                                                    epilogue_stage + (threadIdx.x / 32 - 4) * kGemmEpilogueStageBytesPerWarp);
        else
          gemm_store_accumulators<TD, kAccN>(acc[h], p.epilogue, row0, col0, tile.batch, thread_in_wg);
      }
    }
  }
  // Peers may still arrive on my barriers or multicast into my ring: stay until they are done.
  // (__syncwarp: the producer's lane 0 rejoins its warp before the .aligned cluster barrier.)
  if constexpr (ClusterM > 1) {
    __syncwarp();
    arch::cluster_sync();
  }
  }  // sm_90a
}

}  // namespace cute_dsl::kernels

#endif  // __CUDACC__ || __CUDACC_RTC__
