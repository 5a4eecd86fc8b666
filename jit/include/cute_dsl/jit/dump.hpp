// Artifacts of one compile, written for people: the generated source, PTX, CUBIN, SASS and a JSON
// report (names, options, arch, per-stage times, resources, cache outcome).
//
// compile() writes them on every miss and disk hit when CompileOptions::dump.dir or
// CUTE_DSL_DUMP_DIR is set (CUTE_DSL_KEEP picks the artifacts), and on memory hits when the
// options ask. Dumping never bypasses the cache, and never compiles: a hit dumps from the cached
// binary; the source and the PTX are those the stages made (CompileReport::source, ::ptx: the PTX
// is made when the dump keeps it, and a cache hit has none); SASS from cuobjdump, else nvdisasm (PATH, CUDA_HOME/bin, CUDA_PATH/bin, the build's toolkit),
// and the report says which, or that neither was found.
#pragma once

#include "cute_dsl/jit/compile.hpp"
#include "cute_dsl/jit/stages.hpp"

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
// The observers of one compile (compile.cpp calls them; they compile nothing). After a compile or
// a hit: the dump to `dump` (sets report.dumped) and, with `time_profiling`, one log line of
// stage times (not for memory hits).
void observe_compile(const KernelSpec& spec, const CompileOptions& options, const CompiledKernel& k,
                     CompileReport& report, const DumpOptions& dump, bool time_profiling);
// After NVRTC failed, with a dump folder: writes the failing source as <dir>/<name>.<key8>.cu, the
// name a success would have used, and returns `e` with "generated source: PATH" added to its log.
JitError observe_failure(JitError e, const CompileRequest& request, const DumpOptions& dump);
}  // namespace detail

}  // namespace cute_dsl::jit
