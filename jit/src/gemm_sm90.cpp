// The Hopper GEMM through the JIT (cute_dsl/jit/gemm_sm90.hpp): spec, tensor maps, launch.
#include "cute_dsl/jit/gemm_sm90.hpp"
#include "gemm_sm90_setup.hpp"

#include "cute_dsl/arch/sm90/tma_descriptor.hpp"
#include "cute_dsl/atom/make_tma_atom.hpp"
#include "cute_dsl/jit/detail/driver_api.hpp"
#include "cute_dsl/jit/launch.hpp"
#include "cute_dsl/kernels/gemm_operand_map.hpp"
#include "cute_dsl/kernels/gemm_sm90.hpp"

#include <cstdint>
#include <cstring>

namespace cute_dsl::jit {

namespace {

constexpr int kTileK = 64;                           // gemm_sm90_impl::kTileK
constexpr unsigned kMaxSharedPerBlock = 227 * 1024;  // sm_90's opt-in limit per CTA

int bytes_of(ElementType t) { return t == ElementType::f32 ? 4 : 2; }
bool is_16bit_float(ElementType t) { return t == ElementType::bf16 || t == ElementType::f16; }

// cuTensorMapEncodeTiled and the other entry points below, from the JIT's driver.
template <class F>
F driver_fn(const char* name) {
  return reinterpret_cast<F>(detail::driver_symbol(name));
}

// The operand's tensor map (kernels/gemm_operand_map.hpp, shared with the nvcc launcher), written
// into `out` (not returned: a 64-byte aligned value would be passed by an ABI GCC warns about).
Expected<Ok, JitError> operand_map(const kernels::GemmOperandMapSpec& spec, TmaDescriptor& out) {
  static const auto encode = driver_fn<tma::EncodeTiledFn>("cuTensorMapEncodeTiled");
  if (!encode) return unexpected(JitError{JitErrorKind::no_driver, "the driver has no cuTensorMapEncodeTiled", {}, {}, {}});
  try {
    out = tma_detail::to_descriptor(kernels::make_gemm_operand_map(encode, spec));
  } catch (const tma::TmaDescriptorError& e) {
    return unexpected(JitError{JitErrorKind::invalid_option, e.what(), {}, {}, {}});
  }
  return Ok{};
}

// Clusters resident at once for this kernel and config (cuOccupancyMaxActiveClusters), else the
// SMs divided by the cluster size.
int max_active_clusters(LoadedKernel& kernel, const GemmSm90Config& c, const detail::DriverApi& api) {
  int device = 0, sms = 132;
  using AttributeFn = detail::CuResult (*)(int*, int, int);
  if (auto get = driver_fn<AttributeFn>("cuDeviceGetAttribute"); get && api.ctx_get_device(&device) == 0)
    get(&sms, 16, device);  // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
  using OccupancyFn = detail::CuResult (*)(int*, detail::CuFunction, const detail::CuLaunchConfig*);
  int n = 0;
  if (auto occupancy = driver_fn<OccupancyFn>("cuOccupancyMaxActiveClusters")) {
    detail::CuLaunchConfig probe;
    detail::CuLaunchAttribute cluster;
    cluster.id = detail::kLaunchAttributeClusterDimension;
    cluster.value.dim = {unsigned(c.cluster_m), unsigned(c.cluster_n), 1};
    probe.grid_x = unsigned(c.cluster_m * (sms / c.cluster_m));
    probe.block_x = kGemmSm90Threads;
    probe.shared_bytes = gemm_sm90_shared_bytes(c);
    probe.attrs = &cluster;
    probe.num_attrs = 1;
    if (kernel.reserve_dynamic_shared(probe.shared_bytes) && occupancy(&n, kernel.function(), &probe) == 0 && n > 0)
      return n;
  }
  return sms / c.cluster_m;
}

}  // namespace

std::string to_string(const GemmSm90Config& c) {
  return std::to_string(c.tile_m) + "x" + std::to_string(c.tile_n) + "x" + std::to_string(c.tile_k) + " s" +
         std::to_string(c.stages) + " c" + std::to_string(c.cluster_m) + "x" + std::to_string(c.cluster_n) +
         (c.ping_pong ? " pp" : "") + (c.edge_tiles ? "" : " whole-tiles");
}

bool gemm_sm90_whole_tiles(const GemmSm90Config& c, int m, int n) {
  return c.tile_m > 0 && c.cluster_m > 0 && kernels::gemm_sm90_whole_tiles(m, n, c.tile_m * c.cluster_m, c.tile_n);
}

unsigned gemm_sm90_shared_bytes(const GemmSm90Config& c) {
  // The kernel's Storage (gemm_sm90.hpp): A and B rings (1024-byte multiples), the barriers
  // rounded up to the struct's 1024-byte alignment; plus 1024 - 16 bytes to align the dynamic
  // base (shared_storage_bytes). A GPU test compares it with the kernel's own figure.
  return unsigned(c.stages) * unsigned((c.tile_m + c.tile_n) * kTileK * 2) + 1024 + 1024 - 16;
}

std::string gemm_sm90_unsupported(const GemmSm90Types& t, const GemmSm90Config& c) {
  // The kernel's static_asserts, checked before compiling (a config from a table or a user).
  if (!is_16bit_float(t.a)) return "gemm_sm90: A and B must be bf16 or f16";
  if (!is_16bit_float(t.d) && t.d != ElementType::f32) return "gemm_sm90: C and D must be bf16, f16 or f32";
  if (c.tile_m != 128 && c.tile_m != 64 && c.tile_m != 192) return "gemm_sm90: tile_m must be 64, 128 or 192";
  if (c.tile_m == 192 && (c.ping_pong || t.b_major != GemmMajor::k))
    return "gemm_sm90: tile_m 192 is a cooperative tile over a K-major B (each consumer all rows, tile_n / 2 columns)";
  if (c.tile_k != kTileK) return "gemm_sm90: tile_k is 64 (one 128-byte swizzle row)";
  if (c.tile_n != 48 && c.tile_n != 64 && c.tile_n != 96 && c.tile_n != 128 && c.tile_n != 160 && c.tile_n != 192 && c.tile_n != 224 &&
      c.tile_n != 256)
    return "gemm_sm90: tile_n must be 48, 64, 96, 128, 160, 192, 224 or 256";
  if (c.tile_n == 48 && (c.tile_m != 64 || c.ping_pong || t.b_major != GemmMajor::k))
    return "gemm_sm90: tile_n 48 is a 64-row cooperative tile over a K-major B";
  // (The kernel would take 96, 160 or 224 columns in 64-row tiles and clusters too: neither is
  // timed or tested.)
  if (c.tile_n % 64 == 32 && (c.tile_m != 128 || c.ping_pong || c.cluster_m != 1 || t.b_major != GemmMajor::k))
    return "gemm_sm90: tile_n " + std::to_string(c.tile_n) + " is a 128-row cooperative tile without clusters over a K-major B";
  if (c.stages < 2) return "gemm_sm90: the ring needs at least 2 stages";
  if ((c.cluster_m != 1 && c.cluster_m != 2) || c.cluster_n != 1) return "gemm_sm90: clusters are 1x1 or 2x1";
  if (c.ping_pong && c.tile_m * c.tile_n > 128 * 128) return "gemm_sm90: ping-pong needs tile_m x tile_n <= 128 x 128 (64 x 256)";
  if ((c.tile_n / c.cluster_m) % 8 != 0) return "gemm_sm90: each CTA's slice of B must be whole 8-row atoms";
  if (c.tile_m == 64 && !c.ping_pong && c.cluster_m != 1) return "gemm_sm90: 64-row cooperative tiles run without clusters";
  if (c.tile_m == 128 && t.b_major == GemmMajor::mn && c.tile_n / 64 > 1 && (c.tile_n / 64) % c.cluster_m != 0)
    return "gemm_sm90: with an MN-major B a tile's 64-column blocks must split evenly over the cluster";
  if (c.tile_m != 128 && !c.ping_pong && t.b_major == GemmMajor::mn && (c.tile_n / 2) % 64 != 0)
    return "gemm_sm90: 64-row tiles with MN-major B need tile_n 128 or 256";
  // The ring (dynamic) and, for 16-bit D, the epilogue's 2 KiB per consumer warp (static:
  // gemm_sm90_impl::kEpilogueStageBytes); the compiled kernel's own figure is checked again after.
  const unsigned epilogue_stage = is_16bit_float(t.d) ? 8u * 2048u : 0u;
  if (gemm_sm90_shared_bytes(c) + epilogue_stage > kMaxSharedPerBlock)
    return "gemm_sm90: " + std::to_string(gemm_sm90_shared_bytes(c) + epilogue_stage) + " bytes of shared memory exceed 227 KiB";
  return {};
}

std::string gemm_sm90_unsupported(const GemmSm90Types& t, const GemmSm90Arguments& a) {
  if (a.m < 1 || a.n < 1 || a.k < 1 || a.l < 1) return "M, N, K and L must be at least 1";
  const long long eb = bytes_of(t.a);
  auto aligned16 = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  if (!aligned16(a.a) || !aligned16(a.b)) return "A and B must be 16-byte aligned (TMA)";
  if ((a.lda * eb) % 16 != 0 || (a.ldb * eb) % 16 != 0) return "lda and ldb must be multiples of 16 bytes (TMA)";
  if (a.l > 1 && ((a.batch_stride_a * eb) % 16 != 0 || (a.batch_stride_b * eb) % 16 != 0))
    return "the batch strides of A and B must be multiples of 16 bytes (TMA)";
  const long long a_row = t.a_major == GemmMajor::k ? a.k : a.m, b_row = t.b_major == GemmMajor::k ? a.k : a.n;
  if (a.lda < a_row || a.ldb < b_row || a.ldd < a.n || a.d == nullptr || (a.beta != 0.f && (a.c == nullptr || a.ldc < a.n)))
    return "leading dimensions must cover the contiguous extent (A: K or M, B: K or N) and N (C, D); beta != 0 needs C";
  return {};
}

namespace {
TemplateArg major(GemmMajor m) {
  return TemplateArg::raw(m == GemmMajor::k ? "cute_dsl::GmmaMajor::K" : "cute_dsl::GmmaMajor::MN");
}
}  // namespace

KernelSpec gemm_sm90_spec(const GemmSm90Types& t, const GemmSm90Config& c) {
  KernelSpec spec;
  spec.header = "cute_dsl/kernels/gemm_sm90.hpp";
  spec.kernel = "cute_dsl::kernels::gemm_sm90_kernel";
  spec.template_args = {TemplateArg::type(t.a), TemplateArg::type(t.d), TemplateArg::integer(c.tile_n),
                        TemplateArg::integer(c.stages), TemplateArg::integer(c.cluster_m),
                        TemplateArg::boolean(c.ping_pong), major(t.a_major), major(t.b_major),
                        TemplateArg::integer(c.tile_m),
                        // TMA loads, D not transposed, no split-K path: the JIT never splits (p.splits = 1 below);
                        // no ring path for C: its launch reads C in the epilogue (p.c_in_ring = 0 below).
                        TemplateArg::boolean(true), TemplateArg::boolean(false), TemplateArg::boolean(false),
                        TemplateArg::boolean(false)};
  return spec;
}

Expected<GemmSm90Launch, JitError> gemm_sm90_launch_setup(LoadedKernel& kernel, const GemmSm90Types& t, const GemmSm90Config& c,
                                                          const GemmSm90Arguments& a, void* stream) {
  std::string why = gemm_sm90_unsupported(t, c);
  if (why.empty()) why = gemm_sm90_unsupported(t, a);
  if (why.empty() && !c.edge_tiles && !gemm_sm90_whole_tiles(c, a.m, a.n))
    why = "gemm_sm90: this kernel was compiled without edge tiles (edge_tiles = false): M must be a multiple of tile_m x cluster_m (" +
          std::to_string(c.tile_m * c.cluster_m) + ") and N of tile_n (" + std::to_string(c.tile_n) + "), got " + std::to_string(a.m) +
          " x " + std::to_string(a.n);
  if (!why.empty()) return unexpected(JitError{JitErrorKind::invalid_option, why, {}, {}, {}});
  auto api = detail::driver_api();
  if (!api) return unexpected(api.error());

  kernels::GemmSm90Params<void> p;
  const bool bf16 = t.a == ElementType::bf16;
  // Named fields: a field added to the spec must not shift the others.
  kernels::GemmOperandMapSpec map{.data = a.a, .bf16 = bf16, .k_major = t.a_major == GemmMajor::k, .rows = a.m, .k = a.k, .l = a.l,
                                  .ld = a.lda, .batch_stride = a.batch_stride_a, .box_rows = c.tile_m};
  if (auto r = operand_map(map, p.tma_a); !r) return unexpected(r.error());
  map.box_rows = kernels::gemm_sm90_box_rows_a(c.tile_m);  // A in row boxes: the last row block's loads
  if (auto r = operand_map(map, p.tma_a_rows); !r) return unexpected(r.error());
  map = {.data = a.b, .bf16 = bf16, .k_major = t.b_major == GemmMajor::k, .rows = a.n, .k = a.k, .l = a.l, .ld = a.ldb,
         .batch_stride = a.batch_stride_b, .box_rows = c.tile_n / c.cluster_m};
  if (auto r = operand_map(map, p.tma_b); !r) return unexpected(r.error());
  p.k = a.k;
  p.l = a.l;
  p.box_a = p.box_b = GlobalBox<void>{};  // the JIT instantiates the TMA mainloop only
  p.splits = 1;                           // and no split-K (yet)
  p.partials = nullptr;
  p.tile_counters = nullptr;
  p.split_from = 0;
  p.c_in_ring = 0;
  p.stream_ranges = 0;
  p.epilogue = {a.d, a.c, a.ldd, a.batch_stride_d, a.ldc, a.batch_stride_c, a.m, a.n, a.alpha, a.beta};

  // Persistent grid: as many clusters as fit at once, never more than there are cluster tiles
  // (GemmTileScheduler's count: tile_m*cluster_m x tile_n cluster tiles per batch).
  const long long tiles_m = (a.m + c.tile_m * c.cluster_m - 1) / (c.tile_m * c.cluster_m);
  const long long tiles = tiles_m * ((a.n + c.tile_n - 1) / c.tile_n) * a.l;
  const long long clusters = std::min<long long>(tiles, max_active_clusters(kernel, c, **api));

  LaunchConfig config;
  config.grid.x = unsigned(clusters * c.cluster_m);
  config.block.x = kGemmSm90Threads;
  config.cluster = {unsigned(c.cluster_m), unsigned(c.cluster_n), 1};
  config.dynamic_smem_bytes = gemm_sm90_shared_bytes(c);
  config.stream = stream;
  return GemmSm90Launch{p, config};
}

Expected<Ok, JitError> launch_gemm_sm90(LoadedKernel& kernel, const GemmSm90Types& t, const GemmSm90Config& c,
                                        const GemmSm90Arguments& a, void* stream) {
  auto setup = gemm_sm90_launch_setup(kernel, t, c, a, stream);
  if (!setup) return unexpected(setup.error());
  return launch(kernel, setup->config, setup->params);
}

Expected<GemmSm90Jit, JitError> GemmSm90Jit::create(const GemmSm90Types& types, const GemmSm90Config& config,
                                                    const CompileOptions& options) {
  if (std::string why = gemm_sm90_unsupported(types, config); !why.empty())
    return unexpected(JitError{JitErrorKind::invalid_option, why, {}, {}, {}});
  auto compiled = compile(gemm_sm90_spec(types, config), options);
  if (!compiled) return unexpected(compiled.error());
  // The kernel's static shared memory (the epilogue's staging) comes on top of the ring.
  if (auto usage = read_resource_usage((*compiled)->binary, (*compiled)->lowered_name);
      usage && usage->shared_bytes + gemm_sm90_shared_bytes(config) > kMaxSharedPerBlock)
    return unexpected(JitError{JitErrorKind::invalid_option,
                               "gemm_sm90: " + std::to_string(usage->shared_bytes) + " bytes of static and " +
                                   std::to_string(gemm_sm90_shared_bytes(config)) +
                                   " of dynamic shared memory exceed 227 KiB",
                               {}, {}, {}});
  auto loaded = load(**compiled);
  if (!loaded) return unexpected(loaded.error());
  return GemmSm90Jit(types, config, std::move(*compiled), std::move(*loaded));
}

}  // namespace cute_dsl::jit
