// A/B of two builds of the Hopper GEMM (the include tree is picked at compile time) against cuBLAS,
// for same-card before/after comparisons: TN bf16 -> bf16, L2 flushed before each timed launch,
// CUDA events, median of 20, the two libraries timed in turns (GEMM_AB_BLOCKS=1: one after the other). Built by scripts/device/gemm_ab.sh, not by CMake. GEMM_AB_SHAPES
// ("MxNxK,...") replaces the shapes; GEMM_AB_BETA (a number, default 0) times D = A B + beta C
// instead (cuBLAS in place on D, ours from a C of its own: the same bytes move); GEMM_AB_OUT=f32
// makes D and C f32 (default bf16). GEMM_AB_CONFIG
// ("tile_m,tile_n,stages,cluster_m,ping_pong[,stream_k[,swap_ab[,splits]]]", e.g. "64,256,5,2,1") runs that
// variant instead of the heuristic's choice (both builds must have it), unsplit, or with stream-K
// where the sixth field is 1, swapped (A and B exchanged: the swapped variants) where the seventh
// is, split where the eighth is above 1 (at most that many ranges: the launcher's split plan).
// After timing, each shape is checked: ours against cuBLAS's D from the same inputs,
// max |ours - cuBLAS| over max |cuBLAS| printed as "check"
// (a wrong variant shows up here long before a sweep would notice). GEMM_AB_SETS (default 1) times
// each shape over that many buffer sets, each placed after a spacer of a different size (so the
// operands and D sit at other addresses), and GEMM_AB_REPEATS (default 1) times each library that
// many times per set: together they separate a process's spread from an address's. Each timing
// also prints the host's median enqueue time (if it outlasts the flush, the GPU idles in the
// timed interval). GEMM_AB_PAD (elements, 1..4096; unset: none) gives A and B a leading dimension
// of K rounded up to that multiple (both libraries), and GEMM_AB_REPACK=1 also times, L2 flushed,
// the copy of A and B into rows padded to a multiple of 64 elements (cudaMemcpy2DAsync): what
// realigning rows off 128-byte lines before the GEMM would cost. GEMM_AB_WARM_CODE=1 (with an
// explicit, unsplit GEMM_AB_CONFIG) launches ours once more between the flush and the timed launch,
// on the first tile only (K = 64: the same kernel, a few KB of the operands), so that its code, not
// its data, is back in L2 and the instruction caches: cold minus warm is what fetching the kernel's
// code costs a launch after a flush. GEMM_AB_NO_FLUSH=1 skips the flush (both libraries warm).
// GEMM_AB_UNALIGNED=stage|copy: operands a tensor map cannot describe (K off 8) staged into aligned rows
// first, or read in place by the copy mainloop (unset: the launcher's model decides). GEMM_AB_BATCH=L
// (default 1) times L GEMMs of each shape in one call (cuBLAS: strided-batched), batch after batch.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cute_dsl/kernels/gemm_sm90_launch.hpp>
#include "../support/shape_list.hpp"
#include <algorithm>
#include <chrono>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>
using bf16 = __nv_bfloat16;
using namespace cute_dsl;
template <class T>
__global__ void fill(T* p, long long n, unsigned seed) {
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n; i += 256ll * gridDim.x) {
    unsigned x = unsigned(i) * 2654435761u ^ seed;
    x ^= x >> 16, x *= 0x7feb352d, x ^= x >> 15;
    p[i] = T(float(x >> 8) * (2.f / 16777216.f) - 1.f);
  }
}
// max |x - y| and max |y| over n elements, into out[0], out[1] (as ordered ints: both >= 0).
template <class TD>
__global__ void max_diff(const TD* x, const TD* y, long long n, unsigned* out) {
  float d = 0.f, r = 0.f;
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n; i += 256ll * gridDim.x) {
    const float xi = float(x[i]), yi = float(y[i]);
    d = fmaxf(d, xi == xi ? fabsf(xi - yi) : __int_as_float(0x7f800000)), r = fmaxf(r, fabsf(yi));
  }
  atomicMax(&out[0], __float_as_uint(d));
  atomicMax(&out[1], __float_as_uint(r));
}
// One shape, D of type TD (bf16 or f32; C the same), cuBLAS and ours in turns: prints both medians.
// GEMM_AB_UNALIGNED (see the top): the launcher's path for operands a tensor map cannot describe.
// Checked in main before any CUDA call; here only read.
kernels::GemmSm90Unaligned unaligned_mode() {
  const char* u = std::getenv("GEMM_AB_UNALIGNED");
  if (u != nullptr && std::string(u) == "stage") return kernels::GemmSm90Unaligned::stage;
  if (u != nullptr && std::string(u) == "copy") return kernels::GemmSm90Unaligned::copy_mainloop;
  return kernels::GemmSm90Unaligned::automatic;
}

// `set` >= 0: print the buffer set, repeat, host enqueue time and range of each timing (-1: medians only).
template <class TD>
int run_shape(const char* tag, std::array<int, 3> s, int batch, float beta, kernels::GemmSm90Config config, cublasHandle_t h, void* flush,
              int set, int repeats) {
  const int m = s[0], n = s[1], k = s[2];
  const std::string batch_tag = batch > 1 ? "x" + std::to_string(batch) : "";
  const char* pad_env = std::getenv("GEMM_AB_PAD");
  const int pad = pad_env != nullptr && std::atoi(pad_env) > 0 ? std::atoi(pad_env) : 1;
  const int ld = (k + pad - 1) / pad * pad;
  bf16 *a, *b;
  TD *c, *d;
  const long long sa = 1ll * m * ld, sb = 1ll * n * ld, sd = 1ll * m * n;  // batch strides (elements)
  cudaMalloc(&a, 2 * sa * batch); cudaMalloc(&b, 2 * sb * batch);
  cudaMalloc(&c, sizeof(TD) * sd * batch); cudaMalloc(&d, sizeof(TD) * sd * batch);
  fill<<<1024, 256>>>(a, sa * batch, 1); fill<<<1024, 256>>>(b, sb * batch, 2);
  fill<<<1024, 256>>>(c, sd * batch, 3); fill<<<1024, 256>>>(d, sd * batch, 3);
  kernels::GemmSm90Arguments<bf16, TD> args{};
  args.shape = {m, n, k, batch}; args.a = a; args.lda = ld; args.b = b; args.ldb = ld; args.d = d; args.ldd = n;
  args.batch_stride_a = sa, args.batch_stride_b = sb, args.batch_stride_c = sd, args.batch_stride_d = sd;
  args.beta = beta; args.c = c; args.ldc = n;
  args.unaligned = unaligned_mode();
  const cudaDataType_t out = std::is_same_v<TD, float> ? CUDA_R_32F : CUDA_R_16BF;
  // cuBLAS (column-major: D^T = B A^T), strided-batched where batch > 1, into `to`.
  const auto cublas = [&](TD* to) {
    float al = 1, be = beta;
    if (batch == 1)
      return cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &al, b, CUDA_R_16BF, ld, a, CUDA_R_16BF, ld, &be, to, out, n, CUBLAS_COMPUTE_32F,
                          CUBLAS_GEMM_DEFAULT);
    return cublasGemmStridedBatchedEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &al, b, CUDA_R_16BF, ld, sb, a, CUDA_R_16BF, ld, sa, &be, to, out, n, sd,
                                      batch, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  };
  // In turns (default): each iteration times one call of each library, the order swapped every
  // iteration, so both meet the same clocks (the power cap slows the card within ~100 ms of a heavy
  // GEMM). GEMM_AB_BLOCKS=1: all of cuBLAS's calls, then all of ours (as before 2026-11-28).
  const bool blocks = std::getenv("GEMM_AB_BLOCKS") != nullptr && std::string(std::getenv("GEMM_AB_BLOCKS")) == "1";
  const auto env_is_1 = [](const char* name) { return std::getenv(name) != nullptr && std::string(std::getenv(name)) == "1"; };
  const bool warm_code = env_is_1("GEMM_AB_WARM_CODE"), no_flush = env_is_1("GEMM_AB_NO_FLUSH");
  kernels::GemmSm90Arguments<bf16, TD> first_tile = args;
  first_tile.shape = {std::min(m, 128), std::min(n, 256), std::min(k, 64), 1};
  for (int rep = 0; rep < repeats; ++rep) {
    std::vector<float> t[2], host_us[2];
    const auto time_one = [&](int impl, int it) {
      if (!no_flush) cudaMemsetAsync(flush, it, 512 << 20);
      if (warm_code && impl == 1) (void)kernels::gemm_sm90_majors<GmmaMajor::K, GmmaMajor::K>(first_tile, nullptr, config);
      cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
      cudaEventRecord(e0);
      cudaError_t err = cudaSuccess;
      const auto h0 = std::chrono::steady_clock::now();
      if (impl == 0) (void)cublas(d);
      else err = kernels::gemm_sm90_majors<GmmaMajor::K, GmmaMajor::K>(args, nullptr, config);
      const auto h1 = std::chrono::steady_clock::now();
      cudaEventRecord(e1); cudaEventSynchronize(e1);
      if (err != cudaSuccess) { printf("error %s\n", cudaGetErrorString(err)); return false; }
      float ms; cudaEventElapsedTime(&ms, e0, e1);
      if (it >= 3) t[impl].push_back(ms), host_us[impl].push_back(std::chrono::duration<float, std::micro>(h1 - h0).count());
      cudaEventDestroy(e0); cudaEventDestroy(e1);
      return true;
    };
    if (blocks) {
      for (int impl = 0; impl < 2; ++impl)
        for (int it = 0; it < 23; ++it)
          if (!time_one(impl, it)) return 1;
    } else {
      for (int it = 0; it < 23; ++it)
        for (int turn = 0; turn < 2; ++turn)
          if (!time_one(turn ^ (it % 2), it)) return 1;
    }
    for (int impl = 0; impl < 2; ++impl) {
      std::sort(t[impl].begin(), t[impl].end());
      std::sort(host_us[impl].begin(), host_us[impl].end());
      const float median_ms = t[impl][t[impl].size() / 2];
      printf("%s %s %dx%dx%d%s%s%s %.1f TFLOP/s %.2f us", tag, impl ? "ours" : "cublas", m, n, k, batch_tag.c_str(), std::is_same_v<TD, float> ? ">f32" : "",
             beta != 0.f ? "_beta" : "", 2.0 * m * n * k * batch / (median_ms * 1e-3) / 1e12, median_ms * 1e3);
      if (set >= 0)
        printf(" set %d rep %d host %.1f us min %.2f max %.2f", set, rep, host_us[impl][host_us[impl].size() / 2], t[impl].front() * 1e3,
               t[impl].back() * 1e3);
      printf("\n");
    }
  }
  if (const char* rp = std::getenv("GEMM_AB_REPACK"); rp != nullptr && std::string(rp) == "1") {
    const int to = (k + 63) / 64 * 64;
    bf16 *pa, *pb;
    cudaMalloc(&pa, 2ll * m * to); cudaMalloc(&pb, 2ll * n * to);
    std::vector<float> t;
    for (int it = 0; it < 23; ++it) {
      cudaMemsetAsync(flush, it, 512 << 20);
      cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
      cudaEventRecord(e0);
      cudaMemcpy2DAsync(pa, 2ll * to, a, 2ll * ld, 2ll * k, m, cudaMemcpyDeviceToDevice);
      cudaMemcpy2DAsync(pb, 2ll * to, b, 2ll * ld, 2ll * k, n, cudaMemcpyDeviceToDevice);
      cudaEventRecord(e1); cudaEventSynchronize(e1);
      float ms; cudaEventElapsedTime(&ms, e0, e1);
      if (it >= 3) t.push_back(ms);
      cudaEventDestroy(e0); cudaEventDestroy(e1);
    }
    std::sort(t.begin(), t.end());
    printf("%s repack %dx%dx%d A and B to ld %d: %.2f us\n", tag, m, n, k, to, t[t.size() / 2] * 1e3);
    cudaFree(pa); cudaFree(pb);
  }
  // Check: cuBLAS into `ref`, ours into `d`, both from the same C (beta), compared.
  TD* ref;
  unsigned* diff;
  cudaMalloc(&ref, sizeof(TD) * sd * batch); cudaMalloc(&diff, 2 * sizeof(unsigned));
  cudaMemset(diff, 0, 2 * sizeof(unsigned));
  fill<<<1024, 256>>>(ref, sd * batch, 3); fill<<<1024, 256>>>(d, sd * batch, 3);
  (void)cublas(ref);
  if (const cudaError_t err = kernels::gemm_sm90_majors<GmmaMajor::K, GmmaMajor::K>(args, nullptr, config); err != cudaSuccess) {
    printf("error %s\n", cudaGetErrorString(err));
    return 1;
  }
  max_diff<<<1024, 256>>>(d, ref, sd * batch, diff);
  unsigned host[2] = {0, 0};
  cudaMemcpy(host, diff, sizeof(host), cudaMemcpyDeviceToHost);
  float dmax, rmax;
  std::memcpy(&dmax, &host[0], 4), std::memcpy(&rmax, &host[1], 4);
  printf("%s check %dx%dx%d%s max|ours-cublas|/max|cublas| %.2e%s\n", tag, m, n, k, batch_tag.c_str(), rmax > 0 ? dmax / rmax : dmax,
         !(dmax <= 2e-2f * rmax) ? " MISMATCH" : "");
  cudaFree(ref); cudaFree(diff);
  cudaFree(a); cudaFree(b); cudaFree(c); cudaFree(d);
  return 0;
}
int main(int argc, char** argv) {
  const char* tag = argc > 1 ? argv[1] : "?";
  // GEMM_AB_SHAPES="MxNxK,MxNxK,...": these shapes instead.
  const std::vector<std::array<int, 3>> shapes = cute_dsl_bench::shapes_from_env(
      "GEMM_AB_SHAPES", {{8192, 8192, 8192}, {16384, 16384, 4096}, {8192, 8192, 1024}, {4096, 4096, 4096},
                         {2048, 2048, 2048}, {3000, 3000, 3000}, {4096, 1536, 4096}, {128, 8192, 8192}, {16, 4096, 4096}});
  float beta = 0.f;
  if (const char* b = std::getenv("GEMM_AB_BETA"); b != nullptr && *b != 0) {
    char* end = nullptr;
    beta = std::strtof(b, &end);
    if (*end != 0) {
      std::fprintf(stderr, "ERROR: GEMM_AB_BETA: expected a number, got '%s'\n", b);
      return 1;
    }
  }
  // GEMM_AB_BATCH=L: every shape as L GEMMs, operands packed batch after batch (cuBLAS strided-batched).
  int batch = 1;
  if (const char* l = std::getenv("GEMM_AB_BATCH"); l != nullptr && *l != 0) {
    char* end = nullptr;
    const long v = std::strtol(l, &end, 10);
    if (*end != 0 || v < 1 || v > 65535) {
      std::fprintf(stderr, "ERROR: GEMM_AB_BATCH: expected a count 1..65535, got '%s'\n", l);
      return 1;
    }
    batch = int(v);
    if (const char* rp = std::getenv("GEMM_AB_REPACK"); batch > 1 && rp != nullptr && std::string(rp) == "1") {
      std::fprintf(stderr, "ERROR: GEMM_AB_REPACK times one GEMM's operands: not with GEMM_AB_BATCH > 1\n");
      return 1;
    }
  }
  kernels::GemmSm90Config config{};
  if (const char* c = std::getenv("GEMM_AB_CONFIG"); c != nullptr && *c != 0) {
    int pp = 0, sk = 0, sw = 0;
    const int got = std::sscanf(c, "%d,%d,%d,%d,%d,%d,%d,%d", &config.tile_m, &config.tile_n, &config.stages, &config.cluster_m, &pp, &sk, &sw,
                                &config.splits);
    config.swap_ab = sw != 0;
    if (got < 5) {
      std::fprintf(stderr, "ERROR: GEMM_AB_CONFIG: expected tile_m,tile_n,stages,cluster_m,ping_pong[,stream_k[,swap_ab[,splits]]], got '%s'\n", c);
      return 1;
    }
    config.ping_pong = pp != 0;
    config.stream_k = sk != 0;
  }
  if (const char* w = std::getenv("GEMM_AB_WARM_CODE"); w != nullptr && std::string(w) == "1" && (config.tile_n == 0 || config.splits > 1)) {
    std::fprintf(stderr, "ERROR: GEMM_AB_WARM_CODE: needs an explicit, unsplit GEMM_AB_CONFIG (the first-tile launch must run the same kernel)\n");
    return 1;
  }
  if (const char* u = std::getenv("GEMM_AB_UNALIGNED"); u != nullptr && *u != 0 && unaligned_mode() == kernels::GemmSm90Unaligned::automatic) {
    std::fprintf(stderr, "ERROR: GEMM_AB_UNALIGNED: expected stage or copy, got '%s'\n", u);
    return 1;
  }
  const char* out = std::getenv("GEMM_AB_OUT");
  const bool f32_out = out != nullptr && std::string(out) == "f32";
  if (out != nullptr && *out != 0 && !f32_out && std::string(out) != "bf16") {
    std::fprintf(stderr, "ERROR: GEMM_AB_OUT: expected bf16 or f32, got '%s'\n", out);
    return 1;
  }
  void* flush; cudaMalloc(&flush, 512 << 20);
  cublasHandle_t h; cublasCreate(&h);
  const auto count = [](const char* name) {
    const char* v = std::getenv(name);
    const int n = v != nullptr && *v != 0 ? std::atoi(v) : 1;
    return n < 1 ? 1 : n;
  };
  const int sets = count("GEMM_AB_SETS"), repeats = count("GEMM_AB_REPEATS");
  if (const char* pad = std::getenv("GEMM_AB_PAD"); pad != nullptr && *pad != 0) {
    char* end = nullptr;
    if (const long v = std::strtol(pad, &end, 10); *end != 0 || v < 1 || v > 4096) {
      std::fprintf(stderr, "ERROR: GEMM_AB_PAD: expected a multiple in elements, 1..4096, got '%s'\n", pad);
      return 1;
    }
  }
  for (auto& s : shapes) {
    std::vector<void*> spacers;
    for (int set = 0; set < sets; ++set) {
      void* spacer = nullptr;
      if (sets > 1) cudaMalloc(&spacer, (size_t(set) * 7 + 3) << 20), spacers.push_back(spacer);  // 3, 10, 17, ... MiB
      const int shown = sets > 1 || repeats > 1 ? set : -1;
      const int rc = f32_out ? run_shape<float>(tag, s, batch, beta, config, h, flush, shown, repeats)
                             : run_shape<bf16>(tag, s, batch, beta, config, h, flush, shown, repeats);
      if (rc != 0) return rc;
    }
    for (void* p : spacers) cudaFree(p);
  }
}
