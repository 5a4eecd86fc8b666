// CompileOptions: how a spec is compiled. Every field is part of the cache key.
#pragma once

#include "cute_dsl/jit/error.hpp"
#include "cute_dsl/jit/expected.hpp"
#include "cute_dsl/jit/hash.hpp"

#include <string>
#include <vector>

namespace cute_dsl::jit {

enum class OutputKind { cubin, ptx };

struct CompileOptions {
  // "auto": CUTE_DSL_ARCH if set, else the current device (sm_90 -> sm_90a, as for the other
  // arch-specific generations). Explicit values ("sm_80", "sm_90a", "sm_100a", "90a") compile for
  // that arch with or without a GPU.
  std::string arch = "auto";
  int opt_level = 3;           // 0..3, passed to ptxas through NVRTC (-Xptxas -O<n>)
  bool line_info = false;      // -lineinfo
  bool device_asserts = false; // keeps assert(); NDEBUG is defined otherwise
  bool fast_math = false;      // -use_fast_math
  int max_registers = 0;       // -maxrregcount=N when > 0
  std::vector<std::string> defines;        // "NAME" or "NAME=VALUE"
  std::vector<std::string> extra_options;  // passed to NVRTC verbatim (after ours)
  OutputKind output = OutputKind::cubin;

  void hash_into(Hasher& h) const;
};

// The arch after applying "auto" and CUTE_DSL_ARCH, spelled "sm_90a". Fails with a clear
// message when "auto" needs a GPU and there is none.
Expected<std::string, JitError> resolve_arch(const std::string& requested);

// The NVRTC command line for `o` (arch already resolved). No absolute paths: include folders
// are added separately and are not part of the key.
Expected<std::vector<std::string>, JitError> nvrtc_options(const CompileOptions& o, const std::string& arch);

}  // namespace cute_dsl::jit
