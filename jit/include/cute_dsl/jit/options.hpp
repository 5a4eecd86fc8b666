// CompileOptions: how a spec is compiled. Every field but `dump` is part of the cache key.
#pragma once

#include "cute_dsl/jit/device_library.hpp"
#include "cute_dsl/jit/error.hpp"
#include "cute_dsl/jit/expected.hpp"
#include "cute_dsl/jit/hash.hpp"
#include "cute_dsl/jit/hooks.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace cute_dsl::jit {

enum class OutputKind { cubin, ptx };

// What compile() keeps for people (docs/env.md): with `dir` set, every compile writes
// <dir>/<name>.<key8>.json and the artifacts in `keep`; the cache keeps working (a hit dumps
// from the cached binary). An empty `dir` defers to CUTE_DSL_DUMP_DIR and CUTE_DSL_KEEP.
enum KeepArtifact : unsigned { keep_source = 1, keep_ptx = 2, keep_cubin = 4, keep_sass = 8, keep_all = 15 };
struct DumpOptions {
  std::string dir;
  unsigned keep = keep_all;  // KeepArtifact bits
};
// "source,ptx,cubin,sass" (any subset, or "all", or "none") -> KeepArtifact bits.
Expected<unsigned, JitError> parse_keep(std::string_view text);

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
  // Link-time optimisation (CUBIN output): NVRTC emits LTO-IR (-dlto) and nvJitLink links it with
  // -lto and -optimize-unused-variables, which strips the __device__/__constant__ data and the
  // functions no kernel uses (a header's tables). Why it is the default: docs/design/jit.md.
  bool lto = true;
  // Device code nvJitLink links in (CUBIN output only); keyed by content, never by path.
  // Without lto, NVRTC emits a relocatable CUBIN (-rdc=true); LTO-IR libraries link either way.
  std::vector<DeviceLibrary> device_libraries;
  // User hooks at the stages (hooks.hpp), run in this order; their names and versions are part of
  // the key, their callbacks are not (a changed callback needs a new version).
  std::vector<Hook> hooks;
  // Artifacts written beside the cache (never instead of it). NOT part of the cache key.
  DumpOptions dump;

  void hash_into(Hasher& h) const;
};

// The arch after applying "auto" and CUTE_DSL_ARCH, spelled "sm_90a". Fails with a clear
// message when "auto" needs a GPU and there is none.
Expected<std::string, JitError> resolve_arch(const std::string& requested);

// The NVRTC command line for `o` (arch already resolved). No absolute paths: include folders
// are added separately and are not part of the key.
Expected<std::vector<std::string>, JitError> nvrtc_options(const CompileOptions& o, const std::string& arch);

}  // namespace cute_dsl::jit
