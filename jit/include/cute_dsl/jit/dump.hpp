// Artifacts of one compile, written for people: the generated source, the CUBIN or PTX, and a
// JSON report (names, options' outcome, arch, times, resources, cache outcome).
//
// compile() writes them for every miss and hit when CUTE_DSL_DUMP_DIR is set; the tool's --dump
// does the same for one kernel. Dumping never bypasses the cache. SASS needs cuobjdump or
// nvdisasm, which are not used yet (see docs/design/jit.md).
#pragma once

#include "cute_dsl/jit/compile.hpp"

#include <string>

namespace cute_dsl::jit {

// Writes <dir>/<name>.<key8>.{cu,cubin|ptx,json}; returns the common path prefix.
Expected<std::string, JitError> dump_artifacts(const KernelSpec& spec, const CompiledKernel& kernel,
                                               const CompileReport& report, const std::string& dir);

}  // namespace cute_dsl::jit
