// CompiledKernel: the output of the compile step (CUBIN or PTX), and what it costs to run.
#pragma once

#include "cute_dsl/jit/error.hpp"
#include "cute_dsl/jit/expected.hpp"
#include "cute_dsl/jit/hash.hpp"
#include "cute_dsl/jit/options.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace cute_dsl::jit {

struct CompiledKernel {
  Hash128 key;                  // content key (see docs/design/jit.md)
  std::string name_expression;  // "scale<float, 128>"
  std::string lowered_name;     // the mangled symbol NVRTC reported for it
  std::string arch;             // "sm_90a"
  OutputKind output = OutputKind::cubin;
  std::string binary;           // CUBIN bytes or PTX text
  std::string log;              // NVRTC warnings, if any
};

// One kernel parameter as the CUBIN lays it out: its byte offset in the parameter buffer and its
// size (EIATTR_KPARAM_INFO). What a launcher must pass, whatever the parameter's C++ type was.
struct KernelParameter {
  int offset = 0;
  int size = 0;
  friend bool operator==(const KernelParameter&, const KernelParameter&) = default;
};

// Per-kernel resources, read from the CUBIN itself (no GPU, no driver, no external tool):
// registers from the kernel's .text section header, static shared memory from its .nv.shared
// section, local memory (the stack frame; > 0 usually means spills) from its .nv.info attributes.
struct ResourceUsage {
  int registers = 0;
  long long shared_bytes = 0;
  long long local_bytes = 0;  // per-thread stack frame
  int max_threads = 0;        // from __launch_bounds__, 0 if none
  std::vector<KernelParameter> parameters;  // in declaration order (the export's C struct, export.hpp)
};

Expected<ResourceUsage, JitError> read_resource_usage(std::string_view cubin, std::string_view lowered_name);

}  // namespace cute_dsl::jit
