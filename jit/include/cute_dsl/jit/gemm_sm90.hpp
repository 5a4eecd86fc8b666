// The Hopper GEMM (include/cute_dsl/kernels/gemm_sm90.hpp) through the JIT: the same kernel source
// that nvcc programs instantiate with gemm_sm90_launch.hpp, here specialised from RUN-TIME values
// (element types, tile, stages, cluster), compiled by NVRTC through the cache, launched through
// the dlopen'ed driver (tensor maps, cluster dimensions, dynamic shared memory). No cudart, no
// libcuda at link time: a program using this starts on a machine without a GPU.
//
//   jit::GemmSm90Types types{jit::ElementType::bf16, jit::ElementType::bf16};
//   auto gemm = jit::GemmSm90Jit::create(types, {.tile_n = 256, .stages = 4, .cluster_m = 2});
//   gemm->run(args, stream);                       // D = alpha * A * B^T + beta * C
//
//   auto tuned = jit::autotune_gemm_sm90(types, args);  // candidates compiled in parallel, timed,
//                                                       // the winner kept on disk (gemm_autotune.hpp)
//
// Layouts (the kernel's): A is M x K and B is N x K, each K-major (lda/ldb: elements between rows)
// or MN-major (lda/ldb: elements between K columns); C and D are M x N row-major; batches (L) are
// batch_stride_* elements apart.
#pragma once

#include "cute_dsl/jit/compile.hpp"
#include "cute_dsl/jit/error.hpp"
#include "cute_dsl/jit/expected.hpp"
#include "cute_dsl/jit/kernel_spec.hpp"
#include "cute_dsl/jit/loaded_kernel.hpp"

#include <string>
#include <vector>

namespace cute_dsl::jit {

// Which dimension of an operand is contiguous: K (A: M x K row-major, "T" in BLAS's TN) or M / N.
enum class GemmMajor { k, mn };

struct GemmSm90Types {
  ElementType a = ElementType::bf16;  // A and B: bf16 or f16
  ElementType d = ElementType::bf16;  // C and D: bf16, f16 or f32
  GemmMajor a_major = GemmMajor::k;
  GemmMajor b_major = GemmMajor::k;
};

// One compiled variant: the kernel's template parameters as run-time values.
struct GemmSm90Config {
  int tile_m = 128;  // 128 (each consumer warpgroup 64 rows) or 64 (skinny M, no cluster)
  int tile_n = 256;  // 64, 128, 192 or 256; 48 for 64-row cooperative tiles over a K-major B; 96, 160, 224 for 128-row ones (K-major B, no clusters)
  int tile_k = 64;    // fixed: 64 16-bit elements, one 128-byte swizzle row
  int stages = 4;     // ring buffers; tile_n x stages must fit the 227 KiB an sm_90 CTA may use
  int cluster_m = 2;  // CTAs per cluster along M (B multicast): 1 or 2
  int cluster_n = 1;
  bool ping_pong = false;  // consumer warpgroups alternate whole tiles (tile_n <= 128)
  // Fused epilogue kernels (gemm_epilogue.hpp): false compiles no bounds-checked epilogue path
  // (~40% less code: less compile time), for launches whose M is a multiple of tile_m x cluster_m
  // and N of tile_n (gemm_sm90_whole_tiles); others are refused. The plain GEMM's kernel ignores
  // it, but its launches are refused alike.
  bool edge_tiles = true;

  friend bool operator==(const GemmSm90Config&, const GemmSm90Config&) = default;
};

// "128x256x64 s4 c2x1" (+ " pp", + " whole-tiles"): how tables and logs show a config.
std::string to_string(const GemmSm90Config& c);

// Whether an M x N output is whole cluster tiles of `c` (M a multiple of tile_m x cluster_m, N of
// tile_n): what a config with edge_tiles = false needs.
bool gemm_sm90_whole_tiles(const GemmSm90Config& c, int m, int n);

struct GemmSm90Arguments {
  int m = 0, n = 0, k = 0, l = 1;
  const void* a = nullptr;  // device pointers
  long long lda = 0, batch_stride_a = 0;
  const void* b = nullptr;
  long long ldb = 0, batch_stride_b = 0;
  void* d = nullptr;
  long long ldd = 0, batch_stride_d = 0;
  const void* c = nullptr;  // read only when beta != 0
  long long ldc = 0, batch_stride_c = 0;
  float alpha = 1.f, beta = 0.f;
};

// Empty when the kernel can be built for (types, config); otherwise the rule broken.
std::string gemm_sm90_unsupported(const GemmSm90Types& types, const GemmSm90Config& config);
// Empty when `args` can run on a kernel for `types`; otherwise the rule broken (TMA alignment...).
std::string gemm_sm90_unsupported(const GemmSm90Types& types, const GemmSm90Arguments& args);

// The instantiation: header cute_dsl/kernels/gemm_sm90.hpp, kernel gemm_sm90_kernel<TA, TD, TileN,
// Stages, ClusterM, PingPong, MajorA, MajorB, TileM>. Call gemm_sm90_unsupported first.
KernelSpec gemm_sm90_spec(const GemmSm90Types& types, const GemmSm90Config& config);
// Dynamic shared memory the kernel needs (its SharedStorage plus 1 KiB of alignment slack).
unsigned gemm_sm90_shared_bytes(const GemmSm90Config& config);
// Threads per CTA (producer + two consumer warpgroups).
inline constexpr unsigned kGemmSm90Threads = 384;

// Builds both tensor maps (cuTensorMapEncodeTiled of the JIT's driver), sizes the persistent grid
// and launches `kernel` (compiled from gemm_sm90_spec(types, config)) on `stream` (a CUstream;
// null: the default stream). Checks the arguments first.
Expected<Ok, JitError> launch_gemm_sm90(LoadedKernel& kernel, const GemmSm90Types& types,
                                        const GemmSm90Config& config, const GemmSm90Arguments& args,
                                        void* stream = nullptr);

// The convenience form: compiled (memory, disk, then NVRTC), loaded on the current device, ready.
class GemmSm90Jit {
 public:
  static Expected<GemmSm90Jit, JitError> create(const GemmSm90Types& types, const GemmSm90Config& config,
                                                const CompileOptions& options = {});
  Expected<Ok, JitError> run(const GemmSm90Arguments& args, void* stream = nullptr) {
    return launch_gemm_sm90(loaded_, types_, config_, args, stream);
  }
  const GemmSm90Types& types() const { return types_; }
  const GemmSm90Config& config() const { return config_; }
  const CompiledKernel& compiled() const { return *compiled_; }
  LoadedKernel& loaded() { return loaded_; }

 private:
  GemmSm90Jit(GemmSm90Types t, GemmSm90Config c, KernelPtr k, LoadedKernel l)
      : types_(t), config_(c), compiled_(std::move(k)), loaded_(std::move(l)) {}
  GemmSm90Types types_;
  GemmSm90Config config_;
  KernelPtr compiled_;
  LoadedKernel loaded_;
};

}  // namespace cute_dsl::jit
