/* C99, the CUDA driver and the exported files, nothing else: each kernel loaded and launched
 * once on whatever the buffers hold (the GPU test, test/jit_export, checks results). */
#include "axpby_f32.h"
#include "gemm_bf16.h"

#include <stdio.h>
#include <string.h>

int launch_from_cxx(CUdeviceptr out, CUdeviceptr a, long long n);

int main(void) {
  CUdevice device;
  CUcontext context;
  CUdeviceptr buffers[3];
  axpby_f32_kernel axpby;
  axpby_f32_params p;
  gemm_bf16_kernel gemm;
  gemm_bf16_problem q;
  const long long n = 1 << 20;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&device, 0) != CUDA_SUCCESS) {
    printf("no CUDA driver or GPU\n");
    return 0;
  }
  if (cuDevicePrimaryCtxRetain(&context, device) != CUDA_SUCCESS || cuCtxSetCurrent(context) != CUDA_SUCCESS) return 1;
  if (cuMemAlloc(&buffers[0], n * 4) || cuMemAlloc(&buffers[1], n * 4) || cuMemAlloc(&buffers[2], n * 4)) return 1;
  if (axpby_f32_load(&axpby) != CUDA_SUCCESS) return 1;
  memset(&p, 0, sizeof p);
  p.out = buffers[0];
  p.a = buffers[1];
  p.b = buffers[2];
  p.n = n;
  p.op.alpha = 2.f;
  p.op.beta = -0.5f;
  if (axpby_f32_launch(&axpby, &p, axpby_f32_grid(n), NULL) != CUDA_SUCCESS) return 1;
  if (gemm_bf16_load(&gemm) == CUDA_SUCCESS) { /* sm_90 only */
    memset(&q, 0, sizeof q);
    q.m = 512, q.n = 256, q.k = 1024, q.l = 1; /* 1 MiB of bf16 each */
    q.a = buffers[1], q.lda = 1024;
    q.b = buffers[2], q.ldb = 1024;
    q.d = buffers[0], q.ldd = 256;
    q.alpha = 1.f;
    if (gemm_bf16_run(&gemm, &q, NULL) != CUDA_SUCCESS) return 1;
    gemm_bf16_unload(&gemm);
  }
  if (launch_from_cxx(buffers[0], buffers[1], n) != 0) return 1;
  if (cuCtxSynchronize() != CUDA_SUCCESS) return 1;
  axpby_f32_unload(&axpby);
  printf("export consumer: %s %s ok\n", AXPBY_F32_SYMBOL, GEMM_BF16_ARCHS);
  return 0;
}
