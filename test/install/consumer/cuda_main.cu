// A CUDA program built against the installed package with nvcc: a kernel using a static layout.
// The package must have asked nvcc for C++20 (CuteDSLConfig.cmake).
#include <cute_dsl/cute_dsl.hpp>

#include <cstdio>

static_assert(__cplusplus >= 202002L, "CuteDSL's package must make nvcc compile C++20");

__global__ void transpose_offsets(int* out) {
  using namespace cute_dsl;
  auto layout = make_layout(make_shape(Int<4>{}, Int<8>{}), make_stride(Int<8>{}, Int<1>{}));
  const int i = threadIdx.x % 4, j = threadIdx.x / 4;
  out[threadIdx.x] = layout(make_coord(i, j));
}

int main() {
  int* out = nullptr;
  if (cudaMalloc(&out, 32 * sizeof(int)) != cudaSuccess) {
    std::printf("consumer_cuda: no usable CUDA device; built only\n");
    return 0;
  }
  transpose_offsets<<<1, 32>>>(out);
  int host[32];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(out);
  // Thread 3 + 4*5 = 23 computes (3,5) -> 29.
  std::printf("consumer_cuda: (4,8):(8,1) at (3,5) is %d\n", host[23]);
  return host[23] == 29 ? 0 : 1;
}
