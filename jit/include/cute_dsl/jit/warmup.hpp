// warmup(): compile many instantiations at once, before they are needed.
//
// NVRTC barely scales with threads inside one process, so the batch is split among worker
// processes (the `cute-dsl-jit-worker` program), each compiling its share into the disk cache;
// the caller then takes every entry from disk into its memory cache. Without a worker program or
// without a disk cache, threads of this process compile instead (a log line says why). Each item
// succeeds or fails on its own: an error never stops the batch.
#pragma once

#include "cute_dsl/jit/compile.hpp"

#include <span>
#include <string>
#include <vector>

namespace cute_dsl::jit {

struct WarmupOptions {
  int workers = 0;        // processes (or threads) at once; 0: the number of CPUs
  bool progress = true;   // "compiling k/n: name" lines to the log sink (shown unless the level is off)
  // The worker program; empty: CUTE_DSL_JIT_WORKER, else `cute-dsl-jit-worker` next to this library
  // (or the program that links it), in ../bin or ../libexec of it, else the installed package's
  // (programs built with find_package(CuteDSL COMPONENTS jit)), else where the build put it.
  // When none is found or starts, warmup() warns and compiles with threads.
  std::string worker_path;
  bool use_processes = true;  // false: threads of this process, always
};

struct WarmupItemResult {
  Expected<KernelPtr, JitError> kernel;  // in the cache's memory level when it has a value
  CacheOutcome outcome = CacheOutcome::miss;  // before the batch: memory or disk hit, or compiled
  bool by_worker = false;                     // compiled in a worker process
};

std::vector<WarmupItemResult> warmup(std::span<const KernelSpec> specs, const CompileOptions& options = {},
                                     const WarmupOptions& warmup_options = {});
std::vector<WarmupItemResult> warmup(std::span<const KernelSpec> specs, const CompileOptions& options,
                                     const WarmupOptions& warmup_options, KernelCache& cache);

// The worker program that warmup() would start, or empty when there is none.
std::string find_warmup_worker(const WarmupOptions& warmup_options = {});

// The worker's whole program: `cute-dsl-jit-worker REQUEST_FILE INDEX COUNT` compiles items
// INDEX, INDEX+COUNT, ... of the request file into the disk cache it names, and reports each on
// stdout. Internal protocol between warmup() and its workers (same library build).
int warmup_worker_main(int argc, char** argv);

}  // namespace cute_dsl::jit
