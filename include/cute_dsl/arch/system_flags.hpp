// Flags for signalling between the GPU's own SMs, its copy engines and other GPUs: a GPU-scope
// release counter, system-scope acquire loads and a backed-off wait. The pattern of the fused
// reduce-scatter (epilogue/gemm_reduce_scatter.hpp, kernels/gemm_sm90_reduce_scatter.hpp):
//   writers store data (plain st, this GPU's memory)  ->  bar.sync with the signalling warp  ->
//   one thread: flag_add_release_gpu(counter, 1)      (read by this GPU's stream wait)
//   copy engine: waits for the counter, copies into a peer, writes the peer's flag (fenced)
//   reader on the peer: one thread flag_wait_at_least_system(flag, epoch)  ->  barrier  ->
//   every thread reads the data (through L2: ld.global.cg).
// The barrier orders each writer's stores before the signalling thread's release (causality is
// transitive); the acquire at system scope pairs with the copy engine's fenced flag write.
// Minimum: sm_70 (the PTX memory model's scoped operations).
#pragma once

#include "cute_dsl/arch/arch_requirement.hpp"
#include "cute_dsl/config.hpp"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

namespace cute_dsl::arch {

// red.release.gpu.global.add.u32: counts an event (e.g. a finished tile) so that whoever reads
// the count on this GPU -- its threads, or its copy engines and stream waits (which reach its
// memory through the same L2) -- also sees what came before it. No system-wide fence: cheap
// enough for one call per GEMM tile.
template <class Gate = void>
CUTE_DSL_DEVICE void flag_add_release_gpu(unsigned* flag, unsigned value) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 70, "red.release.gpu");
  asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(flag), "r"(value) : "memory");
}

// atom.acq_rel.gpu.global.add.u32: counts an arrival and learns how many came before, in one
// round trip -- a release of what this thread (and, through a barrier before it, its group)
// wrote, and an acquire of what the earlier arrivals released. Split-K's "last split reduces"
// count (kernels/gemm_sm90.hpp): one such atomic by one thread, between two group barriers,
// instead of a fence by every thread on each side. Returns the value before the add.
template <class Gate = void>
CUTE_DSL_DEVICE unsigned flag_fetch_add_acq_rel_gpu(unsigned* flag, unsigned value) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 70, "atom.acq_rel.gpu");
  unsigned old;
  asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(flag), "r"(value) : "memory");
  return old;
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

// ld.acquire.gpu.global.u32: reads a flag this GPU's threads release (a count of arrivals).
template <class Gate = void>
CUTE_DSL_DEVICE unsigned flag_load_acquire_gpu(unsigned const* flag) {
  CUTE_DSL_REQUIRE_ARCH(Gate, 70, "ld.acquire.gpu");
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
  return v;
}

namespace system_flags_detail {

// Polls load() until reached(value), sleeping between polls from FirstNs, doubling up to MaxNs.
// Returns the value that satisfied it (the waits below differ only in the load, the test and
// how long a poll may sleep).
template <unsigned FirstNs, unsigned MaxNs, class Load, class Reached>
CUTE_DSL_DEVICE unsigned poll_with_backoff(Load const& load, Reached const& reached) {
  unsigned v = load();
  for (unsigned sleep = FirstNs; !reached(v); sleep = sleep < MaxNs ? 2 * sleep : sleep) {
    __nanosleep(sleep);
    v = load();
  }
  return v;
}

}  // namespace system_flags_detail

// Spins until *flag >= target (unsigned; a count of arrivals on this GPU). Backs off from 32 ns to
// at most 256 ns: the arrivals it waits for are other CTAs of the same launch finishing the same
// amount of work, microseconds apart at most, and every extra nanosecond of sleep is latency.
template <class Gate = void>
CUTE_DSL_DEVICE unsigned flag_wait_count_gpu(unsigned const* flag, unsigned target) {
  return system_flags_detail::poll_with_backoff<32, 256>([&] { return flag_load_acquire_gpu<Gate>(flag); },
                                                         [&](unsigned v) { return v >= target; });
}

// Spins until *flag - target, as a signed 32-bit difference, is >= 0 (the flag counts epochs
// upwards and may wrap). Returns the value read. Backs off (sleeps 64 ns, doubling to 2 us):
// hundreds of warps polling flags in tight loops slowed the GEMM writing them ~2x (H100, NVLink,
// 2026-11-26: every poll is an L2 -- or NVLink -- round trip on a line the writer also needs).
template <class Gate = void>
CUTE_DSL_DEVICE unsigned flag_wait_at_least_system(unsigned const* flag, unsigned target) {
  return system_flags_detail::poll_with_backoff<64, 2048>([&] { return flag_load_acquire_system<Gate>(flag); },
                                                          [&](unsigned v) { return int(v - target) >= 0; });
}

}  // namespace cute_dsl::arch

#endif  // __CUDACC__ || __CUDACC_RTC__
