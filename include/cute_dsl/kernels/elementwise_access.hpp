// How the elementwise and copy kernels (elementwise.hpp) move their 16-byte vectors: a policy
// type, the kernels' last template argument.
//
//   PlainAccess      v = *p / *p = v: through `const __restrict__` inputs nvcc emits
//                    ld.global.nc.v4 and a default st.global.v4.
//   StreamingAccess  ld.global.nc.L1::no_allocate.L2::256B.v4 and st.global.cs.v4
//                    (arch/sm80/global_cache_hints.hpp): every byte is touched once, so keep it
//                    out of L1, ask L2 for 256-byte fetches, and evict written lines first.
//   NoAllocateAccess the same load, st.global.L1::no_allocate.v4 (L2 policy left alone).
//
// Why policies and not one choice: which hint wins is a measurement (bench/kernels sweeps all
// three); the kernels stay one template, and DefaultAccess (below) names the winner (plain). Vectors that
// are not 16 bytes (V * sizeof(T) < 16) always use plain accesses: the hinted instructions are
// written for .v4.u32 only. Minimum sm_80 for the hinted policies (the arch header's gate).
#pragma once

#include "cute_dsl/arch/sm80/global_cache_hints.hpp"
#include "cute_dsl/config.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

namespace cute_dsl::kernels {

struct PlainAccess {
  template <class Vec>
  CUTE_DSL_DEVICE static Vec load(const Vec* p) { return *p; }
  template <class Vec>
  CUTE_DSL_DEVICE static void store(Vec* p, const Vec& v) { *p = v; }
};

struct StreamingAccess {
  template <class Vec>
  CUTE_DSL_DEVICE static Vec load(const Vec* p) {
    if constexpr (sizeof(Vec) == 16) return arch::ld_global_nc_no_allocate_16B(p);
    else return *p;
  }
  template <class Vec>
  CUTE_DSL_DEVICE static void store(Vec* p, const Vec& v) {
    if constexpr (sizeof(Vec) == 16) arch::st_global_streaming_16B(p, v);
    else *p = v;
  }
};

struct NoAllocateAccess {
  template <class Vec>
  CUTE_DSL_DEVICE static Vec load(const Vec* p) { return StreamingAccess::load(p); }
  template <class Vec>
  CUTE_DSL_DEVICE static void store(Vec* p, const Vec& v) {
    if constexpr (sizeof(Vec) == 16) arch::st_global_no_allocate_16B(p, v);
    else *p = v;
  }
};

// What the kernels use when no Access is given. PlainAccess: in the H200 sweep (run 7,
// bench/results/kernels_2026-11-22.md) the hinted policies were slower for every op and size
// (copy 256x4: streaming 0.854x, no-allocate 0.856x, plain 0.906x of cudaMemcpy at 2 GiB). Plain
// accesses also compile for every arch (the hints need sm_80).
using DefaultAccess = PlainAccess;

}  // namespace cute_dsl::kernels

#endif  // __CUDACC__ || __CUDACC_RTC__
