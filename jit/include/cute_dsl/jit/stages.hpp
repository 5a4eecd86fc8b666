// The compile pipeline as typed stages, each a value or a JitError, each usable and testable alone.
// compile() (compile.hpp) is their composition, with the cache between the first and the second:
//
//   describe_request   KernelSpec + CompileOptions -> CompileRequest: validated spec, resolved
//                      arch, generated source (after on_source hooks), name expression, NVRTC
//                      options, content key. No NVRTC run.
//   run_front_end      CompileRequest -> FrontEndOutput: ONE NVRTC program; its log, the lowered
//                      name, and its code (LTO-IR, CUBIN or PTX) plus PTX where NVRTC made it.
//   run_back_end       FrontEndOutput -> LinkedBinary: on_ptx hooks, nvJitLink (LTO + ptxas,
//                      device libraries) when the options use it, then on_cubin hooks.
//   load               (loaded_kernel.hpp) CompiledKernel -> LoadedKernel.
//
// Observers (dumps, the JSON report, CUTE_DSL_JIT_TIME_PROFILING) read what the stages produced;
// they never compile. See docs/design/jit.md ("Stages").
#pragma once

#include "cute_dsl/jit/error.hpp"
#include "cute_dsl/jit/expected.hpp"
#include "cute_dsl/jit/hash.hpp"
#include "cute_dsl/jit/kernel_spec.hpp"
#include "cute_dsl/jit/options.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cute_dsl::jit {

struct CompileRequest {
  std::string arch;             // resolved: "sm_90a"
  std::string name_expression;  // "ns::scale<float, 128>"
  std::string program_name;     // the file name NVRTC reports the source under
  std::string source;           // generated, then transformed by the on_source hooks
  std::vector<std::string> nvrtc_options;  // in the key; never paths
  std::vector<std::string> include_dirs;   // CUDA's headers (-I); not in the key
  std::string include_origin;  // where they were looked for ("CUDA_HOME=/opt/cuda"), for messages
  bool want_ptx = false;  // PTX is needed: PTX output, an on_ptx hook, or asked (a PTX dump)
  Hash128 key;            // the disk cache's content key
};

// `want_ptx` asks for the kernel's PTX beside its binary even when nothing else needs it.
Expected<CompileRequest, JitError> describe_request(const KernelSpec& spec, const CompileOptions& options,
                                                    bool want_ptx = false);

// The form NVRTC stopped at.
enum class FrontEndCode {
  ltoir,              // -dlto: nvJitLink links it (the default CUBIN path)
  relocatable_cubin,  // -rdc=true: device libraries without LTO
  cubin,              // NVRTC ran ptxas itself (lto = false)
  ptx,                // PTX output
};

struct FrontEndOutput {
  std::string log;           // NVRTC's warnings (mapped to the user's files)
  std::string lowered_name;  // the kernel's symbol
  FrontEndCode kind = FrontEndCode::ltoir;
  std::string code;          // the bytes of `kind`
  std::string ptx;           // NVRTC's PTX where it made one and it was wanted (not with -dlto)
  double seconds = 0;
};

// Runs NVRTC once. `spec` supplies the in-memory headers the source includes.
Expected<FrontEndOutput, JitError> run_front_end(const CompileRequest& request, const KernelSpec& spec);

struct LinkedBinary {
  OutputKind output = OutputKind::cubin;
  std::string binary;  // CUBIN, or PTX for PTX output
  std::string ptx;     // the PTX the binary was made from, when it was wanted (after on_ptx hooks)
  std::string log;     // NVRTC's log, then nvJitLink's
  double seconds = 0;  // nvJitLink (LTO + ptxas) and the hooks; 0 when nothing ran
  double ptx_seconds = 0;  // of that: the PTX-only nvJitLink pass, when PTX was wanted of LTO-IR
};

// The back end: PTX where wanted (of LTO-IR: a PTX-only nvJitLink pass over the same LTO-IR, the
// PTX that ptxas compiles), on_ptx hooks, the link (from the hooked PTX when a hook changed it),
// then on_cubin hooks.
Expected<LinkedBinary, JitError> run_back_end(const CompileRequest& request, FrontEndOutput front,
                                              const CompileOptions& options);

// How many times this process has run nvrtcCompileProgram: for tests and diagnostics (a dump,
// a report or a hit adds nothing).
std::uint64_t nvrtc_compilations();

}  // namespace cute_dsl::jit
