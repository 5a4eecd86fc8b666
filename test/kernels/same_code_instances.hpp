// The instantiations that test/kernels/same_code_test.cpp compiles both ways: nvcc (ahead of time,
// same_code_nvcc.cu, to one CUBIN) and the JIT (at run time, from the kernel name and the template
// arguments in the JIT's text form). One row per instantiation:
//   X(header, kernel, "JIT template arguments", C++ template arguments...)
// Read by both a host compiler and nvcc; the C++ arguments are only spelled out by nvcc.
// Not here: copy_bulk_kernel (copy_bulk.hpp). Its shared-memory addresses go through
// arch::shared_address (__cvta_generic_to_shared), which NVRTC lowers through 64-bit registers and
// nvcc in 32 bits: 8 more SASS instructions on the JIT side (found 2026-11-22, same flags).
// Nor the default transpose_vec4_kernel<f32, 128, 64, 256> (two 4x4 blocks per thread): 1120 SASS
// instructions through the JIT vs 1104 from nvcc (found 2026-11-22, CUDA 13.0, same flags; not yet
// explained). The 64x64/256 instance (one block per thread) below is byte-identical.
#pragma once

#define CUTE_DSL_SAME_CODE_INSTANCES(X)                                                                         \
  X("cute_dsl/kernels/elementwise.hpp", elementwise_binary_kernel, "f32, type:cute_dsl::kernels::Add, 4, 256, 4", \
    float, cute_dsl::kernels::Add, 4, 256, 4)                                                                  \
  X("cute_dsl/kernels/elementwise.hpp", elementwise_binary_kernel,                                              \
    "bf16, type:cute_dsl::kernels::Axpby, 8, 256, 2", __nv_bfloat16, cute_dsl::kernels::Axpby, 8, 256, 2)      \
  X("cute_dsl/kernels/elementwise.hpp", elementwise_unary_kernel, "f16, type:cute_dsl::kernels::Gelu, 8, 128, 4", \
    __half, cute_dsl::kernels::Gelu, 8, 128, 4)                                                                \
  X("cute_dsl/kernels/elementwise.hpp", copy_kernel, "f32, 4, 512, 8", float, 4, 512, 8)                        \
  X("cute_dsl/kernels/transpose.hpp", transpose_kernel, "f32, 32, 8", float, 32, 8)                             \
  X("cute_dsl/kernels/transpose.hpp", transpose_kernel, "bf16, 64, 8", __nv_bfloat16, 64, 8)                    \
  X("cute_dsl/kernels/elementwise.hpp", elementwise_unary_kernel,                                               \
    "f32, type:cute_dsl::kernels::GeluTanhApprox, 4, 256, 4, type:cute_dsl::kernels::PlainAccess", float,        \
    cute_dsl::kernels::GeluTanhApprox, 4, 256, 4, cute_dsl::kernels::PlainAccess)                              \
  X("cute_dsl/kernels/transpose_vectorized.hpp", transpose_vec4_kernel, "f32, 64, 64, 256", float, 64, 64, 256) \
  /* the defaults (elementwise_defaults.hpp) */                                                                 \
  X("cute_dsl/kernels/elementwise.hpp", copy_kernel, "f32, 4, 256, 1", float, 4, 256, 1)
