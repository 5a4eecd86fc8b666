// Random bf16 in [-1, 1) from a hash of the index and a seed: the operands of the distributed
// benchmarks (dist_bench_util.hpp, rs_kernel_alone.cu). No NCCL here, so one-GPU benchmarks can
// include it. Included by one translation unit per executable (it defines a kernel).
#pragma once

#include <cuda_bf16.h>

namespace dist_bench {

__global__ void fill_random(__nv_bfloat16* p, long long n, unsigned seed) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    unsigned x = unsigned(i) * 2654435761u ^ seed;
    x ^= x >> 13, x *= 0x5bd1e995u, x ^= x >> 15;
    p[i] = __nv_bfloat16((float(x & 0xffff) / 65535.f - 0.5f) * 2.f);
  }
}

}  // namespace dist_bench
