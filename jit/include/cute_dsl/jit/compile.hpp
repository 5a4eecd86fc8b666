// compile(): KernelSpec + CompileOptions -> CompiledKernel, through the cache, or a JitError.
//
// The stages (stages.hpp), each a value or a typed error: memory lookup -> describe_request
// (arch, source, options, content key) -> disk lookup -> run_front_end (NVRTC) -> run_back_end
// (hooks, nvJitLink) -> store. Loading and launching (Driver API) are the next steps: driver.hpp.
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
  double nvrtc_seconds = 0;  // the front end: NVRTC alone (0 unless compiled)
  double total_seconds = 0;  // 0 for memory hits, which read no clock
  // The stages past the memory level, 0 for those that did not run:
  double source_seconds = 0;        // validating, generating the source, the content key
  double cache_lookup_seconds = 0;  // the disk lookup (read and verify)
  double link_seconds = 0;          // the back end: nvJitLink (LTO + ptxas, device libraries) and hooks
  double ptx_seconds = 0;           // of link_seconds: LTO's PTX for hooks or a dump (PTX-only pass)
  double disk_write_seconds = 0;    // storing the new entry
  // What the stages made that the binary does not hold, for observers (dumps), past the memory
  // level only: the source NVRTC compiled (after source hooks), and the kernel's PTX when it was
  // wanted (a PTX dump, a PTX hook, PTX output). Empty otherwise.
  std::string source;
  std::string ptx;
  std::string dumped;  // the dump's common path prefix ("<dir>/<name>.<key8>"), when one was written
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

// The source NVRTC sees for `spec` (before the embedded headers and the source hooks).
std::string generate_source(const KernelSpec& spec);

// The folders NVRTC searches for CUDA's own headers: CUDA_HOME/CUDA_PATH if set, else the
// toolkit found when the library was built. Empty when none exists on this machine.
std::vector<std::string> cuda_include_dirs();

// "13.0": the NVRTC this library runs with (part of the key).
std::string nvrtc_version_string();

}  // namespace cute_dsl::jit
