// LoadedKernel: a CompiledKernel's CUBIN loaded into the GPU (cuModuleLoadData) and the kernel's
// function handle: the step between compile() and launch().
//
// Why cuModuleLoadData, not cuLibraryLoadData: a module is bound to the context current at load
// time, which is what a launch needs anyway; the context-independent library API would add a
// cuKernelGetFunction per context. Which one loads faster is still to be measured (jit.md).
// Owns the module: move-only, unloaded on destruction.
#pragma once

#include "cute_dsl/jit/compiled_kernel.hpp"
#include "cute_dsl/jit/detail/driver_api.hpp"
#include "cute_dsl/jit/error.hpp"
#include "cute_dsl/jit/expected.hpp"

namespace cute_dsl::jit {

class LoadedKernel {
 public:
  LoadedKernel(LoadedKernel&& other) noexcept;
  LoadedKernel& operator=(LoadedKernel&& other) noexcept;
  LoadedKernel(const LoadedKernel&) = delete;
  LoadedKernel& operator=(const LoadedKernel&) = delete;
  ~LoadedKernel();

  detail::CuFunction function() const { return function_; }  // the CUfunction

  // Resources as the driver reports them (cuFuncGetAttribute), beside the ELF's read_resource_usage.
  Expected<ResourceUsage, JitError> driver_resources() const;

  // Raises the kernel's dynamic shared memory limit to `bytes` (needed above 48 KiB). Remembers
  // the highest value set, so repeated launches pay nothing. Not thread-safe for one kernel.
  Expected<Ok, JitError> reserve_dynamic_shared(unsigned bytes);

 private:
  friend Expected<LoadedKernel, JitError> load(const CompiledKernel& kernel);
  LoadedKernel() = default;
  void release() noexcept;

  detail::CuModule module_ = nullptr;
  detail::CuFunction function_ = nullptr;
  unsigned dynamic_shared_limit_ = 48 * 1024;
};

// Loads a CUBIN (or PTX, which the driver JIT-compiles) into the current context; with no current
// context, makes device 0's primary context current (retained once per process, as the runtime
// API does).
// No driver or no GPU: an error saying so (kinds no_driver / no_device), never a crash.
Expected<LoadedKernel, JitError> load(const CompiledKernel& kernel);

}  // namespace cute_dsl::jit
