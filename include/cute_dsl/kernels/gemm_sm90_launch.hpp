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
#include <cstdint>
#include <string>

#include "cute_dsl/arch/sm90/tma_descriptor.hpp"
#include "cute_dsl/atom/make_tma_atom.hpp"
#include "cute_dsl/kernels/gemm_operand_map.hpp"
#include "cute_dsl/kernels/gemm_sm90.hpp"

namespace cute_dsl::kernels {

struct GemmShape {
  int m, n, k, l;
};

// One compiled variant of the kernel: columns per CTA tile, ring stages, CTAs per cluster along M.
struct GemmSm90Config {
  int tile_n = 0;  // 0: let the heuristic choose
  int stages = 0;
  int cluster_m = 0;
  bool ping_pong = false;  // consumer warpgroups alternate whole tiles (gemm_sm90.hpp)
  int tile_m = 128;        // 64: skinny-M tiles, the two consumers split TileN
};

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
};

// The variants this launcher instantiates. Every one uses 192 KiB of ring (tile size x stages
// traded against each other) out of the 227 KiB an H100/H200 CTA may have.
inline constexpr GemmSm90Config kGemmSm90Configs[] = {
    {256, 4, 2}, {256, 4, 1}, {128, 6, 2}, {128, 6, 1}, {64, 8, 1}, {128, 6, 2, true},
    {64, 12, 1, false, 64}, {128, 8, 1, false, 64}};

// Whether a variant can run an operand layout: 64-row tiles split B between the consumers at
// TileN / 2 columns, which MN-major B needs to be whole 64-column blocks.
inline bool gemm_sm90_config_supports(GemmSm90Config c, GmmaMajor major_b) {
  return !(c.tile_m == 64 && major_b == GmmaMajor::MN && (c.tile_n / 2) % 64 != 0);
}

// Picks the variant with the smallest estimated time: waves of tiles over the SMs, each wave
// costing its tile area divided by how close that tile shape gets to the 128 x 256 tile's speed
// (a smaller tile re-reads its operands more often per flop). Clusters of 2 when M has two row
// blocks and there is more than one wave of tiles. 64-row tiles pay off for M <= 64, where a
// 128-row tile would multiply zeros in half of its rows. Measurements: bench/results/gemm_notes.md.
inline GemmSm90Config gemm_sm90_heuristic(GemmShape s, int sm_count, GmmaMajor major_b = GmmaMajor::K) {
  struct Candidate {
    int tile_m, tile_n, stages;
    double efficiency;
  };
  const Candidate candidates[] = {{128, 256, 4, 1.0}, {128, 128, 6, 0.9}, {128, 64, 8, 0.75}, {64, 64, 12, 0.6}};
  GemmSm90Config best{};
  double best_cost = 0;
  for (const Candidate& c : candidates) {
    const GemmSm90Config config{c.tile_n, c.stages, 1, false, c.tile_m};
    if (!gemm_sm90_config_supports(config, major_b)) continue;
    const long long tiles = ((s.m + c.tile_m - 1) / c.tile_m) * ((s.n + c.tile_n - 1) / c.tile_n) * (long long)s.l;
    const long long waves = (tiles + sm_count - 1) / sm_count;
    const double cost = double(waves) * c.tile_m * c.tile_n / c.efficiency;
    if (best.tile_n == 0 || cost < best_cost) {
      best_cost = cost;
      best = config;
    }
  }
  // Clusters of 2 pay off once tiles queue up behind each other (several waves: B's L2 traffic
  // halves); in a single wave they only constrain placement (run 10: 2048^3 622 vs 602 TFLOP/s).
  const long long row_blocks = (s.m + 127) / 128;
  const long long tiles = row_blocks * ((s.n + best.tile_n - 1) / best.tile_n) * (long long)s.l;
  if (best.tile_m == 128 && row_blocks >= 2 && best.tile_n >= 128 && tiles > sm_count) best.cluster_m = 2;
  return best;
}

// Empty when the kernel can run these arguments; otherwise the rule they break.
template <class TA, class TD>
std::string gemm_sm90_unsupported(const GemmSm90Arguments<TA, TD>& a) {
  const GemmShape& s = a.shape;
  if (s.m < 1 || s.n < 1 || s.k < 1 || s.l < 1) return "M, N, K and L must be at least 1";
  auto aligned16 = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  if (!aligned16(a.a) || !aligned16(a.b)) return "A and B must be 16-byte aligned (TMA)";
  if ((a.lda * (long long)sizeof(TA)) % 16 != 0 || (a.ldb * (long long)sizeof(TA)) % 16 != 0)
    return "lda and ldb must be multiples of 16 bytes (TMA): 8 elements for 16-bit types";
  if (s.l > 1 && ((a.batch_stride_a * (long long)sizeof(TA)) % 16 != 0 || (a.batch_stride_b * (long long)sizeof(TA)) % 16 != 0))
    return "the batch strides of A and B must be multiples of 16 bytes (TMA)";
  const long long a_row = a.major_a == GmmaMajor::K ? s.k : s.m, b_row = a.major_b == GmmaMajor::K ? s.k : s.n;
  if (a.lda < a_row || a.ldb < b_row || a.ldd < s.n || (a.beta != 0.f && (a.c == nullptr || a.ldc < s.n)))
    return "leading dimensions must cover the contiguous extent (A: K or M, B: K or N) and N (C, D); beta != 0 needs C";
  return {};
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
  spec.bf16 = gmma_input_of<TA>::value == GmmaInput::bf16;
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

template <class TA, class TD, GmmaMajor MajorA, GmmaMajor MajorB, int TileN, int Stages, int ClusterM, bool PingPong = false,
          int TileM = gemm_sm90_impl::kTileM>
cudaError_t gemm_sm90_launch(const GemmSm90Arguments<TA, TD>& a, cudaStream_t stream) {
  auto* kernel = &gemm_sm90_kernel<TA, TD, TileN, Stages, ClusterM, PingPong, MajorA, MajorB, TileM>;
  constexpr int kSmem = gemm_sm90_shared_bytes<TA, TileN, Stages, ClusterM, PingPong, MajorA, MajorB, TileM>;
  static std::atomic<bool> attr_set[kCachedDevices];  // the attribute is per device
  static std::atomic<int> max_clusters_by_device[kCachedDevices];  // 0: not computed yet
  int device = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err != cudaSuccess) return err;
  const bool cached = device_is_cached(device);
  if (!cached || !attr_set[device].load(std::memory_order_acquire)) {
    if ((err = gemm_sm90_check_device(device)) != cudaSuccess) return err;
    err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem);
    if (err != cudaSuccess) return err;
    if (cached) attr_set[device].store(true, std::memory_order_release);
  }

  const GemmShape& s = a.shape;
  GemmSm90KernelParams<TA, TD, TileN, Stages, ClusterM, PingPong, MajorA, MajorB, TileM> p;
  p.tma_a.desc = gemm_operand_map(a.a, MajorA, s.m, s.k, s.l, a.lda, a.batch_stride_a, TileM);
  p.tma_b.desc = gemm_operand_map(a.b, MajorB, s.n, s.k, s.l, a.ldb, a.batch_stride_b, TileN / ClusterM);
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
  const GemmTileScheduler<TileM, TileN, ClusterM> scheduler(s.m, s.n, s.l);
  const int clusters = scheduler.cluster_tiles() < max_clusters ? scheduler.cluster_tiles() : max_clusters;
  config.gridDim = dim3(clusters * ClusterM);
  return cudaLaunchKernelEx(&config, kernel, p);
}

}  // namespace detail

// The variants of one operand layout: `config` (non-zero) picks one. A translation unit that
// only needs one layout calls this directly and instantiates 8 kernels instead of 32.
template <class TA, class TD, GmmaMajor MajorA, GmmaMajor MajorB>
cudaError_t gemm_sm90_variant(const GemmSm90Arguments<TA, TD>& args, cudaStream_t stream, GemmSm90Config config) {
  if (!gemm_sm90_config_supports(config, MajorB)) return cudaErrorInvalidValue;
  const int key = config.tile_m * 1000000 + (config.ping_pong ? 100000 : 0) + config.tile_n * 100 + config.stages * 10 +
                  config.cluster_m;
  switch (key) {
    case 128025642: return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 256, 4, 2>(args, stream);
    case 128025641: return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 256, 4, 1>(args, stream);
    case 128012862: return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 128, 6, 2>(args, stream);
    case 128012861: return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 128, 6, 1>(args, stream);
    case 128006481: return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 64, 8, 1>(args, stream);
    case 128112862: return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 128, 6, 2, true>(args, stream);
    case 64006521:  // (not for MN-major B: gemm_sm90_config_supports refused it above)
      if constexpr (MajorB == GmmaMajor::K) return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 64, 12, 1, false, 64>(args, stream);
      else return cudaErrorInvalidValue;
    case 64012881: return detail::gemm_sm90_launch<TA, TD, MajorA, MajorB, 128, 8, 1, false, 64>(args, stream);
    default: return cudaErrorInvalidValue;
  }
}

// `config` zero: the heuristic's choice for these arguments on the current device.
inline GemmSm90Config gemm_sm90_resolve(GemmShape shape, GmmaMajor major_b, GemmSm90Config config) {
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
  return gemm_sm90_heuristic(shape, sm_count, major_b);
}

// D = alpha * A * B^T + beta * C on `stream`. `config` zero: the heuristic's choice. Returns
// cudaErrorInvalidValue when gemm_sm90_unsupported(args) is non-empty or no variant matches
// `config`; throws tma::TmaDescriptorError if the driver refuses a tensor map.
// gemm_sm90_majors<MajorA, MajorB>: the same for arguments whose majors are known at compile time.
template <GmmaMajor MajorA, GmmaMajor MajorB, class TA, class TD>
cudaError_t gemm_sm90_majors(const GemmSm90Arguments<TA, TD>& args, cudaStream_t stream = nullptr,
                             GemmSm90Config config = {}) {
  if (args.major_a != MajorA || args.major_b != MajorB || !gemm_sm90_unsupported(args).empty())
    return cudaErrorInvalidValue;
  return gemm_sm90_variant<TA, TD, MajorA, MajorB>(args, stream, gemm_sm90_resolve(args.shape, MajorB, config));
}

template <class TA, class TD>
cudaError_t gemm_sm90(const GemmSm90Arguments<TA, TD>& args, cudaStream_t stream = nullptr, GemmSm90Config config = {}) {
  constexpr GmmaMajor K = GmmaMajor::K, MN = GmmaMajor::MN;
  if (args.major_a == K && args.major_b == K) return gemm_sm90_majors<K, K>(args, stream, config);
  if (args.major_a == MN && args.major_b == K) return gemm_sm90_majors<MN, K>(args, stream, config);
  if (args.major_a == K && args.major_b == MN) return gemm_sm90_majors<K, MN>(args, stream, config);
  return gemm_sm90_majors<MN, MN>(args, stream, config);
}

}  // namespace cute_dsl::kernels

#endif  // CUTE_DSL_HOST_ONLY_CODE && __CUDACC__
