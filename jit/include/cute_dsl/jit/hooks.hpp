// User hooks at the JIT's stages: the C++ counterpart of custom compiler passes.
//
// A Hook has a name and a version, both part of the cache key (a kernel checked or transformed by
// a hook is never confused with one that was not, nor with one an older version of the hook made),
// and up to three callbacks, each run only when the kernel is actually compiled (a cache hit has
// passed them already, under the same key):
//   on_source  transforms the generated source before NVRTC (instrument, add definitions);
//   on_ptx     transforms or checks the PTX before ptxas (forbid local memory, count instructions);
//   on_cubin   checks the linked CUBIN (registers, spills, shared memory, occupancy budgets).
// A callback rejects the kernel by returning a JitError (compile() then fails with it, kind
// `hook`), or warns through log(). Hooks run in the order given. docs/07_jit_hooks.md shows them.
#pragma once

#include "cute_dsl/jit/error.hpp"
#include "cute_dsl/jit/expected.hpp"

#include <functional>
#include <string>
#include <string_view>

namespace cute_dsl::jit {

// What a hook is told about the kernel it sees.
struct HookContext {
  std::string_view kernel;        // the name expression, "ns::scale<float, 128>"
  std::string_view arch;          // "sm_90a"
  std::string_view lowered_name;  // the kernel's symbol; empty in on_source (NVRTC has not run yet)
};

using HookResult = Expected<Ok, JitError>;

struct Hook {
  std::string name;     // "max-registers=128": in messages and in the cache key
  std::string version;  // change it whenever what the hook does changes: in the cache key
  std::function<HookResult(std::string& source, const HookContext&)> on_source;
  std::function<HookResult(std::string& ptx, const HookContext&)> on_ptx;
  std::function<HookResult(std::string_view cubin, const HookContext&)> on_cubin;
};

// A JitError of kind `hook`, naming the hook and the kernel: what a rejecting callback returns.
JitError hook_error(std::string_view hook, const HookContext& where, std::string message, std::string hint = {});

// What a budget hook does when the kernel is over: fail the compile, or log a warning and go on.
enum class HookAction { reject, warn };

namespace hooks {

// Source: `text` put before the generated source (definitions, an instrumentation header). Its
// version is the text's content hash, so editing the text compiles again.
Hook prepend_source(std::string name, std::string text);

// PTX and CUBIN: no local memory. Rejects PTX that declares .local storage (a stack array), then
// a CUBIN whose kernel has a stack frame (ptxas spilled registers).
Hook forbid_local_memory(HookAction action = HookAction::reject);

// CUBIN: resource budgets of the kernel, read from the CUBIN (no GPU). 0 leaves a figure
// unchecked. Occupancy: blocks of `block_threads` threads (0: the kernel's __launch_bounds__)
// that fit on one SM by registers (64K per SM) and static shared memory (the arch's per-SM total).
struct ResourceBudget {
  int max_registers = 0;
  long long max_shared_bytes = 0;  // static shared, as the ELF reports it (sm_90: + 1 KiB reserved)
  int min_blocks_per_sm = 0;
  int block_threads = 0;
};
Hook resource_budget(ResourceBudget budget, HookAction action = HookAction::reject);

}  // namespace hooks

// The command line's spelling of the example hooks (cute-dsl jit compile --hook TEXT):
//   forbid-local-memory[,warn]      max-registers=N[,warn]      max-shared=BYTES[,warn]
//   min-blocks-per-sm=N[,threads=T][,warn]                      prepend-file=PATH
Expected<Hook, JitError> parse_hook(std::string_view text);

}  // namespace cute_dsl::jit
