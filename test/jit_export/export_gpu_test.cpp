// The exported kernels on a GPU, from a program that has nothing of CuteDSL but the files
// cute_dsl_add_jit_kernels wrote: the CUDA Driver API, export_add_f32.h and export_gemm_bf16.h.
// Random data, checked against a host reference. Without a usable driver or a GPU it prints
// "SKIPPED: ..." (ctest then reports it skipped); the GEMM part needs compute capability 9.0.
#include "export_add_f32.h"
#include "export_gemm_bf16.h"

#include <cuda.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

int failures = 0;

bool ok(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return true;
  const char* name = nullptr;
  cuGetErrorName(r, &name);
  std::printf("FAILED: %s: %s\n", what, name ? name : "?");
  ++failures;
  return false;
}

// bf16 <-> float on the host (round to nearest even; no NaNs in the data).
std::uint16_t to_bf16(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7fff + ((u >> 16) & 1);
  return static_cast<std::uint16_t>(u >> 16);
}
float from_bf16(std::uint16_t h) {
  const std::uint32_t u = std::uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

struct Buffer {
  CUdeviceptr p = 0;
  explicit Buffer(std::size_t bytes) { ok(cuMemAlloc(&p, bytes), "cuMemAlloc"); }
  ~Buffer() { if (p) cuMemFree(p); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
};

void check_add(std::mt19937& rng) {
  export_add_f32_kernel k;
  if (!ok(export_add_f32_load(&k), "export_add_f32_load")) return;
  const long long n = (1 << 20) + 3;  // a ragged tail past the 4-element vectors
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> a(n), b(n), out(n);
  for (long long i = 0; i < n; ++i) a[i] = u(rng), b[i] = u(rng);
  Buffer da(n * 4), db(n * 4), dout(n * 4);
  ok(cuMemcpyHtoD(da.p, a.data(), n * 4), "upload a");
  ok(cuMemcpyHtoD(db.p, b.data(), n * 4), "upload b");
  ok(cuMemsetD8(dout.p, 0xff, n * 4), "poison out");  // NaN: a skipped element cannot pass
  export_add_f32_params p;
  std::memset(&p, 0, sizeof p);
  p.out = dout.p;
  p.a = da.p;
  p.b = db.p;
  p.n = n;
  if (ok(export_add_f32_launch(&k, &p, export_add_f32_grid(n), nullptr), "export_add_f32_launch") &&
      ok(cuCtxSynchronize(), "add: synchronize") && ok(cuMemcpyDtoH(out.data(), dout.p, n * 4), "download out")) {
    long long wrong = 0;
    for (long long i = 0; i < n; ++i)
      if (out[i] != a[i] + b[i] && wrong++ == 0)
        std::printf("add: element %lld is %g, want %g\n", i, out[i], a[i] + b[i]);
    std::printf("add f32 (%s): %s, %lld of %lld elements wrong\n", k.arch, wrong ? "FAILED" : "ok", wrong, n);
    failures += wrong != 0;
  }
  export_add_f32_unload(&k);
}

void check_gemm(std::mt19937& rng) {
  export_gemm_bf16_kernel k;
  if (!ok(export_gemm_bf16_load(&k), "export_gemm_bf16_load")) return;
  // Ragged M and N (masked tiles), K a multiple of 8 (TMA: 16-byte rows), two batches.
  const int m = 520, n = 264, kk = 256, l = 2;
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<std::uint16_t> a(std::size_t(l) * m * kk), b(std::size_t(l) * n * kk), d(std::size_t(l) * m * n);
  for (auto& x : a) x = to_bf16(u(rng));
  for (auto& x : b) x = to_bf16(u(rng));
  Buffer da(a.size() * 2), db(b.size() * 2), dd(d.size() * 2);
  ok(cuMemcpyHtoD(da.p, a.data(), a.size() * 2), "upload A");
  ok(cuMemcpyHtoD(db.p, b.data(), b.size() * 2), "upload B");
  ok(cuMemsetD8(dd.p, 0xff, d.size() * 2), "poison D");
  export_gemm_bf16_problem q;
  std::memset(&q, 0, sizeof q);
  q.m = m, q.n = n, q.k = kk, q.l = l;
  q.a = da.p, q.lda = kk, q.batch_stride_a = (long long)m * kk;
  q.b = db.p, q.ldb = kk, q.batch_stride_b = (long long)n * kk;
  q.d = dd.p, q.ldd = n, q.batch_stride_d = (long long)m * n;
  q.alpha = 1.f, q.beta = 0.f;
  if (ok(export_gemm_bf16_run(&k, &q, nullptr), "export_gemm_bf16_run") && ok(cuCtxSynchronize(), "gemm: synchronize") &&
      ok(cuMemcpyDtoH(d.data(), dd.p, d.size() * 2), "download D")) {
    long long wrong = 0;
    for (int z = 0; z < l; ++z)
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
          float want = 0;
          for (int x = 0; x < kk; ++x)
            want += from_bf16(a[(std::size_t(z) * m + i) * kk + x]) * from_bf16(b[(std::size_t(z) * n + j) * kk + x]);
          const float got = from_bf16(d[(std::size_t(z) * m + i) * n + j]);
          if (!(std::fabs(got - want) <= 0.02f * std::fabs(want) + 0.1f) && wrong++ == 0)
            std::printf("gemm: D[%d](%d, %d) is %g, want %g\n", z, i, j, got, want);
        }
    std::printf("gemm bf16 %dx%dx%d x%d (%s): %s, %lld wrong\n", m, n, kk, l, k.arch, wrong ? "FAILED" : "ok", wrong);
    failures += wrong != 0;
  }
  // A problem the kernel cannot take is refused before any launch.
  q.lda = kk + 1;
  if (export_gemm_bf16_run(&k, &q, nullptr) != CUDA_ERROR_INVALID_VALUE) {
    std::printf("FAILED: an unaligned lda was not refused\n");
    ++failures;
  }
  export_gemm_bf16_unload(&k);
}

}  // namespace

int main() {
  CUdevice device;
  int count = 0, major = 0;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
    std::printf("SKIPPED: no usable CUDA driver or GPU\n");
    return 0;
  }
  CUcontext context;
  if (!ok(cuDeviceGet(&device, 0), "cuDeviceGet") || !ok(cuDevicePrimaryCtxRetain(&context, device), "retain") ||
      !ok(cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return 1;
  cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
  std::mt19937 rng(12);
  check_add(rng);
  if (major == 9) check_gemm(rng);
  else std::printf("gemm: not run, it is built for sm_90a and this device's major version is %d\n", major);
  cuDevicePrimaryCtxRelease(device);
  std::printf("%s\n", failures ? "FAILED" : "PASSED");
  return failures ? 1 : 0;
}
