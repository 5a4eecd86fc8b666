// The ahead-of-time half of the same-code test: nvcc instantiates every row of
// same_code_instances.hpp into one CUBIN (built with -cubin -arch=sm_90a -O3 -DNDEBUG, the flags
// the JIT uses by default). Taking each kernel's address is what instantiates it.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "cute_dsl/kernels/copy_bulk.hpp"
#include "cute_dsl/kernels/elementwise.hpp"
#include "cute_dsl/kernels/transpose.hpp"
#include "cute_dsl/kernels/transpose_vectorized.hpp"
#include "same_code_instances.hpp"

#define CUTE_DSL_INSTANTIATE(header, kernel, jit_targs, ...) \
  (void)reinterpret_cast<const void*>(&cute_dsl::kernels::kernel<__VA_ARGS__>);

void cute_dsl_same_code_instantiate_all() { CUTE_DSL_SAME_CODE_INSTANCES(CUTE_DSL_INSTANTIATE) }
