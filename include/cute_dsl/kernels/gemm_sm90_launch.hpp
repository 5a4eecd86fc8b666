// Host side of the Hopper GEMM (kernels/gemm_sm90.hpp): argument checks, the tile-configuration
// heuristic, tensor maps, and the cluster launch. For nvcc translation units (it instantiates
// and launches the kernel); under NVRTC and plain host compilers this header is empty.
//
//   cute_dsl::kernels::GemmSm90Arguments<__nv_bfloat16, __nv_bfloat16> args{...};
//   cudaError_t err = cute_dsl::kernels::gemm_sm90(args, stream);   // heuristic config
//
// Layouts: A is M x K and B is N x K, both K-major (row-major with leading dimension lda/ldb);
// C and D are M x N row-major. Batches (L) are `batch_stride_*` elements apart.
#pragma once

#include "cute_dsl/config.hpp"

#if CUTE_DSL_HOST_ONLY_CODE && defined(__CUDACC__)

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "cute_dsl/arch/sm90/tma_descriptor.hpp"
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
};

// The variants this launcher instantiates. Every one uses 192 KiB of ring (TileN x stages
// traded against each other) out of the 227 KiB an H100/H200 CTA may have.
inline constexpr GemmSm90Config kGemmSm90Configs[] = {
    {256, 4, 2}, {256, 4, 1}, {128, 6, 2}, {128, 6, 1}, {64, 8, 1}, {128, 6, 2, true}};

// Picks the variant with the smallest estimated time: waves of tiles over the SMs, each wave
// costing its tile width divided by how close narrower tiles get to the 128 x 256 tile's speed
// (a narrower tile re-reads A more often per flop). Clusters of 2 whenever M has two row blocks:
// they halve B's L2 traffic for free.
inline GemmSm90Config gemm_sm90_heuristic(GemmShape s, int sm_count) {
  struct Candidate {
    int tile_n;
    double efficiency;
  };
  const Candidate candidates[] = {{256, 1.0}, {128, 0.9}, {64, 0.75}};
  const long long row_blocks = (s.m + 127) / 128;
  GemmSm90Config best{};
  double best_cost = 0;
  for (const Candidate& c : candidates) {
    const long long tiles = row_blocks * ((s.n + c.tile_n - 1) / c.tile_n) * s.l;
    const long long waves = (tiles + sm_count - 1) / sm_count;
    const double cost = double(waves) * c.tile_n / c.efficiency;
    if (best.tile_n == 0 || cost < best_cost) {
      best_cost = cost;
      best.tile_n = c.tile_n;
    }
  }
  best.stages = best.tile_n == 256 ? 4 : best.tile_n == 128 ? 6 : 8;
  best.cluster_m = (row_blocks >= 2 && best.tile_n >= 128) ? 2 : 1;
  return best;
}

// Empty when the kernel can run these arguments; otherwise the rule they break.
template <class TA, class TD>
std::string gemm_sm90_unsupported(const GemmSm90Arguments<TA, TD>& a) {
  const GemmShape& s = a.shape;
  if (s.m < 1 || s.n < 1 || s.k < 1 || s.l < 1) return "M, N, K and L must be at least 1";
  auto aligned16 = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  if (!aligned16(a.a) || !aligned16(a.b)) return "A and B must be 16-byte aligned (TMA)";
  if ((a.lda * long(sizeof(TA))) % 16 != 0 || (a.ldb * long(sizeof(TA))) % 16 != 0)
    return "lda and ldb must be multiples of 16 bytes (TMA): 8 elements for 16-bit types";
  if (s.l > 1 && ((a.batch_stride_a * long(sizeof(TA))) % 16 != 0 || (a.batch_stride_b * long(sizeof(TA))) % 16 != 0))
    return "the batch strides of A and B must be multiples of 16 bytes (TMA)";
  if (a.lda < s.k || a.ldb < s.k || a.ldd < s.n || (a.beta != 0.f && (a.c == nullptr || a.ldc < s.n)))
    return "leading dimensions must cover K (A, B) and N (C, D); beta != 0 needs C";
  return {};
}

namespace detail {

// A K-major operand (rows x K, L batches) as a 3-D tensor map whose box is 64 x box_rows, with the
// 128-byte swizzle the kernel's descriptors expect and zeros past the ends.
template <class TA>
GemmTensorMap gemm_operand_map(const TA* p, int rows, int k, int l, long long ld, long long batch_stride,
                               int box_rows) {
  static tma::EncodeTiledFn encode = tma::encode_tiled_from_cudart();
  tma::TiledDescriptorSpec spec;
  spec.data_type = gemm_sm90_impl::is_bf16<TA> ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  spec.element_bytes = int(sizeof(TA));
  spec.global_address = const_cast<TA*>(p);
  spec.shape = {std::uint64_t(k), std::uint64_t(rows), std::uint64_t(l)};
  const long long batch = l > 1 ? batch_stride : ld * rows;  // unused when L == 1, but must be legal
  spec.strides_bytes = {std::uint64_t(ld) * sizeof(TA), std::uint64_t(batch) * sizeof(TA)};
  spec.box = {std::uint32_t(gemm_sm90_impl::kTileK), std::uint32_t(box_rows), 1};
  spec.swizzle = tma::SwizzleMode::bytes128;
  spec.l2_promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
  CUtensorMap map = tma::make_tma_descriptor(encode, spec);
  GemmTensorMap out;
  static_assert(sizeof(out) == sizeof(map), "GemmTensorMap must mirror CUtensorMap (128 bytes)");
  __builtin_memcpy(&out, &map, sizeof(map));
  return out;
}

template <class TA, class TD, int TileN, int Stages, int ClusterM, bool PingPong = false>
cudaError_t gemm_sm90_launch(const GemmSm90Arguments<TA, TD>& a, cudaStream_t stream) {
  auto* kernel = &gemm_sm90_kernel<TA, TD, TileN, Stages, ClusterM, PingPong>;
  constexpr int kSmem = gemm_sm90_impl::shared_bytes<TileN, Stages>;
  static const cudaError_t attr_err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem);
  if (attr_err != cudaSuccess) return attr_err;

  const GemmShape& s = a.shape;
  GemmSm90Params<TD> p;
  p.tma_a = gemm_operand_map(a.a, s.m, s.k, s.l, a.lda, a.batch_stride_a, gemm_sm90_impl::kTileM);
  p.tma_b = gemm_operand_map(a.b, s.n, s.k, s.l, a.ldb, a.batch_stride_b, TileN / ClusterM);
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
  config.numAttrs = 1;

  // Persistent grid: as many clusters as fit on the GPU at once (cluster placement may leave
  // some SMs idle), never more than there are cluster tiles.
  static const int max_clusters = [&] {
    int device = 0, sms = 0, n = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaLaunchConfig_t probe = config;
    probe.gridDim = dim3(ClusterM * (sms / ClusterM));
    if (cudaOccupancyMaxActiveClusters(&n, kernel, &probe) != cudaSuccess || n <= 0) {
      (void)cudaGetLastError();
      n = sms / ClusterM;
    }
    return n;
  }();
  const GemmTileScheduler<gemm_sm90_impl::kTileM, TileN, ClusterM> scheduler(s.m, s.n, s.l);
  const int clusters = scheduler.cluster_tiles() < max_clusters ? scheduler.cluster_tiles() : max_clusters;
  config.gridDim = dim3(clusters * ClusterM);
  return cudaLaunchKernelEx(&config, kernel, p);
}

}  // namespace detail

// D = alpha * A * B^T + beta * C on `stream`. `config` zero: the heuristic's choice. Returns
// cudaErrorInvalidValue when gemm_sm90_unsupported(args) is non-empty or no variant matches
// `config`; throws tma::TmaDescriptorError if the driver refuses a tensor map.
template <class TA, class TD>
cudaError_t gemm_sm90(const GemmSm90Arguments<TA, TD>& args, cudaStream_t stream = nullptr, GemmSm90Config config = {}) {
  if (!gemm_sm90_unsupported(args).empty()) return cudaErrorInvalidValue;
  if (config.tile_n == 0) {
    static const int sm_count = [] {
      int device = 0, sms = 0;
      cudaGetDevice(&device);
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
      return sms > 0 ? sms : 132;
    }();
    config = gemm_sm90_heuristic(args.shape, sm_count);
  }
  const int key = (config.ping_pong ? 100000 : 0) + config.tile_n * 100 + config.stages * 10 + config.cluster_m;
  switch (key) {
    case 25642: return detail::gemm_sm90_launch<TA, TD, 256, 4, 2>(args, stream);
    case 25641: return detail::gemm_sm90_launch<TA, TD, 256, 4, 1>(args, stream);
    case 12862: return detail::gemm_sm90_launch<TA, TD, 128, 6, 2>(args, stream);
    case 12861: return detail::gemm_sm90_launch<TA, TD, 128, 6, 1>(args, stream);
    case 6481: return detail::gemm_sm90_launch<TA, TD, 64, 8, 1>(args, stream);
    case 112862: return detail::gemm_sm90_launch<TA, TD, 128, 6, 2, true>(args, stream);
    default: return cudaErrorInvalidValue;
  }
}

}  // namespace cute_dsl::kernels

#endif  // CUTE_DSL_HOST_ONLY_CODE && __CUDACC__
