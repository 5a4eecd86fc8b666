// The stages' internal entry points (stages.cpp): the same as stages.hpp's, but given the
// compile's one environment snapshot instead of reading it.
#pragma once

#include "cute_dsl/jit/stages.hpp"

#include "env.hpp"

#include <string>
#include <vector>

namespace cute_dsl::jit::detail {

Expected<CompileRequest, JitError> describe_request(const KernelSpec& spec, const CompileOptions& options,
                                                    const Environment& env, bool want_ptx);

// CUDA_HOME/CUDA_PATH's include folders (with cccl/), else the build's toolkit's; only those that
// hold cuda_fp16.h. `origin` receives where they were looked for.
std::vector<std::string> cuda_include_dirs(const Environment& env, std::string* origin = nullptr);

// The arch of `options`: "auto" is the process's one resolution (auto_arch()).
Expected<std::string, JitError> arch_for(const CompileOptions& options);

const Hash128& embedded_headers_hash();

}  // namespace cute_dsl::jit::detail
