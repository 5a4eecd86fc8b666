// compile(): KernelSpec + CompileOptions -> CompiledKernel, through the cache, or a JitError.
//
// Steps (each may fail with a typed error): resolve the arch -> generate the source (includes,
// the user's header, nothing else: the instantiation is named to NVRTC, not written out) ->
// content key -> memory, then disk lookup -> NVRTC with the name expression -> lowered name ->
// CUBIN/PTX -> store. Loading and launching (Driver API) are the next steps: driver.hpp.
#pragma once

#include "cute_dsl/jit/cache.hpp"
#include "cute_dsl/jit/compiled_kernel.hpp"
#include "cute_dsl/jit/error.hpp"
#include "cute_dsl/jit/expected.hpp"
#include "cute_dsl/jit/kernel_spec.hpp"
#include "cute_dsl/jit/log.hpp"
#include "cute_dsl/jit/options.hpp"

#include <memory>
#include <string>

namespace cute_dsl::jit {

struct CompileReport {
  CacheOutcome outcome = CacheOutcome::miss;
  double nvrtc_seconds = 0;  // 0 unless compiled (NVRTC alone, without the link)
  double total_seconds = 0;  // 0 for memory hits, which read no clock
  // The stages past the memory level, 0 for those that did not run:
  double source_seconds = 0;        // validating, generating the source, the content key
  double cache_lookup_seconds = 0;  // the disk lookup (read and verify)
  double link_seconds = 0;          // nvJitLink (LTO, device libraries)
  double disk_write_seconds = 0;    // storing the new entry
};

using KernelPtr = std::shared_ptr<const CompiledKernel>;

Expected<KernelPtr, JitError> compile(const KernelSpec& spec, const CompileOptions& options = {},
                                      CompileReport* report = nullptr);
Expected<KernelPtr, JitError> compile(const KernelSpec& spec, const CompileOptions& options,
                                      KernelCache& cache, CompileReport* report = nullptr);

// A spec and options whose memory-cache fingerprint is computed once: the hot-loop form. A lookup
// through it hashes nothing and compares 16 bytes for the bulk text (the plain compile() hashes
// the spec's short fields and compares the source and header contents byte for byte).
struct PreparedSpec {
  KernelSpec spec;
  CompileOptions options;
  Hash128 fingerprint;
  Hash128 bulk_hash;  // of the source and the headers' contents
};
PreparedSpec prepare(KernelSpec spec, CompileOptions options);
Expected<KernelPtr, JitError> compile(const PreparedSpec& prepared, KernelCache& cache, CompileReport* report = nullptr);

// The source NVRTC sees for `spec` (before the embedded headers), as dumped.
std::string generate_source(const KernelSpec& spec);

// The folders NVRTC searches for CUDA's own headers: CUDA_HOME/CUDA_PATH if set, else the
// toolkit found when the library was built. Empty when none exists on this machine.
std::vector<std::string> cuda_include_dirs();

// "13.0": the NVRTC this library runs with (part of the key).
std::string nvrtc_version_string();

}  // namespace cute_dsl::jit
