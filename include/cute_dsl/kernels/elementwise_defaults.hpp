// The measured defaults of the elementwise, copy and transpose kernels: the template arguments a
// caller gets without naming them, and the numbers the launch helpers (elementwise_launch.hpp),
// the tests and `cute-dsl demo` use.
//
// Why these (bench/kernels/elementwise_bench.cu, H200, run 7 of 2026-11-22; the table is in
// bench/results/kernels_2026-11-22.md, the reasoning in docs/design/kernels.md):
//   - 256 threads, ONE 16-byte vector per thread, one block per 256 vectors and no grid-stride
//     trips (a "one-trip" grid): copy f32 reached 0.995x cudaMemcpy D2D at 2 GiB, against 0.906x
//     for 256 threads x 4 vectors on a grid of resident blocks looping over the data. Many short
//     blocks let the block scheduler keep every SM full to the last wave; a resident grid ends
//     with SMs idle while the slowest blocks finish their last trips.
//   - Plain loads and stores (PlainAccess), not cache hints: StreamingAccess (ld.nc.L1::no_allocate
//     .L2::256B, st.cs) was slower for every op and size (copy 0.854x vs 0.906x at equal shape).
//   - Transpose of 4-byte types: 16-byte accesses on 128 x 64 tiles, 256 threads (0.929x at 2 GiB,
//     cuBLAS geam 0.904x).
#pragma once

#include "cute_dsl/config.hpp"

namespace cute_dsl::kernels {

inline constexpr int kElementwiseThreads = 256;  // threads per block
inline constexpr int kElementwiseUnroll = 1;     // 16-byte vectors per thread per trip

// Elements per 16-byte vector access of a T (the widest LDG/STG).
template <class T>
inline constexpr int kElementwiseVector = static_cast<int>(16 / sizeof(T));

// transpose_vec4_kernel (transpose_vectorized.hpp): tile of the input and threads per block.
inline constexpr int kTransposeVec4TileRows = 128;
inline constexpr int kTransposeVec4TileCols = 64;
inline constexpr int kTransposeVec4Threads = 256;

}  // namespace cute_dsl::kernels
