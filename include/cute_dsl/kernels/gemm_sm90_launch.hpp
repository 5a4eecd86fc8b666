// Host side of the Hopper GEMM (kernels/gemm_sm90.hpp): argument checks, the tile-configuration
// heuristic, tensor maps, and the cluster launch. For nvcc translation units (it instantiates
// and launches the kernel); under NVRTC and plain host compilers this header is empty.
//
//   cute_dsl::kernels::GemmSm90Arguments<__nv_bfloat16, __nv_bfloat16> args{...};
//   cudaError_t err = cute_dsl::kernels::gemm_sm90(args, stream);   // heuristic config
//
// Layouts: A is M x K and B is N x K, each K-major (K contiguous; lda/ldb = elements between
// rows, >= K) or MN-major (M resp. N contiguous; lda/ldb = elements between the K columns, >= M
// resp. N): `major_a` / `major_b`. In BLAS's column-major terms for D = A * op(B):
//   TN: A K-major,  B K-major      NN: A MN-major, B K-major
//   TT: A K-major,  B MN-major     NT: A MN-major, B MN-major
// C and D are M x N row-major. Batches (L) are `batch_stride_*` elements apart.
#pragma once

#include "cute_dsl/config.hpp"

#if CUTE_DSL_HOST_ONLY_CODE && defined(__CUDACC__)

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "cute_dsl/arch/sm90/tma_descriptor.hpp"
#include "cute_dsl/atom/make_tma_atom.hpp"
#include "cute_dsl/kernels/gemm_operand_map.hpp"
#include "cute_dsl/kernels/gemm_device_buffer.hpp"
#include "cute_dsl/kernels/gemm_sm90.hpp"
#include "cute_dsl/kernels/gemm_sm90_configs.hpp"
#include "cute_dsl/kernels/gemm_sm90_heuristic.hpp"
#include "cute_dsl/kernels/gemm_sm90_stage.hpp"

namespace cute_dsl::kernels {

template <class TA, class TD>
struct GemmSm90Arguments {
  GemmShape shape;
  const TA* a;
  long long lda, batch_stride_a;
  const TA* b;
  long long ldb, batch_stride_b;
  TD* d;
  long long ldd, batch_stride_d;
  const TD* c = nullptr;  // read only when beta != 0
  long long ldc = 0, batch_stride_c = 0;
  float alpha = 1.f, beta = 0.f;
  GmmaMajor major_a = GmmaMajor::K;  // which dimension of A (M x K) is contiguous
  GmmaMajor major_b = GmmaMajor::K;  // which dimension of B (N x K) is contiguous
  // Split-K's workspace (gemm_sm90_workspace_bytes; its first kGemmSplitCounterBytes zeroed once,
  // the kernel keeps them zeroed). Null: one workspace per device, grown on demand and shared, so GEMMs that split
  // K and run CONCURRENTLY on several streams must each pass their own.
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
  // Operands a tensor map cannot describe (gemm_sm90_tma_describable false): copied into rows it
  // can describe and run on the TMA mainloop, or read in place by the copy mainloop; `automatic`
  // picks by a model (gemm_sm90_stage.hpp). The copies go to `staging` (gemm_sm90_staging_bytes,
  // 256-byte aligned) or, if null, to a per-device buffer grown on demand and shared: GEMMs that
  // stage and run CONCURRENTLY on several streams must each pass their own.
  GemmSm90Unaligned unaligned = GemmSm90Unaligned::automatic;
  void* staging = nullptr;
  std::size_t staging_bytes = 0;
};

// Empty when the kernel can run these arguments; otherwise the rule they break. Only what cannot
// be computed is refused: any M, N, K, L >= 1, any leading dimensions and batch strides that
// cover their extents, pointers aligned to their element.
template <class TA, class TD>
std::string gemm_sm90_unsupported(const GemmSm90Arguments<TA, TD>& a) {
  const GemmShape& s = a.shape;
  if (s.m < 1 || s.n < 1 || s.k < 1 || s.l < 1) return "M, N, K and L must be at least 1";
  if (a.a == nullptr || a.b == nullptr || a.d == nullptr) return "A, B and D must not be null";
  if (a.beta != 0.f && a.c == nullptr) return "beta != 0 needs C";
  auto aligned = [](const void* p, std::size_t n) { return reinterpret_cast<std::uintptr_t>(p) % n == 0; };
  if (!aligned(a.a, sizeof(TA)) || !aligned(a.b, sizeof(TA)) || !aligned(a.d, sizeof(TD)) || !aligned(a.c, sizeof(TD)))
    return "A, B, C and D must be aligned to their element size";
  const long long a_row = a.major_a == GmmaMajor::K ? s.k : s.m, b_row = a.major_b == GmmaMajor::K ? s.k : s.n;
  if (a.lda < a_row || a.ldb < b_row || a.ldd < s.n || (a.beta != 0.f && a.ldc < s.n))
    return "leading dimensions must cover the contiguous extent (A: K or M, B: K or N) and N (C, D)";
  if (s.l > 1 && (a.batch_stride_a < 0 || a.batch_stride_b < 0 || a.batch_stride_d < (long long)s.m * a.ldd ||
                  (a.beta != 0.f && a.batch_stride_c < 0)))
    return "batch strides must be non-negative, and D's must not overlap one batch with the next";
  // D must not overlap what the kernel still reads (A, B; C unless it IS D: in-place beta is fine).
  auto bytes = [&](const void* p, long long ld, long long rows, long long bs, std::size_t e) {
    const auto lo = reinterpret_cast<std::uintptr_t>(p);
    return std::pair<std::uintptr_t, std::uintptr_t>{lo, lo + std::uintptr_t(((s.l - 1) * bs + (rows - 1) * ld + ld) * e)};
  };
  const auto d = bytes(a.d, a.ldd, s.m, a.batch_stride_d, sizeof(TD));
  auto overlaps = [&](std::pair<std::uintptr_t, std::uintptr_t> x) { return x.first < d.second && d.first < x.second; };
  const long long a_rows = a.major_a == GmmaMajor::K ? s.m : s.k, b_rows = a.major_b == GmmaMajor::K ? s.n : s.k;
  if (overlaps(bytes(a.a, a.lda, a_rows, a.batch_stride_a, sizeof(TA))) || overlaps(bytes(a.b, a.ldb, b_rows, a.batch_stride_b, sizeof(TA))))
    return "D must not overlap A or B";
  return {};
}

// Whether every row (and batch) of A and B starts on a multiple of `Bytes`: base addresses,
// leading dimensions and batch strides.
template <int Bytes, class TA, class TD>
bool gemm_sm90_rows_aligned(const GemmSm90Arguments<TA, TD>& a) {
  constexpr int kElement = int(sizeof(TA));
  return gemm_operand_rows_aligned(a.a, a.lda, a.batch_stride_a, a.shape.l, kElement, Bytes) &&
         gemm_operand_rows_aligned(a.b, a.ldb, a.batch_stride_b, a.shape.l, kElement, Bytes);
}
// Whether tensor maps can describe A and B (16-byte aligned bases, leading dimensions and batch
// strides): the TMA mainloop. Otherwise the copy mainloop serves the same shapes.
template <class TA, class TD>
bool gemm_sm90_tma_describable(const GemmSm90Arguments<TA, TD>& a) {
  return gemm_sm90_rows_aligned<16>(a);
}
// Whether every row of A and B starts on a 128-byte line (the heuristic's concern: see there).
template <class TA, class TD>
bool gemm_sm90_rows_128b_aligned(const GemmSm90Arguments<TA, TD>& a) {
  return gemm_sm90_rows_aligned<128>(a);
}
// Whether these arguments let the plain kernel take beta's C through the operand ring
// (gemm_sm90_impl::load_ring_c) instead of reading it in the epilogue: beta != 0 and alpha != 0
// (the accumulators start from beta / alpha * C; a ratio within 2^+-60 keeps that product inside
// f32's normal range), C (16-bit or f32) whose rows and batches start on 16 bytes (a tensor map
// describes it). The launch also needs a variant that takes it (gemm_sm90_impl::kTakesRingC) and
// no split K.
template <class TA, class TD>
bool gemm_sm90_c_through_ring(const GemmSm90Arguments<TA, TD>& a) {
  if (a.beta == 0.f || a.alpha == 0.f || a.c == nullptr) return false;
  const float ratio = a.beta / a.alpha, magnitude = ratio < 0.f ? -ratio : ratio;
  if (!(magnitude <= 0x1p60f && magnitude >= 0x1p-60f)) return false;  // NaN and infinities fail too
  if (a.shape.l > 1 && a.batch_stride_c <= 0) return false;
  return gemm_operand_rows_aligned(a.c, a.ldc, a.batch_stride_c, a.shape.l, int(sizeof(TD)), 16);
}

namespace detail {

// Per-device launch facts (the smem attribute, occupancy, SM count) are cached in small arrays
// indexed by device ordinal: a process may drive several GPUs. Ordinals past the array are
// recomputed on every call.
constexpr int kCachedDevices = 64;
inline bool device_is_cached(int device) { return device >= 0 && device < kCachedDevices; }


// An operand (rows x K, L batches) as the tensor map the kernel's TMA atoms expect
// (kernels/gemm_operand_map.hpp, shared with the JIT launcher).
template <class TA>
TmaDescriptor gemm_operand_map(const TA* p, GmmaMajor major, int rows, int k, int l, long long ld, long long batch_stride,
                               int box_rows) {
  static tma::EncodeTiledFn encode = tma::encode_tiled_from_cudart();
  GemmOperandMapSpec spec;
  spec.data = p;
  if constexpr (std::is_same_v<TA, float>) spec.f32 = true;  // the plain GEMM's f32 C (a ring source)
  else spec.bf16 = gmma_input_of<TA>::value == GmmaInput::bf16;
  spec.k_major = major == GmmaMajor::K;
  spec.rows = rows, spec.k = k, spec.l = l;
  spec.ld = ld, spec.batch_stride = batch_stride;
  spec.box_rows = box_rows;
  return tma_detail::to_descriptor(make_gemm_operand_map(encode, spec));
}

// The kernel runs on sm_90 devices only (its other passes trap): refuse others before launching.
inline cudaError_t gemm_sm90_check_device(int device) {
  int major = 0, minor = 0;
  cudaError_t err = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  if (err == cudaSuccess) err = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
  if (err != cudaSuccess) return err;
  return major == 9 && minor == 0 ? cudaSuccess : cudaErrorInvalidDeviceFunction;
}

// An operand as the copy mainloop reads it: the tensor map's dimensions, untyped.
template <class TA>
GlobalBox<void> gemm_operand_box(const TA* p, GmmaMajor major, int rows, int k, int l, long long ld, long long batch_stride) {
  return major == GmmaMajor::K ? GlobalBox<void>{p, {k, rows, l}, {ld, batch_stride}} : GlobalBox<void>{p, {rows, k, l}, {ld, batch_stride}};
}

// Split-K's workspace layout: kGemmSplitCounters counters (one per split CTA tile), then the
// partial sums. The counter block has the same size in every launch: a workspace reused by a
// launch with more split tiles than the last must not find its counters where the last one left
// partial sums (a 96-tile stream-K launch after a 12-tile split one never finished tiles 64-95:
// their counters started from the old partials). Launches with more split tiles run unsplit.
inline constexpr long long kGemmSplitCounters = 4096;
inline constexpr std::size_t kGemmSplitCounterBytes = std::size_t(kGemmSplitCounters) * 4;
inline std::size_t gemm_sm90_workspace_bytes(long long tiles, int splits, int tile_m, int tile_n) {
  return splits <= 1 ? 0 : kGemmSplitCounterBytes + std::size_t(tiles) * splits * tile_m * tile_n * 4;
}

// The device's shared split-K workspace, at least `bytes` (counters zeroed).
inline cudaError_t gemm_sm90_device_workspace(int device, std::size_t bytes, void** out) {
  return gemm_device_buffer(GemmBufferSlot::split_k_workspace, device, bytes, true, out);
}

// Fusion: gemm_sm90_impl::NoFusion (the plain kernel) or an epilogue tree (the fused kernel).
// TransposeD: `a` is already swapped (swap-AB: its A is the user's B, its M the user's N), and the
// kernel stores its D^T into the user's row-major D.
template <class TA, class TD, GmmaMajor MajorA, GmmaMajor MajorB, int TileN, int Stages, int ClusterM, bool PingPong = false,
          int TileM = gemm_sm90_impl::kTileM, bool TmaLoads = true, class Fusion = gemm_sm90_impl::NoFusion, bool TransposeD = false>
cudaError_t gemm_sm90_launch(const GemmSm90Arguments<TA, TD>& a, cudaStream_t stream, GemmSplitAsk ask = {}, const Fusion& fusion = {}) {
  const int splits = ask.splits;
  constexpr bool kPlain = std::is_same_v<Fusion, gemm_sm90_impl::NoFusion>;
  // The plain kernel comes in forms that carry only the paths a launch can take: whole tiles with C
  // (if any) read in the epilogue, split-K / stream-K, and C through the operand ring (which never
  // splits). A path compiled in but not taken still costs: after an L2 flush the kernel's code comes
  // from HBM, and the form with neither path ran 1024^3 in 9.4 us against 11.1 for the one with
  // both, 256 x 1536 x 4096 17.1 against 19.2, large shapes alike or faster (H100, 2026-11-28,
  // bench/results/gemm_lean_kernel_h100_2026-11-28.txt).
  constexpr bool kRingForm = kPlain && gemm_sm90_impl::kTakesRingC<TD, TileM, TileN, PingPong, TmaLoads, TransposeD>;
  auto* kernel = [] {  // unsplit (a fused tree's: its edge-tile form, split or not)
    if constexpr (kPlain) return &gemm_sm90_kernel<TA, TD, TileN, Stages, ClusterM, PingPong, MajorA, MajorB, TileM, TmaLoads, TransposeD, false, false>;
    else return &gemm_sm90_fused_kernel<TA, TD, TileN, Stages, ClusterM, PingPong, MajorA, MajorB, TileM, TmaLoads, Fusion>;
  }();
  auto* split_kernel = [] {
    if constexpr (kPlain) return &gemm_sm90_kernel<TA, TD, TileN, Stages, ClusterM, PingPong, MajorA, MajorB, TileM, TmaLoads, TransposeD, true, false>;
    else return &gemm_sm90_fused_kernel<TA, TD, TileN, Stages, ClusterM, PingPong, MajorA, MajorB, TileM, TmaLoads, Fusion>;
  }();
  auto* ring_kernel = [] {
    if constexpr (kRingForm) return &gemm_sm90_kernel<TA, TD, TileN, Stages, ClusterM, PingPong, MajorA, MajorB, TileM, TmaLoads, TransposeD, false, true>;
    else if constexpr (kPlain) return &gemm_sm90_kernel<TA, TD, TileN, Stages, ClusterM, PingPong, MajorA, MajorB, TileM, TmaLoads, TransposeD, false, false>;
    else return &gemm_sm90_fused_kernel<TA, TD, TileN, Stages, ClusterM, PingPong, MajorA, MajorB, TileM, TmaLoads, Fusion>;
  }();
  // A fused tree's launch over whole tiles (M a multiple of TileM x ClusterM, N of TileN), split
  // or not, takes a form without the edge paths (as the JIT compiles such shapes): the edge
  // paths' registers made bias + GELU spill 64-68 bytes in the 128 x 256 forms, and the form
  // without them ran 2.5-4.8% faster there (H200, 2026-11-29: 16384 x 4096 x 512 149.7 -> 144.4
  // us, 8192 x 8192 x 1024 228.1 -> 222.4; the 128 x 128 ping-pong 161.7 -> 153.9; the same D;
  // bench/results/gemm_session29_h200_2026-11-29.txt, call 6). TMA mainloop, ordinary trees only
  // (the routed and gated trees' kernels keep one form: their translation units build many).
  constexpr bool kWholeForm = !kPlain && TmaLoads && !epilogue::RoutesTiles<Fusion> && !epilogue::GatesTiles<Fusion>;
  decltype(kernel) whole_kernel = kernel;
  if constexpr (kWholeForm)
    whole_kernel = &gemm_sm90_fused_kernel<TA, TD, TileN, Stages, ClusterM, PingPong, MajorA, MajorB, TileM, TmaLoads, Fusion, true, false>;
  constexpr int kSmem = gemm_sm90_shared_bytes<TA, TileN, Stages, ClusterM, PingPong, MajorA, MajorB, TileM>;
  static_assert(kSmem + gemm_sm90_impl::kEpilogueStageBytes<TD, TransposeD> <= gemm_sm90_impl::kMaxSharedBytesPerCta,
                "gemm_sm90_launch: the ring's stages and the epilogue's stage exceed the 227 KiB of shared memory a CTA may have");
  if constexpr (epilogue::RoutesTiles<Fusion>) {
    // The tree must carry this variant's schedule (kernels::gemm_sm90_reduce_scatter_tree); refused
    // before the device is touched.
    if (fusion.schedule.tile_rows != TileM * ClusterM || fusion.schedule.tile_n != TileN) return cudaErrorInvalidValue;
  }
  if constexpr (epilogue::GatesTiles<Fusion>) {  // the same for the row order of a gated A (kernels::gemm_sm90_all_gather_tree)
    if (fusion.order_tile_rows != TileM * ClusterM) return cudaErrorInvalidValue;
  }
  static std::atomic<bool> attr_set[kCachedDevices];  // the attribute is per device
  static std::atomic<int> max_clusters_by_device[kCachedDevices];  // 0: not computed yet
  int device = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err != cudaSuccess) return err;
  const bool cached = device_is_cached(device);
  if (!cached || !attr_set[device].load(std::memory_order_acquire)) {
    if ((err = gemm_sm90_check_device(device)) != cudaSuccess) return err;
    for (auto* form : {kernel, split_kernel, ring_kernel, whole_kernel})
      if ((err = cudaFuncSetAttribute(form, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem)) != cudaSuccess) return err;
    if (cached) attr_set[device].store(true, std::memory_order_release);
  }

  const GemmShape& s = a.shape;
  GemmSm90KernelParams<TA, TD, TileN, Stages, ClusterM, PingPong, MajorA, MajorB, TileM> p;
  if constexpr (TmaLoads) {
    p.tma_a.desc = gemm_operand_map(a.a, MajorA, s.m, s.k, s.l, a.lda, a.batch_stride_a, TileM);
    p.tma_a_rows.desc = gemm_operand_map(a.a, MajorA, s.m, s.k, s.l, a.lda, a.batch_stride_a, gemm_sm90_box_rows_a(TileM));
    p.tma_b.desc = gemm_operand_map(a.b, MajorB, s.n, s.k, s.l, a.ldb, a.batch_stride_b, TileN / ClusterM);
  } else {
    p.tma_a.desc = p.tma_b.desc = p.tma_a_rows.desc = TmaDescriptor{};
  }
  if constexpr (gemm_sm90_impl::kTakesRingSources<Fusion, TD, TileM, PingPong, TmaLoads>) {
    // The peers' partials of this rank's rows, (columns, rows, slot), for the kernel's ring
    // sources (epilogue::route_ring_sources): 64 x 64 boxes, as a K-major operand's.
    const dist::ReduceScatterLayout& l = fusion.layout;
    if (epilogue::route_ring_sources_possible(fusion))
      p.tma_c.desc = gemm_operand_map(epilogue::route_received_slots(fusion), GmmaMajor::K, l.owners().max_rows(), l.n, l.world - 1, l.n,
                                      l.slot_elements(), GemmSm90Source<TD, TileN>::kRows);
  }
  p.box_a = gemm_operand_box(a.a, MajorA, s.m, s.k, s.l, a.lda, a.batch_stride_a);
  p.box_b = gemm_operand_box(a.b, MajorB, s.n, s.k, s.l, a.ldb, a.batch_stride_b);
  const GemmTileScheduler<TileM, TileN, ClusterM> tiles(s.m, s.n, s.l);
  p.k = s.k;
  p.l = s.l;
  p.epilogue = {a.d, a.c, a.ldd, a.batch_stride_d, a.ldc, a.batch_stride_c, s.m, s.n, a.alpha, a.beta};

  cudaLaunchConfig_t config{};
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = ClusterM;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  config.blockDim = dim3(gemm_sm90_impl::kThreads);
  config.dynamicSmemBytes = kSmem;
  config.stream = stream;
  config.attrs = attr;
  config.numAttrs = ClusterM > 1 ? 1 : 0;  // no cluster launch (and its scheduling) for single CTAs

  // Persistent grid: as many clusters as fit on the GPU at once (cluster placement may leave
  // some SMs idle), never more than there are cluster tiles.
  int max_clusters = cached ? max_clusters_by_device[device].load(std::memory_order_relaxed) : 0;
  if (max_clusters <= 0) {
    int sms = 0;
    err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (err != cudaSuccess) return err;
    cudaLaunchConfig_t probe = config;
    probe.gridDim = dim3(ClusterM * (sms / ClusterM));
    if (cudaOccupancyMaxActiveClusters(&max_clusters, kernel, &probe) != cudaSuccess || max_clusters <= 0) {
      (void)cudaGetLastError();
      max_clusters = sms / ClusterM;
    }
    if (max_clusters < 1) max_clusters = 1;
    if (cached) max_clusters_by_device[device].store(max_clusters, std::memory_order_relaxed);
  }
  // Split-K as asked (`splits`: at most that many ranges per split tile), where the waves on
  // this device's clusters leave room for it -- the same plan the heuristic chose by
  // (gemm_sm90_plan_splits: decode by the stream model, the rest by gemm_sm90_split_plan).
  // (Swapped: `s` is already the kernel's N x M view, so the plan asks without the flag.)
  // Stream-K where asked (the heuristic's choice, or explicitly): plain cooperative kernels only.
  GemmSm90Config planned{TileN, Stages, ClusterM, PingPong, TileM};
  planned.stream_k = ask.stream_k && kPlain && !PingPong;
  GemmSplitPlan plan = gemm_sm90_plan_splits(s, planned, max_clusters * ClusterM, splits > 1 ? splits : 1);
  if constexpr (epilogue::RoutesTiles<Fusion>) plan = GemmSplitPlan{1, tiles.cluster_tiles()};  // a routed tile leaves whole, once
  if (plan.splits > 1 && (tiles.cluster_tiles() - plan.split_from) * ClusterM > kGemmSplitCounters)
    plan = GemmSplitPlan{1, tiles.cluster_tiles()};  // more split tiles than counters (never planned: at most ~2 per SM)
  p.splits = plan.splits, p.split_from = int(plan.split_from), p.stream_ranges = plan.stream_ranges;
  p.partials = nullptr, p.tile_counters = nullptr;
  p.c_in_ring = 0;
  if constexpr (kPlain && gemm_sm90_impl::kTakesRingC<TD, TileM, TileN, PingPong, TmaLoads, TransposeD>) {
    if (p.splits <= 1 && gemm_sm90_c_through_ring(a)) {
      try {  // C as a K-major operand's map: (columns, rows, batch), boxes of 128 bytes x kRows
        p.tma_c.desc = gemm_operand_map(a.c, GmmaMajor::K, s.m, s.n, s.l, a.ldc, a.batch_stride_c, GemmSm90Source<TD, TileN>::kRows);
        p.c_in_ring = 1;
      } catch (const tma::TmaDescriptorError&) {
        // A rule of cuTensorMapEncodeTiled broken (an extent past its limits): C from memory.
      }
    }
  }
  if (p.splits > 1) {
    const long long split_tiles = (tiles.cluster_tiles() - plan.split_from) * ClusterM;  // CTA tiles
    const std::size_t counters = kGemmSplitCounterBytes;
    const std::size_t need = gemm_sm90_workspace_bytes(split_tiles, p.splits, TileM, TileN);
    void* ws = a.workspace;
    if (ws == nullptr) {
      if ((err = gemm_sm90_device_workspace(device, need, &ws)) != cudaSuccess) return err;
    } else if (a.workspace_bytes < need) {
      return cudaErrorInvalidValue;
    }
    p.tile_counters = static_cast<int*>(ws);
    p.partials = reinterpret_cast<float*>(static_cast<char*>(ws) + counters);
  }
  GemmTileScheduler<TileM, TileN, ClusterM> units_of = tiles;
  units_of.split_from = p.split_from;
  units_of.stream_ranges = p.stream_ranges;
  units_of.clusters = max_clusters;  // stream-K's units: pieces per range x the grid's clusters (all of them)
  const int units = units_of.units(p.splits, (s.k + 63) / 64);
  int clusters = units < max_clusters ? units : max_clusters;
  if constexpr (requires { fusion.max_ctas; }) {  // fewer CTAs: at most max_ctas (tests that share one GPU among simulated ranks)
    if (fusion.max_ctas > 0 && clusters * ClusterM > fusion.max_ctas) clusters = fusion.max_ctas / ClusterM > 0 ? fusion.max_ctas / ClusterM : 1;
  }
  config.gridDim = dim3(clusters * ClusterM);
  if constexpr (kPlain) return cudaLaunchKernelEx(&config, p.splits > 1 ? split_kernel : p.c_in_ring != 0 ? ring_kernel : kernel, p);
  else {
    const bool whole = gemm_sm90_whole_tiles(s.m, s.n, TileM * ClusterM, TileN);
    return cudaLaunchKernelEx(&config, whole ? whole_kernel : p.splits > 1 ? split_kernel : kernel, p, fusion);
  }
}

}  // namespace detail

// The variants of one operand layout: `config` (non-zero) picks one. A translation unit that
// only needs one layout calls this directly and instantiates 9 kernels instead of 36.
// Fusion: an epilogue tree for the fused kernels (gemm_sm90_fused), NoFusion for the plain ones.
template <class TA, class TD, GmmaMajor MajorA, GmmaMajor MajorB, class Fusion = gemm_sm90_impl::NoFusion>
cudaError_t gemm_sm90_variant(const GemmSm90Arguments<TA, TD>& args, cudaStream_t stream, GemmSm90Config config,
                              const Fusion& fusion = {}) {
  if (!gemm_sm90_config_supports(config, MajorB, MajorA)) return cudaErrorInvalidValue;
  constexpr bool kPlainVariant = std::is_same_v<Fusion, gemm_sm90_impl::NoFusion>;
  // Operands TMA cannot describe: staged into rows it can (gemm_sm90_stage.hpp), or the copy
  // mainloop, in the 128 x 128 tile (or the 64-row tile the configuration asked for: skinny M).
  if (!gemm_sm90_tma_describable(args)) {
    GemmSm90Arguments<TA, TD> staged;
    bool did = false;
    if (cudaError_t err = gemm_sm90_stage_operands(args, stream, staged, did); err != cudaSuccess) return err;
    if (did) return gemm_sm90_variant<TA, TD, MajorA, MajorB>(staged, stream, config, fusion);
    if (config.tile_m == 64) return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 128, 8, 1, false, 64, false, Fusion>(args, stream, GemmSplitAsk(config), fusion);
    return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 128, 6, 1, false, 128, false, Fusion>(args, stream, GemmSplitAsk(config), fusion);
  }
  if (config.swap_ab) {  // D^T = B A^T: the kernel's A is B, its B is A (K-major: checked above)
    if constexpr (!std::is_same_v<Fusion, gemm_sm90_impl::NoFusion> || MajorA != GmmaMajor::K) {
      return cudaErrorInvalidValue;
    } else {
      GemmSm90Arguments<TA, TD> t = args;
      t.shape = GemmShape{args.shape.n, args.shape.m, args.shape.k, args.shape.l};
      t.a = args.b, t.lda = args.ldb, t.batch_stride_a = args.batch_stride_b, t.major_a = args.major_b;
      t.b = args.a, t.ldb = args.lda, t.batch_stride_b = args.batch_stride_a, t.major_b = args.major_a;
      switch (gemm_sm90_variant_key(config)) {
        case gemm_sm90_variant_key({16, 10, 1}): return detail::gemm_sm90_launch<TA, TD, MajorB, MajorA, 16, 10, 1, false, 128, true, Fusion, true>(t, stream, GemmSplitAsk(config));
        case gemm_sm90_variant_key({32, 10, 1}): return detail::gemm_sm90_launch<TA, TD, MajorB, MajorA, 32, 10, 1, false, 128, true, Fusion, true>(t, stream, GemmSplitAsk(config));
        case gemm_sm90_variant_key({48, 8, 1}): return detail::gemm_sm90_launch<TA, TD, MajorB, MajorA, 48, 8, 1, false, 128, true, Fusion, true>(t, stream, GemmSplitAsk(config));
        default: return cudaErrorInvalidValue;
      }
    }
  }
  constexpr auto key = [](GemmSm90Config c) { return gemm_sm90_variant_key(c); };
  switch (key(config)) {
    case key({256, 4, 2}): return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 256, 4, 2, false, 128, true, Fusion>(args, stream, GemmSplitAsk(config), fusion);
    case key({256, 4, 1}): return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 256, 4, 1, false, 128, true, Fusion>(args, stream, GemmSplitAsk(config), fusion);
    case key({192, 4, 2, false, 192}):  // (plain GEMMs over a K-major B only: not run with an epilogue tree)
      if constexpr (MajorB == GmmaMajor::K && kPlainVariant) return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 192, 4, 2, false, 192, true, Fusion>(args, stream, GemmSplitAsk(config), fusion);
      else return cudaErrorInvalidValue;
    case key({192, 4, 2}):  // (K-major B only: each CTA's 96 columns of B are not whole 64-column blocks)
      if constexpr (MajorB == GmmaMajor::K) return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 192, 4, 2, false, 128, true, Fusion>(args, stream, GemmSplitAsk(config), fusion);
      else return cudaErrorInvalidValue;
    case key({192, 4, 1}): return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 192, 4, 1, false, 128, true, Fusion>(args, stream, GemmSplitAsk(config), fusion);
    case key({128, 6, 2}): return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 128, 6, 2, false, 128, true, Fusion>(args, stream, GemmSplitAsk(config), fusion);
    case key({128, 6, 1}): return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 128, 6, 1, false, 128, true, Fusion>(args, stream, GemmSplitAsk(config), fusion);
    case key({64, 8, 1}): return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 64, 8, 1, false, 128, true, Fusion>(args, stream, GemmSplitAsk(config), fusion);
    case key({128, 6, 2, true}):
      if constexpr (epilogue::RoutesTiles<Fusion>) return cudaErrorInvalidValue;  // tile routing: cooperative variants only
      else return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 128, 6, 2, true, 128, true, Fusion>(args, stream, GemmSplitAsk(config), fusion);
    case key({64, 12, 1, false, 64}):  // (not for MN-major B: gemm_sm90_config_supports refused it above)
      if constexpr (MajorB == GmmaMajor::K) return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 64, 12, 1, false, 64, true, Fusion>(args, stream, GemmSplitAsk(config), fusion);
      else return cudaErrorInvalidValue;
    case key({48, 14, 1, false, 64}):  // (K-major B only, as above)
      if constexpr (MajorB == GmmaMajor::K) return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 48, 14, 1, false, 64, true, Fusion>(args, stream, GemmSplitAsk(config), fusion);
      else return cudaErrorInvalidValue;
    case key({96, 7, 1}):  // (K-major B only, as above)
      if constexpr (MajorB == GmmaMajor::K) return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 96, 7, 1, false, 128, true, Fusion>(args, stream, GemmSplitAsk(config), fusion);
      else return cudaErrorInvalidValue;
    case key({160, 5, 1}):  // (K-major B only, as above)
      if constexpr (MajorB == GmmaMajor::K) return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 160, 5, 1, false, 128, true, Fusion>(args, stream, GemmSplitAsk(config), fusion);
      else return cudaErrorInvalidValue;
    case key({224, 4, 1}):  // (K-major B only, as above)
      if constexpr (MajorB == GmmaMajor::K) return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 224, 4, 1, false, 128, true, Fusion>(args, stream, GemmSplitAsk(config), fusion);
      else return cudaErrorInvalidValue;
    case key({128, 8, 1, false, 64}): return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 128, 8, 1, false, 64, true, Fusion>(args, stream, GemmSplitAsk(config), fusion);
    default: return cudaErrorInvalidValue;
  }
}

// `config` zero: the heuristic's choice for these arguments on the current device.
inline GemmSm90Config gemm_sm90_resolve(GemmShape shape, GemmLaunchFacts facts, GemmSm90Config config) {
  if (config.tile_n != 0) return config;
  static std::atomic<int> sm_count_by_device[detail::kCachedDevices];  // 0: not read yet
  int device = 0;
  const bool cached = cudaGetDevice(&device) == cudaSuccess && detail::device_is_cached(device);
  int sm_count = cached ? sm_count_by_device[device].load(std::memory_order_relaxed) : 0;
  if (sm_count <= 0) {
    if (cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || sm_count <= 0) {
      (void)cudaGetLastError();
      sm_count = 132;  // H100/H200 SXM: only steers the heuristic; the launch reports real errors
    } else if (cached) {
      sm_count_by_device[device].store(sm_count, std::memory_order_relaxed);
    }
  }
  // The heuristic weighs every variant and split (a few microseconds for decode shapes): each
  // thread keeps its last choices, so a loop over a model's layers asks it once per shape.
  struct Choice {
    GemmShape shape;
    int sm_count = 0;  // 0: empty
    GemmLaunchFacts facts;
    GemmSm90Config config;
  };
  static thread_local Choice chosen[16];
  const unsigned slot = (unsigned(shape.m) * 2654435761u ^ unsigned(shape.n) * 40503u ^ unsigned(shape.k) * 97u ^ unsigned(shape.l)) % 16u;
  Choice& c = chosen[slot];
  const bool hit = c.sm_count == sm_count && c.shape.m == shape.m && c.shape.n == shape.n && c.shape.k == shape.k &&
                   c.shape.l == shape.l && c.facts == facts;
  if (!hit) c = Choice{shape, sm_count, facts, gemm_sm90_heuristic(shape, sm_count, facts)};
  return c.config;
}

namespace detail {

// Operands TMA cannot describe staged first (if the model says so), so that the heuristic sees
// the rows the kernel will read; then the variant `config` names, or the heuristic's.
template <GmmaMajor MajorA, GmmaMajor MajorB, class TA, class TD, class Fusion>
cudaError_t gemm_sm90_stage_and_run(const GemmSm90Arguments<TA, TD>& args, cudaStream_t stream, GemmSm90Config config,
                                    const Fusion& fusion) {
  GemmSm90Arguments<TA, TD> staged;
  bool did = false;
  if (!gemm_sm90_tma_describable(args))
    if (cudaError_t err = gemm_sm90_stage_operands(args, stream, staged, did); err != cudaSuccess) return err;
  const GemmSm90Arguments<TA, TD>& run = did ? staged : args;
  // Swap-AB (GemmSm90Config::swap_ab) serves plain GEMMs over a K-major A only.
  constexpr bool kPlain = std::is_same_v<Fusion, gemm_sm90_impl::NoFusion>;
  constexpr bool kMaySwap = kPlain && MajorA == GmmaMajor::K;
  const bool ring_c = kPlain && gemm_sm90_c_through_ring(run);  // (fused trees read C in the epilogue)
  return gemm_sm90_variant<TA, TD, MajorA, MajorB>(
      run, stream,
      gemm_sm90_resolve(run.shape,
                        {.major_a = MajorA, .major_b = MajorB, .rows_128b_aligned = gemm_sm90_rows_128b_aligned(run),
                         .may_swap_ab = kMaySwap, .ring_c = ring_c, .fused = !kPlain, .d_bytes = int(sizeof(TD)),
                         .reads_c = run.beta != 0.f},
                        config),
      fusion);
}

}  // namespace detail

// D = alpha * A * B^T + beta * C on `stream`. `config` zero: the heuristic's choice. Returns
// cudaErrorInvalidValue when gemm_sm90_unsupported(args) is non-empty or no variant matches
// `config`; throws tma::TmaDescriptorError if the driver refuses a tensor map.
// gemm_sm90_majors<MajorA, MajorB>: the same for arguments whose majors are known at compile time.
template <GmmaMajor MajorA, GmmaMajor MajorB, class TA, class TD>
cudaError_t gemm_sm90_majors(const GemmSm90Arguments<TA, TD>& args, cudaStream_t stream = nullptr,
                             GemmSm90Config config = {}) {
  if (args.major_a != MajorA || args.major_b != MajorB || !gemm_sm90_unsupported(args).empty())
    return cudaErrorInvalidValue;
  return detail::gemm_sm90_stage_and_run<MajorA, MajorB>(args, stream, config, gemm_sm90_impl::NoFusion{});
}

template <class TA, class TD>
cudaError_t gemm_sm90(const GemmSm90Arguments<TA, TD>& args, cudaStream_t stream = nullptr, GemmSm90Config config = {}) {
  constexpr GmmaMajor K = GmmaMajor::K, MN = GmmaMajor::MN;
  if (args.major_a == K && args.major_b == K) return gemm_sm90_majors<K, K>(args, stream, config);
  if (args.major_a == MN && args.major_b == K) return gemm_sm90_majors<MN, K>(args, stream, config);
  if (args.major_a == K && args.major_b == MN) return gemm_sm90_majors<K, MN>(args, stream, config);
  return gemm_sm90_majors<MN, MN>(args, stream, config);
}

// ---- Fused epilogues (cute_dsl/epilogue, docs/10_epilogues.md) ---------------------------------
// D = tree(acc, ...) instead of alpha * A * B^T + beta * C: D (its type TD, ldd, batch stride)
// comes from `args`; C, alpha and beta do not (the tree reads C through c_source and scales
// with scalar()): beta must be 0. Aux stores and reductions write the tree's own tensors.

// Empty when the fused GEMM can run these arguments; otherwise the rule they break.
template <class TA, class TD>
std::string gemm_sm90_fused_unsupported(const GemmSm90Arguments<TA, TD>& args) {
  if (args.beta != 0.f) return "gemm_sm90_fused: C enters through the tree (c_source): beta must be 0";
  return gemm_sm90_unsupported(args);
}

// The heuristic's configuration (or `config`), among every variant: one kernel per variant and
// tree -- 16 with a K-major B (the two copy-mainloop variants included), 10 with an MN-major one --
// and, for ordinary trees, each TMA variant's whole-tile form besides (gemm_sm90_launch).
template <GmmaMajor MajorA, GmmaMajor MajorB, class TA, class TD, epilogue::EpilogueNode Tree>
cudaError_t gemm_sm90_fused(const GemmSm90Arguments<TA, TD>& args, const Tree& tree, cudaStream_t stream = nullptr,
                            GemmSm90Config config = {}) {
  if (args.major_a != MajorA || args.major_b != MajorB || !gemm_sm90_fused_unsupported(args).empty())
    return cudaErrorInvalidValue;
  return detail::gemm_sm90_stage_and_run<MajorA, MajorB>(args, stream, config, tree);
}

// One variant fixed at compile time (two kernels per tree and layout -- edge tiles, whole tiles --
// what tests and fused benchmarks instantiate). TMA-describable A and B only (gemm_sm90_tma_describable), no split-K.
// TileM: 128 (cooperative, 64 rows per consumer) or 64 (the consumers split TileN).
template <GmmaMajor MajorA, GmmaMajor MajorB, int TileN, int Stages, int ClusterM, int TileM = gemm_sm90_impl::kTileM, class TA,
          class TD, epilogue::EpilogueNode Tree>
cudaError_t gemm_sm90_fused_variant(const GemmSm90Arguments<TA, TD>& args, const Tree& tree, cudaStream_t stream = nullptr) {
  if (args.major_a != MajorA || args.major_b != MajorB || !gemm_sm90_fused_unsupported(args).empty() ||
      !gemm_sm90_tma_describable(args))
    return cudaErrorInvalidValue;
  return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, TileN, Stages, ClusterM, false, TileM, true, Tree>(args, stream, 1, tree);
}

}  // namespace cute_dsl::kernels

#endif  // CUTE_DSL_HOST_ONLY_CODE && __CUDACC__
