// Flags that other GPUs read and write: system-scope release stores, acquire loads and fences,
// for signalling across GPUs over NVLink (peer memory mapped into this GPU's address space, e.g.
// an NCCL symmetric window). The pattern (dist/, epilogue/reduce_scatter.hpp):
//   writers store data (plain st, to a peer's memory)  ->  bar.sync among the writers  ->
//   one thread: fence_acq_rel_system(); flag_store_release_system(peer_flag, epoch)
//   reader: one thread spins on flag_load_acquire_system(my_flag) == epoch  ->  bar.sync  ->
//   every thread reads the data.
// The barrier orders each writer's stores before the signalling thread's release (causality is
// transitive), and the release / acquire pair at system scope carries them to the other GPU.
// Minimum: sm_70 (the PTX memory model's scoped operations).
#pragma once

#include "cute_dsl/arch/arch_requirement.hpp"
#include "cute_dsl/config.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

namespace cute_dsl::arch {

// st.release.sys.global.u32: every access this thread ordered before it (including, through a
// barrier, other threads' stores) is visible to whoever acquires the flag and reads `value`.
template <class Gate = void>
CUTE_DSL_DEVICE void flag_store_release_system(unsigned* flag, unsigned value) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 70, "st.release.sys");
  asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(flag), "r"(value) : "memory");
}

// red.release.sys.global.add.u32: counts an event (e.g. a finished tile) so that whoever reads
// the count -- another GPU, or the copy engine's stream wait -- also sees what came before it.
template <class Gate = void>
CUTE_DSL_DEVICE void flag_add_release_system(unsigned* flag, unsigned value) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 70, "red.release.sys");
  asm volatile("red.release.sys.global.add.u32 [%0], %1;" ::"l"(flag), "r"(value) : "memory");
}

// red.release.gpu.global.add.u32: the same, for readers on this GPU only -- its own threads, or
// its copy engines and stream waits (which reach its memory through the same L2). No system-wide
// fence: cheap enough for one call per GEMM tile.
template <class Gate = void>
CUTE_DSL_DEVICE void flag_add_release_gpu(unsigned* flag, unsigned value) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 70, "red.release.gpu");
  asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(flag), "r"(value) : "memory");
}

// ld.acquire.sys.global.u32: reads a flag another GPU (or this one) releases; accesses after it
// see what the releasing side published.
template <class Gate = void>
CUTE_DSL_DEVICE unsigned flag_load_acquire_system(unsigned const* flag) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 70, "ld.acquire.sys");
  unsigned v;
  asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
  return v;
}

// fence.acq_rel.sys: orders this thread's earlier accesses (and those ordered before them by a
// barrier) before its later ones for observers on every GPU of the system.
template <class Gate = void>
CUTE_DSL_DEVICE void fence_acq_rel_system() {
  CUTE_DSL_REQUIRE_ARCH(Gate, 70, "fence.acq_rel.sys");
  asm volatile("fence.acq_rel.sys;" ::: "memory");
}

// Spins until *flag - target, as a signed 32-bit difference, is >= 0 (the flag counts epochs
// upwards and may wrap). Returns the value read. Backs off (sleeps 64 ns, doubling to 2 us):
// hundreds of warps polling flags in tight loops slowed the GEMM writing them ~2x (H100, NVLink,
// 2026-11-26: every poll is an L2 -- or NVLink -- round trip on a line the writer also needs).
template <class Gate = void>
CUTE_DSL_DEVICE unsigned flag_wait_at_least_system(unsigned const* flag, unsigned target) {
  unsigned v = flag_load_acquire_system<Gate>(flag);
  for (unsigned sleep = 64; int(v - target) < 0; sleep = sleep < 2048 ? 2 * sleep : sleep) {
    __nanosleep(sleep);
    v = flag_load_acquire_system<Gate>(flag);
  }
  return v;
}

}  // namespace cute_dsl::arch

#endif  // __CUDACC__ || __CUDACC_RTC__
