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
//     their K loops alternate, and one's epilogue overlaps the other's K loop (TileM = 64: a
//     64 x TileN tile each, TileN <= 256).
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
// Built from the library's parts (kernels/gemm_sm90_layouts.hpp): each operand's ring is a
// swizzled layout (rows, K, PIPE) in a SharedBuffer; TmaLoadAtoms load a stage (several boxes
// for MN-major, a multicast share per CTA of a cluster) through their partitions; the consumers
// are a TiledMMA whose partition_fragment_A/B of the rings are wgmma descriptor tensors and whose
// partition_C of an identity tensor tells the epilogue where each accumulator goes.
//
// 64-row tiles (TileM = 64, for skinny M): both consumer warpgroups share the 64 rows of A and
// split the TileN columns, each running 64 x TileN/2 wgmma.
//
// Fused trees (gemm_sm90_fused_kernel) may also carry communication across GPUs: a routing root
// (reduce-scatter / all-reduce: epilogue/gemm_reduce_scatter.hpp) hands whole tiles to helper
// warps of the producer warpgroup, a gating root (all-gather: epilogue/all_gather.hpp) makes the
// TMA producer wait per tile for its rows of A; either brings its own tile order.
//
// Shapes: any M, N, K, L >= 1. TMA (or copy_box, for operands whose base, leading dimension or
// batch stride is not 16-byte aligned: TmaLoads = false) fills rows/columns past the ends with
// zeros and the epilogue masks them. Few tiles: split-K (gemm_tile_scheduler.hpp). The launcher
// (gemm_sm90_launch.hpp) checks the rest. The body compiles in sm_90a passes only (wgmma,
// setmaxnreg); other passes get a trap.
#pragma once

#include "cute_dsl/config.hpp"
#include "cute_dsl/algorithm/copy_box.hpp"
#include "cute_dsl/atom/tma_atom.hpp"
#include "cute_dsl/kernels/gemm_epilogue.hpp"
#include "cute_dsl/kernels/gemm_sm90_configs.hpp"
#include "cute_dsl/kernels/gemm_tile_scheduler.hpp"

namespace cute_dsl::kernels {

// The kernel's parameters. The TMA atoms are template parameters so that the kernel gets its
// typed atoms (their boxes and partitions) while every instantiation has the same bytes: an
// atom is one TmaDescriptor. Host code that does not know the atom types (the JIT launcher,
// compiled by a host compiler) fills GemmSm90Params<TD> with plain descriptors.
template <class TD, class AtomA = TmaDescriptor, class AtomB = TmaDescriptor, class AtomC = TmaDescriptor,
          class AtomARows = TmaDescriptor>
struct GemmSm90Params {
  AtomA tma_a;  // K-major: (K, M, L), box (64, TileM); MN-major: (M, K, L), box (64, 64)
  AtomB tma_b;  // K-major: (K, N, L), box (64, TileN / ClusterM); MN-major: (N, K, L), box (64, 64)
  int k;
  int l;                            // batches
  GemmEpilogueParams<TD> epilogue;  // M, N, D, C, alpha, beta
  // A and B as plain strided tensors in the tensor maps' dimension order: what the copy producer
  // reads when TMA cannot describe an operand (TmaLoads = false); unused otherwise.
  GlobalBox<void> box_a, box_b;
  // Split-K (gemm_tile_scheduler.hpp): `splits` K ranges per split tile (<= 1: none), the cluster
  // tiles from `split_from` on split; then `partials` holds split tiles * splits * ClusterM *
  // TileM * TileN floats and `tile_counters` one zeroed int per CTA tile of a split tile (the last
  // split of a tile resets its counter, so it stays zeroed for the next launch).
  int splits;
  float* partials;
  int* tile_counters;
  int split_from;
  // An epilogue source through the ring (GemmSm90Source): a tile-routing tree's peers' partials,
  // (columns, rows, slot) boxes of 64 x 64. Last, so that the plain GEMM's fields keep their
  // offsets (the JIT's exported C twin); not read by kernels without such a tree.
  // The plain kernel's C instead when `c_in_ring` (gemm_sm90_impl::kTakesRingC): (columns, rows,
  // batch), boxes of 128 bytes x GemmSm90Source::kRows rows.
  AtomC tma_c;
  // Non-zero: the launcher described C in tma_c and the plain kernel starts each tile's
  // accumulators from (beta / alpha) * C, loaded through the operand ring ahead of its k-blocks,
  // instead of reading C in the epilogue (load_ring_c). Zero (the JIT's exported launch helper
  // zeroes the whole block): C from memory in the epilogue.
  int c_in_ring;
  // Stream-K (gemm_tile_scheduler.hpp): the split tiles streamed over this many ranges, one per
  // cluster of the grid at most (0: split-K as `splits` says). With it `splits` > 1 and the
  // workspace holds GemmStreamK::pieces_per_tile() slots per split tile. Zero from the JIT.
  int stream_ranges;
  // A again, in boxes of gemm_sm90_box_rows_a(TileM) rows (K-major; MN-major: tma_a's own 64-row
  // boxes): a last row block past M loads only the boxes that hold rows through it, every other
  // tile one box through tma_a (four boxes per stage instead of one ran 128 x 64 tiles 6-9% slower,
  // H200 2026-11-28). Last: the fields above keep their offsets.
  AtomARows tma_a_rows;
};

}  // namespace cute_dsl::kernels

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

#include <cuda/std/cstdint>

#include "cute_dsl/arch/named_barrier.hpp"
#include "cute_dsl/arch/sm90/cluster.hpp"
#include "cute_dsl/arch/sm90/fence.hpp"
#include "cute_dsl/arch/sm90/mbarrier.hpp"
#include "cute_dsl/arch/sm90/setmaxnreg.hpp"
#include "cute_dsl/arch/sm90/tma_copy.hpp"
#include "cute_dsl/arch/sm90/wgmma.hpp"
#include "cute_dsl/arch/system_flags.hpp"
#include "cute_dsl/epilogue/all_gather.hpp"
#include "cute_dsl/epilogue/gemm_reduce_scatter.hpp"
#include "cute_dsl/epilogue/gemm_visit.hpp"
#include "cute_dsl/kernels/gemm_sm90_layouts.hpp"
#include "cute_dsl/pipeline/async_pipeline.hpp"
#include "cute_dsl/pipeline/tma_pipeline.hpp"
#include "cute_dsl/tensor/identity_tensor.hpp"

// The 16-bit input types, declared so that the kernel can tell them apart without including
// <cuda_bf16.h> / <cuda_fp16.h> (costly under NVRTC); the caller includes the one it uses.
struct __nv_bfloat16;
struct __half;

namespace cute_dsl::kernels {

namespace gemm_sm90_impl {

constexpr int kTileM = 128;          // default: two consumer warpgroups x 64 rows
constexpr int kTileK = kGemmSm90TileK;
constexpr int kThreads = 384;        // producer + 2 consumer warpgroups
constexpr int kProducerRegisters = 40;
constexpr int kConsumerRegisters = 232;  // 128 * 40 + 256 * 232 = 64512 = 384 * 168
// setmaxnreg moves registers between the warpgroups of the CTA's own allocation, which
// __launch_bounds__(384, 1) caps at 168 per thread: an increase past what the others released
// waits forever.
constexpr int kLaunchRegisters = 384 * 168;
static_assert(128 * kProducerRegisters + 256 * kConsumerRegisters <= kLaunchRegisters,
              "gemm_sm90: the warpgroups' register budgets exceed the CTA's allocation (384 x 168)");
// The copy producer (TmaLoads = false) computes addresses and may stage chunks in registers.
constexpr int kCopyProducerRegisters = 104;
constexpr int kCopyConsumerRegisters = 200;  // 128 * 104 + 256 * 200 = 64512
static_assert(128 * kCopyProducerRegisters + 256 * kCopyConsumerRegisters <= kLaunchRegisters,
              "gemm_sm90: the copy path's register budgets exceed the CTA's allocation (384 x 168)");

// A tile's first element in the tensor maps' dimension order (contiguous dimension first).
CUTE_DSL_DEVICE inline TmaBox<3> origin(GmmaMajor major, int k0, int row0, int batch) {
  return major == GmmaMajor::K ? TmaBox<3>{{k0, row0, batch}} : TmaBox<3>{{row0, k0, batch}};
}

template <class Ring, class Storage>
CUTE_DSL_DEVICE Ring make_ring(Storage& barriers, pipeline::TmaPipelineParams const& params) {
  if constexpr (requires { Ring(barriers, params); }) return Ring(barriers, params);
  else return Ring(barriers);
}

// The operand as copy_box reads it (the kernel parameters hold it untyped).
template <class T>
CUTE_DSL_DEVICE GlobalBox<T> typed_box(GlobalBox<void> const& b) {
  return {static_cast<T const*>(b.ptr), {b.extent[0], b.extent[1], b.extent[2]}, {b.stride[0], b.stride[1]}};
}

// Everything the kernel derives from its template arguments.
template <class TA, int TileM, int TileN, int Stages, int ClusterM, bool PingPong, GmmaMajor MajorA, GmmaMajor MajorB>
struct Kernel {
  using OperandA = GemmSm90Operand<TA, MajorA, TileM, Stages>;
  // The same stages in A's row boxes: the last row block's loads (GemmSm90Params::tma_a_rows).
  using OperandARows = GemmSm90Operand<TA, MajorA, TileM, Stages, 1, MajorA == GmmaMajor::K ? gemm_sm90_box_rows_a(TileM) : TileM>;
  using OperandB = GemmSm90Operand<TA, MajorB, TileN, Stages, ClusterM>;  // B is shared (multicast) along the cluster
  using AtomA = typename OperandA::Atom;
  using AtomARows = typename OperandARows::Atom;
  using AtomB = typename OperandB::Atom;
  using TiledMma = decltype(gemm_sm90_tiled_mma<TA, TileM, TileN, PingPong, MajorA, MajorB>());
  static constexpr int kConsumerThreads = PingPong ? 128 : 256;  // threads of one TiledMMA
  static_assert(int(decltype(size(TiledMma{}))::value) == kConsumerThreads, "gemm_sm90: TiledMMA and consumer threads disagree");
  // 16-bit D leaves through a 2 KiB block per consumer warp (gemm_epilogue.hpp).
  static constexpr bool kStagedEpilogue = true;

  struct Storage {
    typename OperandA::Buffer a;
    typename OperandB::Buffer b;
    pipeline::PipelineStorage<Stages> barriers;  // full[s] / empty[s] of the ring
    cuda::std::uint64_t turn[2];                 // ping-pong: "consumer w may start its next K loop"
    int last_split[2];                           // split-K: "this split is its tile's last", per consumer group
  };
};

// consume_k_loop's default: the first k-block overwrites the accumulators.
struct NoAccumulatorStart {
  template <class Acc>
  CUTE_DSL_DEVICE void operator()(Acc&) const {}
};

// consume_k_loop's default: nothing between the last issue and the wait for it.
struct NoAfterIssue {
  CUTE_DSL_DEVICE void operator()() const {}
};

// The wgmma K loop of one tile for one consumer warpgroup: acc = A_tile * B_tile^T over every
// k-block, reading the ring's stages in order. One batch of wgmma stays in flight; the stage
// before it is released (by `releaser`, one thread of the warpgroup) once its batch completed.
// tCrA / tCrB: the thread's descriptor fragments of the whole rings, (1, MMA_M|N, K16 steps, PIPE).
// `start` (when `started`): the accumulators' starting values, added by start(acc) into zeros
// before the first k-block, whose product is then accumulated onto them (a ring source: the
// peers' partials). Called here, at the first iteration: zeroing and adding before the call
// instead made ptxas serialise every wgmma of the kernel (C7515, CUDA 13.0). `after_issue()` runs
// once the last batch is issued, before the wait for it (ping-pong: the other consumer's turn, so
// that its wgmma queue behind this batch instead of after it drained).
// @pre k_tiles >= 1 when started
template <class Mma, class Ring, class State, class FragA, class FragB, class Acc, class Start = NoAccumulatorStart,
          class AfterIssue = NoAfterIssue>
CUTE_DSL_DEVICE void consume_k_loop(Mma mma, const Ring& ring, State& state, FragA const& tCrA, FragB const& tCrB, Acc& acc,
                                    int k_tiles, bool releaser, bool started = false, Start const& start = {},
                                    AfterIssue const& after_issue = {}) {
  mma.accumulate = 0;  // the first k-block overwrites: no zero fill of the accumulators
  State reading = state;  // the oldest stage whose wgmma may still be reading it
  auto k_block = [&](int kt) {
    ring.consumer_wait(state);
    const int s = int(state.index());
    warpgroup_arrive();
    gemm(mma, acc, tCrA(_, _, _, s), tCrB(_, _, _, s), acc);
    mma.accumulate = 1;
    warpgroup_commit_batch();
    // Keep this batch in flight; the one before it has finished reading its stage.
    warpgroup_wait<1>();
    CUTE_DSL_UNROLL
    for (int i = 0; i < int(size(acc)); ++i) warpgroup_fence_operand(acc(i));
    if (kt > 0) {
      if (releaser) ring.consumer_release(reading);
      ++reading;
    }
    ++state;
  };
  int kt = 0;
  if constexpr (!is_same_v<Start, NoAccumulatorStart>) {
    if (started) {  // the first k-block peeled, after the start
      CUTE_DSL_UNROLL
      for (int i = 0; i < int(size(acc)); ++i) acc(i) = 0.f;
      start(acc);
      CUTE_DSL_UNROLL
      for (int i = 0; i < int(size(acc)); ++i) warpgroup_fence_operand(acc(i));
      mma.accumulate = 1;
      k_block(kt++);
    }
  }
  for (; kt < k_tiles; ++kt) k_block(kt);
  after_issue();
  warpgroup_wait<0>();
  CUTE_DSL_UNROLL
  for (int i = 0; i < int(size(acc)); ++i) warpgroup_fence_operand(acc(i));
  if (k_tiles > 0 && releaser) ring.consumer_release(reading);
}

// The shared split reduction's inner step: pieces [begin, end) of split 0's slot (16-byte pieces,
// `thread` + j x Threads for this thread) become their sums over `splits` slots `stride` pieces
// apart, added in split order (the same rounding whichever split sums). Pieces x Splits loads are
// in flight at once (the accumulators are dead here: they were stored). H200, per-CTA globaltimer
// stamps (2026-11-29, bench/results/gemm_session30_h200_2026-11-29.txt): one piece at a time, 8
// splits' loads, took the 128 x 256 tiles of 1024 x 1024 x 32768 (4 splits, 8 pieces per thread)
// 7.2-9.0 us, two pieces of 4 splits 2.3-3.6; but at 32 splits (256 x 256 x 131072) 16 splits
// per round took 5.1-6.1 us against 4.1-5.1 with 8, and 4 or 2 per round 4.9-5.6: many splits'
// sums are bound by something other than round trips (not found), so they keep 8 at a time.
// @pre every split's partials are in memory (the counter wait)
template <int Pieces, int Splits, int Threads>
CUTE_DSL_DEVICE void sum_split_share(float4* slot0, long long stride, int splits, long long begin, long long end, int thread) {
  for (long long i0 = begin + thread; i0 < end; i0 += (long long)Pieces * Threads) {
    float4 sum[Pieces];
    CUTE_DSL_UNROLL
    for (int u = 0; u < Pieces; ++u) sum[u] = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int s0 = 0; s0 < splits; s0 += Splits) {
      float4 part[Pieces][Splits];
      CUTE_DSL_UNROLL
      for (int u = 0; u < Pieces; ++u)
        CUTE_DSL_UNROLL
        for (int g = 0; g < Splits; ++g)
          part[u][g] = s0 + g < splits && i0 + u * Threads < end ? __ldcg(slot0 + (s0 + g) * stride + i0 + u * Threads)
                                                                 : make_float4(0.f, 0.f, 0.f, 0.f);
      CUTE_DSL_UNROLL
      for (int u = 0; u < Pieces; ++u)
        CUTE_DSL_UNROLL
        for (int g = 0; g < Splits; ++g)
          if (s0 + g < splits) sum[u].x += part[u][g].x, sum[u].y += part[u][g].y, sum[u].z += part[u][g].z, sum[u].w += part[u][g].w;
    }
    CUTE_DSL_UNROLL
    for (int u = 0; u < Pieces; ++u)
      if (i0 + u * Threads < end) __stcg(slot0 + i0 + u * Threads, sum[u]);
  }
}

// Split-K: this split's accumulators go to its workspace slot in 16-byte quads (values 4q..4q+3
// of thread t -- one 8-column group of the wgmma fragment, two rows -- at quad q * Threads + t:
// each store instruction of the group is contiguous, and a quarter as many as 4-byte stores,
// which held the load/store queue), then the group's thread 0 counts the split in on the tile's
// counter. The split that arrives last adds every split's partial sums in split order
// (deterministic) into `acc` and returns true: it runs the epilogue; the others return false.
// Quads whose two rows are both past M are neither stored nor read (decode: M = 1 moves 2 rows,
// not 64); a quad with one row past M carries that row's values along, which no store reads.
// `threads` consumer threads take part, synchronised by named barrier `barrier`.
// `slot`: the CTA tile's workspace slot (its split tile's index x ClusterM + its rank in the cluster).
// `shared` (a whole tile of rows, 3 splits or more): the reduction is shared instead -- every split
// waits until all have stored, sums its 1/splits of the tile over every split (split order) into
// split 0's slot, counts in again, and the last to do so loads the sums. One tile's worth of reads
// per split instead of `splits` tiles' worth by the last one, which, one L2 round trip per chunk
// of 32 values and split, made the reduction the long pole of a few tiles over a huge K (32
// splits of a 128 x 128 tile: 64 round trips). Waiting is safe where every split of a
// tile is resident at once or behind work that never waits: the persistent grid holds every CTA,
// and a tile's splits are at most the clusters of the grid apart (gemm_sm90_plan_splits).
template <int Threads, class Acc, class Crd>
CUTE_DSL_DEVICE bool reduce_split(Acc& acc, Crd const& crd, float* partials, int* counters, int slot, GemmWork const& w,
                                  int rows_left, int thread, unsigned barrier, int& last_flag, bool shared = false) {
  constexpr int kValues = int(decltype(size(acc))::value);
  static_assert(kValues % 4 == 0, "reduce_split: whole quads of accumulator values");
  constexpr int kQuads = kValues / 4;
  constexpr long long kSlot = (long long)kValues * Threads;
  const int splits = w.splits;
  float* tile_partials = partials + (long long)slot * w.slots * kSlot;
  // Whether quad q holds a row below M (its four values: two columns of two rows).
  const auto quad_live = [&](int q) { return gemm_value_row(crd, 4 * q) < rows_left || gemm_value_row(crd, 4 * q + 3) < rows_left; };
  const auto quad_of = [&](float const* split_partials, int q) {  // this thread's quad q of a split's partials
    return __ldcg(reinterpret_cast<float4 const*>(split_partials) + q * Threads + thread);
  };
  float4* mine = reinterpret_cast<float4*>(tile_partials + w.split * kSlot);
  CUTE_DSL_UNROLL
  for (int q = 0; q < kQuads; ++q)
    if (quad_live(q)) mine[q * Threads + thread] = make_float4(acc(4 * q), acc(4 * q + 1), acc(4 * q + 2), acc(4 * q + 3));
  if (shared) {
    unsigned* counter = reinterpret_cast<unsigned*>(&counters[slot]);
    arch::named_barrier_sync(barrier, Threads);
    if (thread == 0) {
      arch::flag_fetch_add_acq_rel_gpu(counter, 1u);
      arch::flag_wait_count_gpu(counter, unsigned(splits));
    }
    arch::named_barrier_sync(barrier, Threads);
    // This split's share of the slot, in 16-byte pieces, summed over the splits in order.
    static_assert(kSlot % 4 == 0, "reduce_split: whole 16-byte pieces");
    constexpr long long kPieces = kSlot / 4;
    const long long begin = kPieces * w.split / splits, end = kPieces * (w.split + 1) / splits;
    float4* slot0 = reinterpret_cast<float4*>(tile_partials);
    // Up to 16 loads in flight per thread over 8 splits or fewer (8 beside the 128 x 256 tile's 128
    // accumulators: 16 spilled there), eight splits at a time beyond 8 (sum_split_share). A thread
    // has kValues / (4 x splits) pieces: at 128 x 64 (32 values) 2 at 4 splits and 1 at 8, fewer
    // than the 4 / 2 loaded at once there, whose extra slots are predicated off (not retuned).
    constexpr int kInFlight = kValues >= 128 ? 8 : 16;
    if (splits <= 4) sum_split_share<kInFlight / 4, 4, Threads>(slot0, kSlot / 4, splits, begin, end, thread);
    else if (splits <= 8) sum_split_share<kInFlight / 8, 8, Threads>(slot0, kSlot / 4, splits, begin, end, thread);
    else sum_split_share<1, 8, Threads>(slot0, kSlot / 4, splits, begin, end, thread);
    arch::named_barrier_sync(barrier, Threads);
    if (thread == 0) {
      const unsigned before = arch::flag_fetch_add_acq_rel_gpu(counter, 1u);
      last_flag = before == unsigned(2 * splits - 1);
      if (last_flag) *counter = 0;  // every split has passed its wait: ready for the next launch
    }
    arch::named_barrier_sync(barrier, Threads);
    if (!last_flag) return false;
    CUTE_DSL_UNROLL
    for (int q = 0; q < kQuads; ++q) {
      const float4 sum = quad_of(tile_partials, q);
      acc(4 * q) = sum.x, acc(4 * q + 1) = sum.y, acc(4 * q + 2) = sum.z, acc(4 * q + 3) = sum.w;
    }
    return true;
  }
  // The group's partials, then one acq_rel count by thread 0: the barrier orders every thread's
  // stores before its release, and its acquire (of the earlier splits' releases) before the
  // other threads' reads after the second barrier, instead of a __threadfence by every thread
  // on each side.
  arch::named_barrier_sync(barrier, Threads);
  if (thread == 0) {
    const unsigned before = arch::flag_fetch_add_acq_rel_gpu(reinterpret_cast<unsigned*>(&counters[slot]), 1u);
    last_flag = before == unsigned(splits - 1);
    if (last_flag) counters[slot] = 0;  // every split has arrived: ready for the next launch
  }
  arch::named_barrier_sync(barrier, Threads);
  if (!last_flag) return false;
  // The sum in split order, whichever split came last (its own partials are in memory too): the
  // same rounding every run. Quads in chunks of kChunk, splits in groups of kGroup: a group's
  // loads are all in flight before the first add, so a tile waits one L2 round trip per chunk
  // and group. 128 values' loads in flight at once (the 128 x 256 tiles) spilled; a small tile
  // (the 64-row decode tiles: 16 or 32 values) takes 4 or 2 splits at once.
  constexpr int kChunk = kQuads < 8 ? kQuads : kQuads % 8 == 0 ? 8 : 4;  // quads; 12 (64 x 192 tiles): 4
  constexpr int kGroup = kValues <= 16 ? 4 : kValues <= 32 ? 2 : 1;
  static_assert(kQuads % kChunk == 0, "reduce_split: whole chunks of quads");
  CUTE_DSL_UNROLL
  for (int v = 0; v < kValues; ++v) acc(v) = 0.f;
  CUTE_DSL_UNROLL
  for (int c = 0; c < kQuads; c += kChunk) {
    for (int s0 = 0; s0 < splits; s0 += kGroup) {
      float4 part[kGroup][kChunk];
      CUTE_DSL_UNROLL
      for (int g = 0; g < kGroup; ++g) {
        // A group past the last split reads nothing; its address stays inside the slot anyway.
        float const* from = tile_partials + (s0 + g < splits ? s0 + g : splits - 1) * kSlot;
        CUTE_DSL_UNROLL
        for (int q = c; q < c + kChunk; ++q)
          part[g][q - c] = s0 + g < splits && quad_live(q) ? quad_of(from, q) : make_float4(0.f, 0.f, 0.f, 0.f);
      }
      CUTE_DSL_UNROLL
      for (int g = 0; g < kGroup; ++g)
        CUTE_DSL_UNROLL
        for (int q = c; q < c + kChunk; ++q) {
          const float4 x = part[g][q - c];
          acc(4 * q) += x.x, acc(4 * q + 1) += x.y, acc(4 * q + 2) += x.z, acc(4 * q + 3) += x.w;
        }
    }
  }
  return true;
}

// `call` carrying the L2 policy `policy` where WithPolicy, else as it is (the plain instruction).
template <bool WithPolicy, class Call>
CUTE_DSL_DEVICE auto with_l2_policy_if(Call const& call, unsigned long long policy) {
  if constexpr (WithPolicy) return call.with_l2_policy(policy);
  else return call;
}

// The TMA producer's loads of one unit of work, k-blocks [work.k_begin, work.k_end): A's tile (only
// its first `boxes_a` row boxes through tma_a_rows where the tile's rows run past M) and this CTA's
// share of B's (multicast), into the ring's next stages; with EvictFirst every load carries an L2
// evict_first policy (run() chooses once per launch, GemmTileScheduler::loads_evict_first; a function
// per choice, so that no load branches between the two instructions).
// @pre the producer thread; `bytes` = the transaction bytes of one stage
template <bool EvictFirst, bool EdgeTiles, GmmaMajor MajorA, GmmaMajor MajorB, class Ring, class State, class Params, class SliceA,
          class SliceARows, class SliceB, class TensorA, class TensorARows, class TensorB>
CUTE_DSL_DEVICE void load_k_blocks(Ring const& ring, State& state, unsigned bytes, GemmWork const& work, GemmTile const& tile, bool rows_past_m,
                                   int boxes_a, Params const& p, SliceA const& tma_a, SliceARows const& tma_a_rows, SliceB const& tma_b,
                                   unsigned short multicast, TensorA const& sA, TensorARows const& sA_rows, TensorB const& sB) {
  unsigned long long policy = 0;  // made once per unit of work, not per load
  if constexpr (EvictFirst) policy = l2_evict_first_policy<Params>();
  for (int kt = work.k_begin; kt < work.k_end; ++kt, ++state) {
    ring.producer_acquire(state, bytes);  // stage empty in this CTA; its bytes announced on full
    auto& full = *ring.producer_barrier(state);
    const int s = int(state.index());
    const TmaBox<3> box_a = origin(MajorA, kt * kTileK, tile.m_block, tile.batch);
    if constexpr (EdgeTiles) {
      if (rows_past_m)
        copy(with_l2_policy_if<EvictFirst>(p.tma_a_rows.with(full), policy), tma_a_rows.partition_S(box_a),
             tma_a_rows.partition_D(sA_rows(_, _, _, s)), boxes_a);
      else
        copy(with_l2_policy_if<EvictFirst>(p.tma_a.with(full), policy), tma_a.partition_S(box_a), tma_a.partition_D(sA(_, _, _, s)));
    } else {
      copy(with_l2_policy_if<EvictFirst>(p.tma_a.with(full), policy), tma_a.partition_S(box_a), tma_a.partition_D(sA(_, _, _, s)));
    }
    copy(with_l2_policy_if<EvictFirst>(p.tma_b.with(full, multicast), policy),
         tma_b.partition_S(origin(MajorB, kt * kTileK, tile.n_block, tile.batch)), tma_b.partition_D(sB(_, _, _, s)));
  }
}

// One source stage (GemmSm90Source: kRows rows of the tile) into the B buffer of the ring's stage
// `state`: box `box` of tma_c, (columns, rows, slot or batch); the stage's full barrier expects
// its bytes only.
template <class TD, int TileN, class AtomC, class Ring, class State, class RingB>
CUTE_DSL_DEVICE void load_source_stage(AtomC const& tma_c, Ring const& ring, State const& state, RingB const& ring_b, TmaBox<3> box) {
  using Source = GemmSm90Source<TD, TileN>;
  ring.producer_acquire(state, Source::stage_bytes);
  auto sC = make_tensor(make_smem_ptr(reinterpret_cast<TD*>(&ring_b(0, 0, int(state.index())))), typename Source::TmaStage{});
  const auto thr = tma_c.get_slice(0);
  copy(tma_c.with(*ring.producer_barrier(state)), thr.partition_S(box), thr.partition_D(sC));
}

// An accumulator source through the operand ring (GemmSm90Source; a tile-routing tree's peers'
// partials, epilogue::route_ring_sources): BEFORE a tile's k-blocks the TMA producer loads
// `sources` stages of 64 rows -- each peer's rows of the tile (slot order), 64 at a time -- into
// the B buffers of the ring's next stages, once the peers' chunks of them have arrived. Issued
// there, they land while the consumers finish the previous tile (its last k-blocks and its
// epilogue); issued after the tile's k-blocks (session 7) they landed only 2-3 k-blocks ahead of
// the epilogue that waited for them.
// That the chunks arrived, the producer learns from `ready` (a 2-stage pipeline that
// wait_for_ring_sources fills, one stage per tile with sources): an mbarrier wait, not a
// system-scope acquire per tile and peer on the producer's path. (Moved to warp 2 instead, in
// session 7, it was slower: warp 2 meets the consumers at every tile's hand-off, so it could wait
// for a tile's chunks only once the consumers were done with the tile before, which is when the
// producer needs them. Warp 3 meets no one.)
// @pre the producer thread, before the tile's k-blocks; the consumers consume as many stages
template <class TD, int TileM, int TileN, int ClusterM, class AtomC, class Ring, class State, class RingB, class Fusion, class Ready,
          class ReadyState>
CUTE_DSL_DEVICE void load_ring_sources(AtomC const& tma_c, Ring const& ring, State& state, RingB const& ring_b, Fusion const& fusion,
                                       GemmTile const& tile, int cta_rank, Ready const& ready, ReadyState& ready_state) {
  using Source = GemmSm90Source<TD, TileN>;
  constexpr int kStagesPerPeer = TileM / Source::kRows;
  const int sources = epilogue::route_ring_sources<TileM, ClusterM>(fusion, tile.m_block - cta_rank * TileM);
  if (sources == 0) return;
  // wait_for_ring_sources acquired the flags (system scope), then arrived (a CTA-scope release
  // this wait acquires); order that before TMA's reads (the async proxy).
  ready.consumer_wait(ready_state);
  ready.consumer_release(ready_state);
  ++ready_state;
  arch::fence_view_async_global();
  const int row = tile.m_block - fusion.owners().begin(fusion.window.rank);  // in the received rows
  for (int i = 0; i < sources; ++i, ++state)
    load_source_stage<TD, TileN>(tma_c, ring, state, ring_b, TmaBox<3>{{tile.n_block, row + Source::kRows * (i % kStagesPerPeer), i / kStagesPerPeer}});
}

// The plain kernel's C through the operand ring (p.c_in_ring): before a tile's k-blocks the TMA
// producer loads the tile's C, 64 (16-bit) or 32 (f32) rows per stage, into the B buffers of the
// ring's next stages (zeros past M and N); the consumers start the accumulators from (beta / alpha) * C
// (add_ring_sources) and the epilogue runs with beta = 0. Issued there, C lands while the
// consumers finish the previous tile, where the epilogue's own reads of C waited on memory once
// per 16 x 64 block (the beta = 1 shapes ran at 0.87-0.92x of cuBLAS that way, 2026-11-27).
// (C on a CTA's first tile, but 16-bit C in 128 x 256 tiles: after its k-blocks instead, added
// once the K loop drained: run's kRingCAfter.)
// @pre the producer thread, before (or, as above, after) the tile's k-blocks; the consumers consume TileM / Source::kRows stages
template <class TD, int TileM, int TileN, class AtomC, class Ring, class State, class RingB>
CUTE_DSL_DEVICE void load_ring_c(AtomC const& tma_c, Ring const& ring, State& state, RingB const& ring_b, GemmTile const& tile) {
  using Source = GemmSm90Source<TD, TileN>;
  CUTE_DSL_UNROLL
  for (int i = 0; i < TileM / Source::kRows; ++i, ++state)
    load_source_stage<TD, TileN>(tma_c, ring, state, ring_b, TmaBox<3>{{tile.n_block, tile.m_block + Source::kRows * i, tile.batch}});
}

// The other side of load_ring_sources' `ready`: one thread of an otherwise idle warp walks the
// CTA's tiles ahead of the producer and, for each tile with ring sources, waits until every
// peer's chunk of it arrived (the same flags, in the same order of tiles) and fills a stage.
// Nothing waits for this thread but the producer, so its early waits hold up nothing else (the
// deadlock argument of epilogue/gemm_reduce_scatter.hpp is unchanged: the producer waits for
// the same chunks at the same point of its tile sequence). A tile of the chunk acquired last
// acquires nothing again (that acquire came before this arrival): an acquire is LDG.STRONG.SYS +
// CCTL.IVALL (every L1 line of the SM dropped), and one per tile and peer cost the kernel ~15 us
// at 8192^3 over 2 and 4 ranks, wherever it ran; one per chunk, ~5 (bench/dist/rs_kernel_alone,
// H100, 2026-11-27; docs/design/distributed.md, session 10).
// @pre one thread; Sources(tile) is route_ring_sources of the tile, as the producer computes it
template <class Scheduler, class Fusion, class Ready, class Sources>
CUTE_DSL_DEVICE void wait_for_ring_sources(Scheduler const& scheduler, Fusion const& fusion, Ready const& ready, int first, int step,
                                           int tiles, int cta_rank, int splits, int k_tiles, Sources const& sources_of) {
  auto state = pipeline::make_producer_start_state<Ready::State::stages>();
  int acquired = -1;  // the chunk whose flags this thread acquired last
  for (int t = first; t < tiles; t += step) {
    const GemmTile tile = scheduler.work(t, cta_rank, splits, k_tiles).tile;
    if (sources_of(tile) == 0) continue;
    ready.producer_acquire(state);
    if (const int chunk = epilogue::route_own_tile_chunk(fusion, tile.m_block, tile.n_block); chunk != acquired) {
      epilogue::route_wait_for_peers(fusion, tile.m_block, tile.n_block);
      acquired = chunk;
    }
    ready.producer_commit(state);
    ++state;
  }
}

// The consumers' side: acc += scale * each source stage, in stage order (peers in rank order, each
// warp the stage of its 16 rows), f32. Both warpgroups release all stages of a peer once the
// warpgroup read its own (named barrier `barrier`, per warpgroup), so that the producer refills
// them while the next peer's are read. (The plain kernel's C is one "peer", scaled by beta /
// alpha: load_ring_c.)
// InOrder: gemm_add_source_block's (the plain kernel's C: ldmatrix only).
// @pre every thread of both consumer warpgroups calls it, before the tile's first k-block (consume_k_loop's start),
// or after its last has drained (the plain kernel's C on a CTA's first tile: run's kRingCAfter)
// @pre InOrder implies gemm_fragment_in_matrix_order(crd(_, h, n), thread_in_wg % 32) for every
// block: wgmma's accumulators are in that order (the GPU tests of the ring paths would fail
// otherwise). Not checked at run time: a check, inside or before the tile loop, cost 40 bytes of
// stack or ~1200 SASS instructions in the 128 x 192 tile (ptxas, CUDA 13.0, 2026-11-27).
template <class TD, int TileN, bool InOrder = false, class Ring, class State, class RingB, class Acc, class Crd>
CUTE_DSL_DEVICE void add_ring_sources(Ring const& ring, State& state, RingB const& ring_b, Acc& acc, Crd const& crd, int sources, int consumer,
                                      int thread_in_wg, unsigned barrier, float scale = 1.f) {
  using Source = GemmSm90Source<TD, TileN>;
  // Cooperative 128-row tiles: a peer's (or C's) rows in 2 stages of 64 (16-bit) or 4 of 32 (f32);
  // warpgroup c's 64 rows are stages c (16-bit) or 2c, 2c + 1 (f32), each warp's 16 rows in one.
  constexpr int kStagesPerPeer = 128 / Source::kRows;
  static_assert(kStagesPerPeer == 2 || kStagesPerPeer == 4, "add_ring_sources: 64- or 32-row source stages of a 128-row tile");
  const int my_stage = kStagesPerPeer == 2 ? consumer : consumer * 2 + (thread_in_wg / 32) / 2;
  for (int j = 0; j < sources; j += kStagesPerPeer) {
    State mine = state;
    mine.advance(unsigned(j + my_stage));
    ring.consumer_wait(mine);
    const auto src = make_tensor(make_smem_ptr(reinterpret_cast<TD const*>(&ring_b(0, 0, int(mine.index())))), typename Source::Stage{});
    CUTE_DSL_UNROLL
    for (int h = 0; h < int(size<1>(acc)); ++h)
      CUTE_DSL_UNROLL
      for (int n = 0; n < int(size<2>(acc)); ++n) {
        auto block = acc(_, h, n);
        CUTE_DSL_UNROLL
        for (int b = 0; b < int(size(block)) / 32; ++b)  // 64-column blocks: 32 values per thread
          gemm_add_source_block<TD, InOrder>(block, crd(_, h, n), b, src, Source::kRows * my_stage, thread_in_wg % 32, scale);
      }
    // The peer's other stages have landed too before this warpgroup releases them: a parity
    // wait tells only a phase's parity, so a warpgroup that skipped a phase of a stage (a source
    // it did not read, still in flight) would take that phase for the next one and read the
    // stage early when it next waits on it (a k-block, or a later tile's source): with 4 GPUs
    // (6 source stages through 4) it did, intermittently (2026-11-27, H100 x4).
    if constexpr (kStagesPerPeer == 2) {  // the other warpgroup's stage
      State other = state;
      other.advance(unsigned(j + 1 - consumer));
      ring.consumer_wait(other);
    } else {
      CUTE_DSL_UNROLL
      for (int k = 0; k < kStagesPerPeer; ++k) {
        if (k == my_stage) continue;
        State other = state;
        other.advance(unsigned(j + k));
        ring.consumer_wait(other);
      }
    }
    arch::named_barrier_sync(barrier, 128);
    if (thread_in_wg == 0) {
      State done = state;
      done.advance(unsigned(j));
      for (int k = 0; k < kStagesPerPeer; ++k, ++done) ring.consumer_release(done);
    }
  }
  state.advance(unsigned(sources));
}

}  // namespace gemm_sm90_impl

template <class TA, int TileN, int Stages, int ClusterM, bool PingPong = false, GmmaMajor MajorA = GmmaMajor::K,
          GmmaMajor MajorB = GmmaMajor::K, int TileM = gemm_sm90_impl::kTileM>
using GemmSm90KernelTraits = gemm_sm90_impl::Kernel<TA, TileM, TileN, Stages, ClusterM, PingPong, MajorA, MajorB>;

// Bytes of dynamic shared memory the kernel needs (its Storage, aligned).
template <class TA, int TileN, int Stages, int ClusterM, bool PingPong = false, GmmaMajor MajorA = GmmaMajor::K,
          GmmaMajor MajorB = GmmaMajor::K, int TileM = gemm_sm90_impl::kTileM>
inline constexpr int gemm_sm90_shared_bytes =
    shared_storage_bytes<typename GemmSm90KernelTraits<TA, TileN, Stages, ClusterM, PingPong, MajorA, MajorB, TileM>::Storage>;

// The parameter block of an instantiation (its typed TMA atoms).
template <class TA, class TD, int TileN, int Stages, int ClusterM, bool PingPong = false, GmmaMajor MajorA = GmmaMajor::K,
          GmmaMajor MajorB = GmmaMajor::K, int TileM = gemm_sm90_impl::kTileM>
using GemmSm90KernelParams =
    GemmSm90Params<TD, typename GemmSm90KernelTraits<TA, TileN, Stages, ClusterM, PingPong, MajorA, MajorB, TileM>::AtomA,
                   typename GemmSm90KernelTraits<TA, TileN, Stages, ClusterM, PingPong, MajorA, MajorB, TileM>::AtomB,
                   typename GemmSm90SourceAtom<TD, TileN>::type,
                   typename GemmSm90KernelTraits<TA, TileN, Stages, ClusterM, PingPong, MajorA, MajorB, TileM>::AtomARows>;

// TA: the input type (__nv_bfloat16 or __half) of A and B; TD: the output type (float,
// __nv_bfloat16 or __half); TileN in {64, 128, 192, 256} columns per CTA (16 and 32 too, for the
// swapped decode tiles: cooperative, 128 rows, B K-major; 48 for 64-row cooperative tiles over a
// K-major B); Stages in the ring;
// ClusterM CTAs per cluster along M (1 or 2), launched with that cluster shape. PingPong: the
// two consumer warpgroups take turns on whole 128 x TileN tiles (one's epilogue overlaps the
// other's K loop) instead of sharing each tile (cooperative, 64 rows each). MajorA / MajorB:
// which dimension of A (M x K) / B (N x K) is contiguous in global memory. TileM: 128 (each
// consumer 64 rows), or 64 (skinny M: the consumers split TileN instead).
// (New parameters go last, with defaults: the JIT path names instantiations by these arguments.)
// TmaLoads false: the producer warpgroup fills the same rings with ordinary loads (copy_box), for
// operands a tensor map cannot describe; clusters of 1 only. TransposeD: the launcher swapped A
// and B (GemmSm90Config::swap_ab), so the kernel's D is the user's D^T, stored transposed.
namespace gemm_sm90_impl {

// The plain epilogue (D = alpha * acc + beta * C): what gemm_sm90_kernel runs. A fused kernel
// (gemm_sm90_fused_kernel) passes an epilogue tree instead (epilogue/gemm_visit.hpp).
struct NoFusion {};

// Does this instantiation take a routed tree's own tiles' peer partials through the operand ring
// (epilogue::route_ring_sources)? A tile-routing tree whose partial is the accumulator itself
// (the peers' sums become the tile's starting accumulators: a child that transforms the partial,
// e.g. a scale, would be applied to the sum), TMA loads, cooperative 128-row tiles (warpgroup c
// adds the rows of stage c of each peer), 16-bit D (a source stage fills a B stage). The kernel
// and its launcher (which builds the sources' tensor map) ask the same question here.
template <class Fusion, class TD, int TileM, bool PingPong, bool TmaLoads>
inline constexpr bool kTakesRingSources = epilogue::RoutesTiles<Fusion> && epilogue::kEvaluatesToAccumulator<Fusion> && TmaLoads &&
                                          !PingPong && TileM == 128 && sizeof(TD) == 2;

// Can this plain instantiation take beta's C through the operand ring (load_ring_c)? The same
// part as the ring sources: TMA loads, cooperative 128-row tiles, 16-bit or f32 D in whole
// 64-column blocks (a source stage fills a B stage), D not transposed. The launcher sets
// p.c_in_ring where the arguments allow it too (gemm_sm90_c_through_ring).
template <class TD, int TileM, int TileN, bool PingPong, bool TmaLoads, bool TransposeD>
inline constexpr bool kTakesRingC = TmaLoads && !PingPong && TileM == 128 && (sizeof(TD) == 2 || is_same_v<TD, float>) &&
                                    TileN % 64 == 0 && !TransposeD;

// The kernel's static shared memory: 16-bit D leaves through a 2 KiB block per consumer warp
// (gemm_epilogue.hpp), other outputs need none (a 16-byte placeholder). Static, so that the
// dynamic size stays what launchers compute from Storage; the two together must fit a CTA.
template <class TD, bool TransposeD>
inline constexpr int kEpilogueStageBytes = sizeof(TD) == 2 && !TransposeD ? 8 * kGemmEpilogueStageBytesPerWarp : 16;
// sm_90's opt-in shared memory per CTA.
inline constexpr int kMaxSharedBytesPerCta = 227 * 1024;

// The kernel's body, shared by the plain and the fused kernel. Inlined into each, so that the
// plain kernel's code is what it was before the fused one existed (same SASS: checked with
// `nvcc -cubin` before and after, 2026-11-25).
// SplitK = false and EdgeTiles = false compile paths out for a caller that knows they never run
// (the JIT, which compiles per launch: it never splits, and it knows whether M and N are whole
// tiles). Each path costs compile time: the five-node fused epilogue's CUBIN is ~134 KB with
// both, ~74 KB without (docs/design/jit.md). A launch that breaks the promise traps.
// CThroughRing = false compiles the plain kernel's ring path for C out (the JIT's plain kernel:
// its launch never describes C; p.c_in_ring is ignored).
// @pre SplitK || p.splits <= 1
// @pre EdgeTiles || (M % (TileM * ClusterM) == 0 && N % TileN == 0)
template <class TA, class TD, int TileN, int Stages, int ClusterM, bool PingPong, GmmaMajor MajorA, GmmaMajor MajorB, int TileM,
          bool TmaLoads, class Fusion, bool TransposeD = false, bool SplitK = true, bool EdgeTiles = true, bool CThroughRing = true>
__device__ __forceinline__ void run(GemmSm90KernelParams<TA, TD, TileN, Stages, ClusterM, PingPong, MajorA, MajorB, TileM> const& p,
                                    Fusion const& fusion) {
  (void)fusion;  // NoFusion: unused
  // Only an sm_90a pass compiles the body. Other passes of the same translation unit (the
  // compute_90 PTX that `nvcc -arch=sm_90a` also embeds, sm_80 in a fat binary) get a trap: the
  // kernel exists there (the host stub refers to it) but must never run; the launchers refuse
  // devices other than sm_90.
  if constexpr (!arch::sm90a_features<TA>) {
    __trap();
  } else {
  // 64-row tiles: cooperative, both consumers on the same 64 rows, TileN / 2 columns each; or
  // ping-pong, each consumer a whole 64 x TileN tile (one m64nN wgmma per k-step, like a
  // cooperative 128 x TileN consumer's: the same shared-memory reads per flop). 192-row tiles
  // split N the same way (each consumer 192 x TileN / 2: three m64 atoms per k-step), cooperative
  // only: a 192 x 192 tile in clusters of 2 asks the L2 for as few operand rows per flop as 128 x
  // 256 in clusters of 2, in finer waves (rows off 128-byte lines: gemm_sm90_heuristic.hpp).
  constexpr bool kSplitN = TileM != 128 && !PingPong;
  static_assert(has_gmma_input_v<TA>, "gemm_sm90_kernel: A and B must be __nv_bfloat16 or __half");
  static_assert(TileN % 64 == 0 || TileN == 16 || TileN == 32 || TileN == 48 || TileN == 96 || TileN == 160 || TileN == 224,
                "gemm_sm90_kernel: TileN must be 16, 32, 48, 64, 96, 128, 160, 192, 224 or 256");
  static_assert(TileN >= 16 && TileN <= 256 && (TileN / ClusterM) % 8 == 0, "gemm_sm90_kernel: TileN / ClusterM must be whole 8-row atoms");
  // Below 64 columns B is part of one 128-byte swizzle block: K-major only, and a 64-row tile
  // splits it between the consumers at a whole 8-row atom (48: 24 columns each).
  static_assert(TileN % 64 == 0 || (!PingPong && MajorB == GmmaMajor::K && (TileM == 128 || (TileN / 2) % 8 == 0)),
                "gemm_sm90_kernel: tiles narrower than 64 columns are cooperative over a K-major B (64 rows: TileN / 2 whole 8-row atoms)");
  // TransposeD: the launcher swapped A and B (swap-AB, for a few rows of A: they become wgmma's N),
  // so this kernel computes D^T and stores it transposed (gemm_store_accumulators).
  static_assert(!TransposeD || is_same_v<Fusion, NoFusion>, "gemm_sm90_kernel: a transposed D is the plain epilogue's only");
  static_assert(Stages >= 2, "gemm_sm90_kernel: the ring needs at least 2 stages");
  static_assert(ClusterM == 1 || ClusterM == 2, "gemm_sm90_kernel: clusters of 1 or 2 CTAs along M");
  static_assert(!PingPong || TileM * TileN <= 128 * 128,
                "gemm_sm90_kernel: a ping-pong warpgroup holds TileM x TileN accumulators: at most 128 x 128 (64 x 256)");
  static_assert(TileM == 128 || TileM == 64 || (TileM == 192 && !PingPong), "gemm_sm90_kernel: TileM must be 128 or 64, or 192 cooperative");
  static_assert(TileM != 64 || PingPong || ClusterM == 1, "gemm_sm90_kernel: 64-row cooperative tiles run without clusters");
  static_assert(TmaLoads || ClusterM == 1, "gemm_sm90_kernel: the copy producer does not multicast: clusters of 1");
  static_assert(!kSplitN || MajorB == GmmaMajor::K || (TileN / 2) % 64 == 0,
                "gemm_sm90_kernel: split-N tiles with MN-major B split B at a 64-column block: TileN must be 128 or 256");
  using K = Kernel<TA, TileM, TileN, Stages, ClusterM, PingPong, MajorA, MajorB>;
  using Storage = typename K::Storage;
  constexpr int kAccN = kGemmSm90AtomN<TileM, TileN, PingPong>;  // columns of one consumer's wgmma atom

  extern __shared__ unsigned char smem_raw[];
  constexpr bool kStagedEpilogue = sizeof(TD) == 2 && !TransposeD;  // 16-bit D through the warps' stage blocks
  __shared__ alignas(16) unsigned char epilogue_stage[kEpilogueStageBytes<TD, TransposeD>];
  // Ring sources (load_ring_sources): "this tile's peers' chunks arrived", from warp 3 to the
  // producer. Static too; a kernel without ring sources does not use it (and has none).
  constexpr bool kRingSources = kTakesRingSources<Fusion, TD, TileM, PingPong, TmaLoads>;
  // beta's C through the ring (load_ring_c): a split tile's units would each add it, so never with splits.
  constexpr bool kRingC = CThroughRing && is_same_v<Fusion, NoFusion> && kTakesRingC<TD, TileM, TileN, PingPong, TmaLoads, TransposeD>;
  // C through the ring on a CTA's FIRST tile comes after its k-blocks, not before (later tiles:
  // before, where the previous tile's epilogue hides its loads). Before the first tile's k-blocks
  // C delays the whole K loop (nothing to hide behind: one-wave launches pay it in full); after
  // them, its loads are issued as the last k-blocks free their stages and land while those are
  // consumed. After on every tile instead cost 8192^3 +4% with f32 C (a 128 x 256 tile's C is 4
  // stages, the whole ring, left waiting behind each K loop). Not for 16-bit C in 128 x 256
  // tiles: that form spilled 32-92 bytes in their ring kernels. H200, 2026-11-29,
  // bench/results/gemm_session30_h200_2026-11-29.txt (calls 10-14).
  constexpr bool kRingCAfter = is_same_v<TD, float> || TileN < 256;
  using SourcesReady = pipeline::AsyncPipeline<2>;
  __shared__ typename SourcesReady::Storage sources_ready_storage;
  Storage& smem = shared_storage<Storage>(smem_raw);

  const int warpgroup = threadIdx.x / 128;
  const int thread_in_wg = threadIdx.x % 128;
  const int cta_rank = ClusterM == 1 ? 0 : int(arch::cluster_ctarank());

  // The ring. TMA: full[s] expects both tiles' bytes (own A, every CTA's share of B); each consumer
  // warpgroup releases stage s to every CTA of the cluster (their producers write into it).
  // Copy producer: full[s] completes when the 128 producer threads have stored and arrived.
  pipeline::TmaPipelineParams ring_params;
  ring_params.transaction_bytes = K::AtomA::transaction_bytes + K::AtomB::transaction_bytes;
  ring_params.consumer_arrivals = PingPong ? 1 : 2;  // warpgroups that read each stage
  ring_params.release_mask = ClusterM == 1 ? 0 : (1u << ClusterM) - 1;
  using Ring = conditional_t<TmaLoads, pipeline::TmaPipeline<Stages>, pipeline::AsyncPipeline<Stages>>;
  if (threadIdx.x == 0) {
    if constexpr (TmaLoads) {
      // The tensor maps (kernel parameters) fetched while the barriers are set up, not beside the
      // first loads. (Measured neutral: the first loads are not what a small launch waits for --
      // started before the CTA's barrier, with one to sixteen stages, they saved nothing over 25
      // shapes, the consumers' set-up then being later; H200, clock64 traces, 2026-11-28.)
      prefetch_tma_descriptor(p.tma_a.descriptor());
      if constexpr (EdgeTiles) prefetch_tma_descriptor(p.tma_a_rows.descriptor());
      prefetch_tma_descriptor(p.tma_b.descriptor());
      if constexpr (kRingSources || kRingC)
        if (kRingSources || p.c_in_ring != 0) prefetch_tma_descriptor(p.tma_c.descriptor());
      Ring::init(smem.barriers, ring_params);
    } else {
      Ring::init(smem.barriers, pipeline::AsyncPipelineParams{128, ring_params.consumer_arrivals});
    }
    if constexpr (PingPong) {
      arch::mbarrier_init(&smem.turn[0], 128);  // every thread of the other consumer arrives
      arch::mbarrier_init(&smem.turn[1], 128);
    }
    if constexpr (kRingSources) SourcesReady::init(sources_ready_storage, pipeline::AsyncPipelineParams{1, 1});
    // Publishes the inits beyond this thread's generic view: to peers that arrive or multicast
    // on them, and to the TMA unit's complete_tx (also for a cluster of 1).
    arch::fence_barrier_init();
  }
  // Every barrier is initialised before anyone (of any CTA of the cluster) uses it.
  if constexpr (ClusterM > 1) arch::cluster_sync();
  else __syncthreads();
  const Ring ring = make_ring<Ring>(smem.barriers, ring_params);
  [[maybe_unused]] const SourcesReady sources_ready(sources_ready_storage);

  // A tree that routes whole tiles (the reduce-scatter node, epilogue/gemm_reduce_scatter.hpp)
  // stores them itself; after each tile the consumers meet two idle warps of the producer
  // warpgroup at one named barrier: warp 1 then publishes the tile, warp 2 prefetches what the
  // next tile's epilogue will read. (A 2-slot mbarrier pipeline instead, consumers only arriving,
  // was slower: 519-528 us against 507 for 8192 x 8192 x 2048 on one H100 under ncu, 2026-11-26 --
  // the helpers' polling took issue slots, or slept past the hand-off.)
  constexpr bool kRouted = epilogue::RoutesTiles<Fusion>;
  static_assert(!kRouted || !PingPong, "gemm_sm90_fused_kernel: a tile-routing epilogue needs a cooperative variant");
  static_assert([] {
    if constexpr (kRouted) return is_same_v<typename Fusion::element_type, TD>;
    else return true;
  }(), "gemm_sm90_fused_kernel: a tile-routing epilogue writes D's element type");
  constexpr unsigned kRouteBarrier = 7;    // the 256 consumer threads (1: split-K; 2, 3: ping-pong)
  constexpr unsigned kHandOffBarrier = 8;  // the consumers and the two helper warps, per tile
  constexpr unsigned kSourceBarrier = 9;  // + consumer: a consumer warpgroup has read a source stage
  // Routed cluster tiles of own rows only add their peers' partials from the operand ring.
  static_assert(!kRingSources || has_gmma_input_v<TD>, "gemm_sm90_fused_kernel: a ring source is __nv_bfloat16 or __half");
  static_assert(!kRouted || TmaLoads, "gemm_sm90_fused_kernel: a tile-routing epilogue publishes from the TMA producer's idle warp");
  using Scheduler = GemmTileScheduler<TileM, TileN, ClusterM>;
  Scheduler scheduler(p.epilogue.m, p.epilogue.n, p.l);
  // Routed: the other owners' rows first, this rank's own last (dist/reduce_scatter_schedule.hpp).
  // Gated (an all-gathered A, epilogue/all_gather.hpp): the own rows first, then the peers' in the
  // order their shards arrive (dist/all_gather_order.hpp). The launcher computed either for this
  // variant: parameters, not registers.
  constexpr bool kGated = epilogue::GatesTiles<Fusion>;
  static_assert(!kGated || TmaLoads, "gemm_sm90_fused_kernel: a gated A is waited for by the TMA producer");
  if constexpr (kRouted) scheduler.rows = &fusion.schedule.order;
  else if constexpr (kGated) scheduler.rows = &fusion.order;
  const int k_tiles = (p.k + kTileK - 1) / kTileK;
  if constexpr (!SplitK) {
    if (p.splits > 1) __trap();
  }
  if constexpr (!EdgeTiles) {
    if (!gemm_sm90_whole_tiles(p.epilogue.m, p.epilogue.n, TileM * ClusterM, TileN)) __trap();
  }
  const int splits = SplitK && p.splits > 1 ? p.splits : 1;  // @pre splits <= k_tiles (the launcher's choice)
  [[maybe_unused]] const bool ring_c = kRingC && p.c_in_ring != 0 && splits == 1;
  const int first = blockIdx.x / ClusterM, step = gridDim.x / ClusterM;
  scheduler.split_from = p.split_from;
  scheduler.stream_ranges = SplitK ? p.stream_ranges : 0;
  scheduler.clusters = step;
  // @pre stream_ranges <= the grid's clusters: a range past them would never run (its tiles never summed)
  if (SplitK && p.stream_ranges > step) __trap();
  const int tiles = scheduler.units(splits, k_tiles);  // units of work: (tile, split or stream piece)

  if (warpgroup == 0) {
    // ---- producer ------------------------------------------------------------------------------
    arch::setmaxnreg_dec<TmaLoads ? kProducerRegisters : kCopyProducerRegisters>();
    // The rings as TMA writes them: (contiguous dim, other dim, batch, PIPE).
    auto sA = make_tensor(make_smem_ptr(smem.a.data), typename K::OperandA::TmaRing{});
    auto sB = make_tensor(make_smem_ptr(smem.b.data), typename K::OperandB::TmaRing{});
    auto state = pipeline::make_producer_start_state<Stages>();
    if constexpr (TmaLoads) {
      if (threadIdx.x == 0) {
        const auto tma_a = p.tma_a.get_slice(0);
        [[maybe_unused]] const auto tma_a_rows = p.tma_a_rows.get_slice(0);
        [[maybe_unused]] auto sA_rows = make_tensor(make_smem_ptr(smem.a.data), typename K::OperandARows::TmaRing{});
        const unsigned ring_bytes = K::AtomA::transaction_bytes + K::AtomB::transaction_bytes;
        const auto tma_b = p.tma_b.get_slice(cta_rank);  // this CTA's share of B, multicast to the cluster
        const unsigned short multicast = ClusterM == 1 ? 0 : (1u << ClusterM) - 1;
        // Where an operand's tiles are read by at most two CTA tiles (A's: one per column block;
        // B's: one per row block; streams_an_operand), it is dead in L2 once read (in a split launch
        // only where the other operand is small: loads_evict_first). Then both
        // operands' loads carry an evict_first policy, so that their lines replace each other
        // rather than lines still wanted -- after a kernel that wrote much, the dirty lines whose
        // write-back to HBM the loads would otherwise wait behind. (On the shapes timed the other
        // operand was the small one, read by the concurrent CTAs at once; hinting it too was within
        // 2% of hinting the streamed one alone, and it keeps the K loop to two forms: a
        // third made the five-node fused GEMM's JIT compile 3-5% slower.) Skinny and decode GEMMs
        // (H200, 2026-11-28, L2 left dirty by a 512 MiB memset; the streamed operand hinted alone):
        // 16 x 4096 x 4096 swapped 18.5 -> 16.2 us, 64 x 4096 x 4096 18.0 -> 16.1, 128 x 4096 x
        // 4096 20.8 -> 19.8, 256 x 12288 x 4096 45.7 -> 44.0; the rest within 2%
        // (bench/results/gemm_probes_session23_h200_2026-11-28.txt, calls 7 and 10).
        // Chosen once per launch, the K loop compiled once per choice (load_k_blocks<EvictFirst>): a
        // load is the hinted or the plain instruction, never a branch between them (a branch per
        // load cost the 64 x 48 tile 10%), and never an explicit evict_normal (1024^3 +28%, same
        // file). (The tile loop around it stays one: copies of it made the split-K producers spill
        // in 40 registers.)
        const long long a_bytes = (long long)p.epilogue.m * p.k * sizeof(TA), b_bytes = (long long)p.epilogue.n * p.k * sizeof(TA);
        const bool evict_first = scheduler.loads_evict_first(splits, a_bytes, b_bytes);
        [[maybe_unused]] auto ready_state = pipeline::make_consumer_start_state<2>();
        for (int t = first; t < tiles; t += step) {
          const GemmWork work = scheduler.work(t, cta_rank, splits, k_tiles);
          if (work.splits == 0) continue;  // an empty stream-K unit
          const GemmTile tile = work.tile;
          if constexpr (kGated) epilogue::wait_for_tile_rows(fusion, tile.m_block, TileM);  // its rows of A have arrived
          if constexpr (kRingSources)
            load_ring_sources<TD, TileM, TileN, ClusterM>(p.tma_c, ring, state, smem.b.tensor(), fusion, tile, cta_rank, sources_ready,
                                                          ready_state);
          if constexpr (kRingC)
            if (ring_c && !(kRingCAfter && t == first)) load_ring_c<TD, TileM, TileN>(p.tma_c, ring, state, smem.b.tensor(), tile);
          // A last row block past M loads only A's row boxes that hold rows (tma_a_rows): TMA
          // writes no zeros for the others, whose stale rows feed only accumulator rows past M,
          // which no store or reduction reads (the epilogue masks by row: selects, never
          // multiplies by a mask). Every other tile: one box per stage (tma_a).
          // (Whole tiles only, EdgeTiles = false: never; that path is not compiled.)
          const int boxes_a = K::OperandARows::boxes_for_rows(p.epilogue.m - tile.m_block);
          const bool rows_past_m = EdgeTiles && boxes_a < K::AtomARows::Math::boxes_per_cta;
          const unsigned bytes = rows_past_m ? K::AtomARows::transaction_bytes_of(boxes_a) + K::AtomB::transaction_bytes : ring_bytes;
          if (evict_first)
            load_k_blocks<true, EdgeTiles, MajorA, MajorB>(ring, state, bytes, work, tile, rows_past_m, boxes_a, p, tma_a, tma_a_rows,
                                                                 tma_b, multicast, sA, sA_rows, sB);
          else
            load_k_blocks<false, EdgeTiles, MajorA, MajorB>(ring, state, bytes, work, tile, rows_past_m, boxes_a, p, tma_a, tma_a_rows,
                                                                   tma_b, multicast, sA, sA_rows, sB);
          if constexpr (kRingC && kRingCAfter)
            if (ring_c && t == first) load_ring_c<TD, TileM, TileN>(p.tma_c, ring, state, smem.b.tensor(), tile);
        }
      }
    } else {
      const GlobalBox<TA> ga = typed_box<TA>(p.box_a), gb = typed_box<TA>(p.box_b);
      // copy_box leaves most of a stage in flight (cp.async): commit each stage as a group, keep
      // kCopyLag stages in flight, and publish a stage once its group has landed. Stages - 2 is
      // the most that cannot deadlock: acquiring stage s needs stage s - Stages released, and a
      // consumer releases a stage only once the next one's wgmma is issued (it keeps one batch in
      // flight), i.e. once stage s - Stages + 1 is published. (Stages - 1 hung on the GPU; Stages
      // - 2 ran no faster than 2 on an H100, 2026-11-25: the copy path is not bound by this depth.)
      static_assert(Stages >= 4, "gemm_sm90_kernel: the copy mainloop keeps 2 stages in flight");
      constexpr int kCopyLag = 2;
      auto publish = state;  // the oldest stage issued but not yet published
      int in_flight = 0;
      auto publish_oldest = [&] {
        // Order these generic-proxy stores (cp.async, register stores) before the consumers'
        // wgmma reads (async proxy), then release them through the stage's full barrier.
        arch::fence_view_async_shared();
        ring.producer_commit(publish);
        ++publish;
        --in_flight;
      };
      for (int t = first; t < tiles; t += step) {
        const GemmWork work = scheduler.work(t, cta_rank, splits, k_tiles);
        const GemmTile tile = work.tile;  // (an empty stream-K unit: no k-blocks)
        for (int kt = work.k_begin; kt < work.k_end; ++kt, ++state) {
          ring.producer_acquire(state);
          const int s = int(state.index());
          // The consumers' wgmma (async proxy) read this stage before it was released: order
          // those reads before these generic writes.
          arch::fence_view_async_shared();
          copy_box<128>(ga, origin(MajorA, kt * kTileK, tile.m_block, tile.batch), sA(_, _, _, s), thread_in_wg);
          copy_box<128>(gb, origin(MajorB, kt * kTileK, tile.n_block, tile.batch), sB(_, _, _, s), thread_in_wg);
          cp_async_fence();
          if (++in_flight > kCopyLag) {
            cp_async_wait<kCopyLag>();
            publish_oldest();
          }
        }
      }
      cp_async_wait<0>();
      while (in_flight > 0) publish_oldest();
    }
    // Ring sources: warp 3 (idle under TMA) waits for each tile's peers' chunks ahead of the producer.
    if constexpr (kRingSources) {
      if (threadIdx.x == 96)
        wait_for_ring_sources(scheduler, fusion, sources_ready, first, step, tiles, cta_rank, splits, k_tiles, [&](GemmTile const& tile) {
          return epilogue::route_ring_sources<TileM, ClusterM>(fusion, tile.m_block - cta_rank * TileM);
        });
    }
    // Routed: warp 1 (idle under TMA) publishes each tile once the consumers stored it, so the
    // release that publishing needs never stalls the math warps; warp 2 waits for the peers'
    // partials of the next tile of own rows and brings them into L2 while its mainloop runs.
    if constexpr (kRouted) {
      const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
      // (Ring sources: the producer loads the peers' rows a tile ahead already; no prefetch.)
      auto prefetch = [&](GemmTile const& tile) {
        if constexpr (!kRingSources) epilogue::route_prefetch<TileM, TileN>(fusion, tile.m_block, tile.n_block, lane);
      };
      if (warp == 1 || warp == 2) {
        if (warp == 2 && first < tiles) prefetch(scheduler.work(first, cta_rank, splits, k_tiles).tile);
        for (int t = first; t < tiles; t += step) {
          // The consumers stored tile t (the barrier orders their stores before what follows).
          arch::named_barrier_sync(kHandOffBarrier, 256 + 64);
          if (warp == 1) {
            const GemmTile tile = scheduler.work(t, cta_rank, splits, k_tiles).tile;
            epilogue::route_publish(fusion, fusion.schedule, tile.m_block, tile.n_block, lane);
          } else if (t + step < tiles) {
            prefetch(scheduler.work(t + step, cta_rank, splits, k_tiles).tile);
          }
        }
      }
    }
  } else {
    // ---- consumers -----------------------------------------------------------------------------
    arch::setmaxnreg_inc<TmaLoads ? kConsumerRegisters : kCopyConsumerRegisters>();
    const int consumer = warpgroup - 1;
    typename K::TiledMma mma;
    const auto thr = mma.get_slice(PingPong ? thread_in_wg : int(threadIdx.x) - 128);
    // Descriptor fragments of the whole rings: (1, MMA_M|N, K16 steps, PIPE).
    const auto tCrA = thr.partition_fragment_A(smem.a.tensor());
    const auto tCrB = thr.partition_fragment_B(smem.b.tensor());
    // Where each accumulator lands in the tile: the identity tensor, partitioned like C.
    const auto tCcC = thr.partition_C(make_identity_tensor(make_shape(Int<TileM>{}, Int<TileN>{})));
    auto acc = mma.make_fragment_C(tCcC);  // (V, MMA_M, MMA_N) f32, shaped like this thread's share
    auto state = pipeline::make_consumer_start_state<Stages>();
    int turn = 0, my_tiles = 0;
    for (int t = first; t < tiles; t += step, ++turn) {
      const GemmWork work = scheduler.work(t, cta_rank, splits, k_tiles);
      if (work.splits == 0) {  // an empty stream-K unit: no stages, no tile, no turn
        if constexpr (PingPong) --turn;
        continue;
      }
      const int work_k_tiles = work.k_end - work.k_begin;
      if (PingPong && turn % 2 != consumer) {  // the other warpgroup's tile: skip its stages
        state.advance(work_k_tiles);
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
      const GemmTile tile = work.tile;
      // Routed, a cluster tile of this rank's own rows only: its peers' partials come through the
      // ring ahead of its k-blocks, and the product is accumulated onto their sum; the sums leave
      // for `out` (epilogue/gemm_reduce_scatter.hpp).
      [[maybe_unused]] int sources = 0;
      if constexpr (kRingSources) {
        sources = epilogue::route_ring_sources<TileM, ClusterM>(fusion, tile.m_block - cta_rank * TileM);
        auto source_state = state;  // the sources' stages come first; the k-blocks' after them
        state.advance(unsigned(sources));
        consume_k_loop(mma, ring, state, tCrA, tCrB, acc, work_k_tiles, thread_in_wg == 0, sources > 0, [&](decltype(acc)& a) {
          add_ring_sources<TD, TileN>(ring, source_state, smem.b.tensor(), a, tCcC, sources, consumer, thread_in_wg, kSourceBarrier + consumer);
        });
      } else if constexpr (kRingC) {
        // beta's C through the ring: the accumulators start from (beta / alpha) * C (load_ring_c).
        const bool after = kRingCAfter && ring_c && t == first;  // the producer's test, above
        auto source_state = state;
        if (ring_c && !after) state.advance(unsigned(TileM / GemmSm90Source<TD, TileN>::kRows));
        consume_k_loop(mma, ring, state, tCrA, tCrB, acc, work_k_tiles, thread_in_wg == 0, ring_c && !after, [&](decltype(acc)& a) {
          add_ring_sources<TD, TileN, true>(ring, source_state, smem.b.tensor(), a, tCcC, TileM / GemmSm90Source<TD, TileN>::kRows, consumer,
                                      thread_in_wg, kSourceBarrier + consumer, p.epilogue.beta / p.epilogue.alpha);
        });
        if (after)
          add_ring_sources<TD, TileN, true>(ring, state, smem.b.tensor(), acc, tCcC, TileM / GemmSm90Source<TD, TileN>::kRows, consumer,
                                            thread_in_wg, kSourceBarrier + consumer, p.epilogue.beta / p.epilogue.alpha);
      } else if constexpr (PingPong) {  // the other consumer's K loop may start once this one's last batch is issued
        consume_k_loop(mma, ring, state, tCrA, tCrB, acc, work_k_tiles, thread_in_wg == 0, false, NoAccumulatorStart{},
                       [&] { arch::mbarrier_arrive(&smem.turn[1 - consumer]); });
        ++my_tiles;
      } else {
        consume_k_loop(mma, ring, state, tCrA, tCrB, acc, work_k_tiles, thread_in_wg == 0);
      }
      if (SplitK && work.splits > 1) {
        constexpr int kGroup = PingPong ? 128 : 256;  // the threads that computed this unit
        const unsigned barrier = PingPong ? 2u + unsigned(consumer) : 1u;
        const int group_thread = PingPong ? thread_in_wg : int(threadIdx.x) - 128;
        // (Stream-K's pieces never wait for each other: a range's later pieces come after its earlier ones.)
        const bool shared = !scheduler.streams(splits) &&
                            gemm_sm90_shares_split_reduction(TileM, TileN, PingPong, work.splits, p.epilogue.m - tile.m_block >= TileM);
        if (!reduce_split<kGroup>(acc, tCcC, p.partials, p.tile_counters, work.tile_index * ClusterM + cta_rank, work,
                                  p.epilogue.m - tile.m_block, group_thread, barrier, smem.last_split[PingPong ? consumer : 0], shared))
          continue;  // another split of this tile finishes it
      }
      CUTE_DSL_UNROLL
      for (int h = 0; h < int(size<1>(acc)); ++h) {  // 64-row atom blocks of this thread's share
        CUTE_DSL_UNROLL
        for (int n = 0; n < int(size<2>(acc)); ++n) {
          if constexpr (!is_same_v<Fusion, NoFusion>) {
            // The tree replaces each accumulator with D's value (aux stores and reductions on the
            // way), then the plain store writes it: alpha = 1, beta = 0 fold away.
            auto acc_tree = acc(_, h, n);
            if constexpr (!epilogue::kEvaluatesToAccumulator<Fusion>)  // acc() alone: D = acc (leaves.hpp)
              epilogue::gemm_visit_accumulators<kAccN, EdgeTiles>(fusion, acc_tree, tCcC(_, h, n), p.epilogue.m, p.epilogue.n, tile.m_block,
                                                       tile.n_block, tile.batch, thread_in_wg % 32);
            if constexpr (kRouted) {
              unsigned char* stage = epilogue_stage + (threadIdx.x / 32 - 4) * kGemmEpilogueStageBytesPerWarp;
              // A tile that took ring sources holds the sums of its own rows: to `out`.
              epilogue::route_block<kAccN>(fusion, acc_tree, tCcC(_, h, n), tile.m_block, tile.n_block, thread_in_wg % 32, stage,
                                           kRingSources && sources > 0);
              continue;
            }
            GemmEpilogueParams<TD> plain = p.epilogue;
            plain.alpha = 1.f, plain.beta = 0.f;
            if constexpr (kStagedEpilogue)
              gemm_store_accumulators_staged<TD, kAccN>(acc_tree, tCcC(_, h, n), plain, tile.m_block, tile.n_block, tile.batch,
                                                        thread_in_wg % 32,
                                                        epilogue_stage + (threadIdx.x / 32 - 4) * kGemmEpilogueStageBytesPerWarp);
            else
              gemm_store_accumulators<TD, kAccN>(acc_tree, tCcC(_, h, n), plain, tile.m_block, tile.n_block, tile.batch);
            continue;
          }
          auto acc_hn = acc(_, h, n);
          const auto crd_hn = tCcC(_, h, n);
          GemmEpilogueParams<TD> e = p.epilogue;
          if constexpr (kRingC) e.beta = ring_c ? 0.f : e.beta;  // C through the ring: already in the accumulators
          if constexpr (TransposeD) {
            gemm_store_accumulators<TD, kAccN, true>(acc_hn, crd_hn, p.epilogue, tile.m_block, tile.n_block, tile.batch);
          } else if constexpr (kStagedEpilogue) {
            // alpha is applied here, once and only when it is not 1 (warp-uniform), so that the
            // common alpha = 1 stores unscaled.
            if (e.alpha != 1.f) {
              CUTE_DSL_UNROLL
              for (int i = 0; i < int(size(acc_hn)); ++i) acc_hn(i) *= e.alpha;
            }
            gemm_store_accumulators_staged<TD, kAccN, false>(acc_hn, crd_hn, e, tile.m_block, tile.n_block, tile.batch, thread_in_wg % 32,
                                                             epilogue_stage + (threadIdx.x / 32 - 4) * kGemmEpilogueStageBytesPerWarp);
          } else {
            gemm_store_accumulators<TD, kAccN>(acc_hn, crd_hn, e, tile.m_block, tile.n_block, tile.batch);
          }
        }
      }
      if constexpr (kRouted) {
        const bool summed = sources > 0;  // own rows already in `out`
        arch::named_barrier_sync(kHandOffBarrier, 256 + 64);  // to the helper warps
        if (!summed)
          epilogue::route_finish<TileM, TileN>(fusion, tile.m_block, tile.n_block, int(threadIdx.x) - 128, kRouteBarrier, 256);
        epilogue::route_count_reduced(fusion, fusion.schedule, tile.m_block, tile.n_block, !summed, int(threadIdx.x) - 128,
                                      kRouteBarrier, 256);
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

}  // namespace gemm_sm90_impl

// SplitK = false: without the split-K path; CThroughRing = false: without the ring path for C (see
// run). The launcher instantiates three forms -- neither path (also the JIT's), split-K only, ring
// C only -- and launches the one a launch needs (gemm_sm90_launch.hpp); the defaults keep both.
template <class TA, class TD, int TileN, int Stages, int ClusterM, bool PingPong = false,
          GmmaMajor MajorA = GmmaMajor::K, GmmaMajor MajorB = GmmaMajor::K, int TileM = gemm_sm90_impl::kTileM,
          bool TmaLoads = true, bool TransposeD = false, bool SplitK = true, bool CThroughRing = true>
__global__ void __launch_bounds__(gemm_sm90_impl::kThreads, 1)
    gemm_sm90_kernel(const __grid_constant__ GemmSm90KernelParams<TA, TD, TileN, Stages, ClusterM, PingPong, MajorA, MajorB, TileM> p) {
  gemm_sm90_impl::run<TA, TD, TileN, Stages, ClusterM, PingPong, MajorA, MajorB, TileM, TmaLoads, gemm_sm90_impl::NoFusion, TransposeD,
                      SplitK, true, CThroughRing>(p, gemm_sm90_impl::NoFusion{});
}

// The same GEMM with an epilogue tree (epilogue/, docs/10_epilogues.md): D = tree(acc, ...) instead
// of alpha * acc + beta * C (p.epilogue's alpha, beta and C are not used; D, its leading
// dimension, M and N are). Epilogue is the tree's type, e.g. decltype(gelu(acc() + col_broadcast(bias))):
// nameable, so the JIT can instantiate it from generated source. SplitK / EdgeTiles as run()'s:
// the launcher's whole-tile form compiles the edge paths out (gemm_sm90_launch.hpp).
template <class TA, class TD, int TileN, int Stages, int ClusterM, bool PingPong, GmmaMajor MajorA, GmmaMajor MajorB, int TileM,
          bool TmaLoads, class Epilogue, bool SplitK = true, bool EdgeTiles = true>
__global__ void __launch_bounds__(gemm_sm90_impl::kThreads, 1)
    gemm_sm90_fused_kernel(const __grid_constant__ GemmSm90KernelParams<TA, TD, TileN, Stages, ClusterM, PingPong, MajorA, MajorB, TileM> p,
                           const __grid_constant__ Epilogue tree) {
  static_assert(epilogue::EpilogueNode<Epilogue>, "gemm_sm90_fused_kernel: Epilogue must be an epilogue tree (cute_dsl/epilogue)");
  gemm_sm90_impl::run<TA, TD, TileN, Stages, ClusterM, PingPong, MajorA, MajorB, TileM, TmaLoads, Epilogue, false, SplitK, EdgeTiles>(p, tree);
}

}  // namespace cute_dsl::kernels

#endif  // __CUDACC__ || __CUDACC_RTC__
