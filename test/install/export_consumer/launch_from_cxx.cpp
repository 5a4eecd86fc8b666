// The same headers from C++: extern "C" declarations, the structs usable as C++ aggregates.
#include "axpby_f32.h"
#include "gemm_bf16.h"

extern "C" int launch_from_cxx(CUdeviceptr out, CUdeviceptr a, long long n) {
  axpby_f32_kernel k{};
  if (axpby_f32_load(&k) != CUDA_SUCCESS) return 1;
  const axpby_f32_params p{out, a, a, n, {1.f, 1.f}};  // out = a + a
  static_assert(GEMM_BF16_BLOCK_X == 384 && GEMM_BF16_CLUSTER_X == 2, "the GEMM exported as asked");
  const CUresult r = axpby_f32_launch(&k, &p, axpby_f32_grid(n), nullptr);
  axpby_f32_unload(&k);
  return r == CUDA_SUCCESS ? 0 : 1;
}
