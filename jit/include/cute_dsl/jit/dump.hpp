// Artifacts of one compile, written for people: the generated source, PTX, CUBIN, SASS and a JSON
// report (names, options, arch, per-stage times, resources, cache outcome).
//
// compile() writes them on every miss and disk hit when CompileOptions::dump.dir or
// CUTE_DSL_DUMP_DIR is set (CUTE_DSL_KEEP picks the artifacts), and on memory hits when the
// options ask. Dumping never bypasses the cache: a hit dumps from the cached binary. PTX beside a
// CUBIN comes from a second, PTX-only compile (NVRTC emits LTO-IR, not PTX, on the CUBIN path);
// SASS from cuobjdump, else nvdisasm (PATH, CUDA_HOME/bin, CUDA_PATH/bin, the build's toolkit),
// and the report says which, or that neither was found.
#pragma once

#include "cute_dsl/jit/compile.hpp"

#include <string>
#include <string_view>

namespace cute_dsl::jit {

// Writes <dir>/<name>.<key8>.{json,cu,ptx,cubin,sass} (those in `keep`, which exist for this
// kernel); returns the common path prefix.
Expected<std::string, JitError> dump_artifacts(const KernelSpec& spec, const CompileOptions& options,
                                               const CompiledKernel& kernel, const CompileReport& report,
                                               const DumpOptions& dump);
// All artifacts, default options: what `cute-dsl jit compile --dump DIR` writes.
Expected<std::string, JitError> dump_artifacts(const KernelSpec& spec, const CompiledKernel& kernel,
                                               const CompileReport& report, const std::string& dir);

// `s` as a JSON string literal (quoted; quotes, backslashes and control characters escaped): the
// dump's report and the tool's --json output.
std::string json_string(std::string_view s);

// The SASS disassembler this process uses ("/usr/local/cuda/bin/cuobjdump"), or empty.
const std::string& sass_tool();

namespace detail {
// After a miss or a disk hit: the dump (the options', else the environment's) and, with
// CUTE_DSL_JIT_TIME_PROFILING, one line of stage times.
void report_compile(const KernelSpec& spec, const CompileOptions& options, const CompiledKernel& k,
                    const CompileReport& report);
// The dump alone, for memory hits whose options ask for it.
void dump_after_compile(const KernelSpec& spec, const CompileOptions& options, const CompiledKernel& k,
                        const CompileReport& report);
// After a failed NVRTC compile, when a dump folder is set (the options', else CUTE_DSL_DUMP_DIR):
// writes the generated source as <dir>/<name>.<key8>.cu, the name a success would have used, so the
// error can point at it; returns its path, or empty (no folder, or it could not be written).
std::string dump_failed_source(const KernelSpec& spec, const CompileOptions& options,
                               const std::string& name_expression, const Hash128& key);
}  // namespace detail

}  // namespace cute_dsl::jit
