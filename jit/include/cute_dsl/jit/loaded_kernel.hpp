// LoadedKernel: a CompiledKernel's CUBIN loaded into the GPU and the kernel's function handle:
// the step between compile() and launch(). Owns what it loaded: move-only, unloaded on
// destruction.
//
// Two ways to load (LoadMethod), both measured by bench/jit/load_bench.cpp:
//   module   cuModuleLoadData + cuModuleGetFunction: bound to the context current at load time,
//            which is what a launch needs anyway.
//   library  cuLibraryLoadData + cuLibraryGetKernel + cuKernelGetFunction (CUDA 12.0): the
//            context-independent form; the function is taken for the current context.
// Default `module`: faster on the H200 (15.1 vs 16.6 us for a 3.7 KB CUBIN, 208 vs 325 us for
// 1 MB; docs/design/jit.md), and the JIT always loads into one known context.
#pragma once

#include "cute_dsl/jit/compiled_kernel.hpp"
#include "cute_dsl/jit/detail/driver_api.hpp"
#include "cute_dsl/jit/error.hpp"
#include "cute_dsl/jit/expected.hpp"

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace cute_dsl::jit {

enum class LoadMethod { module, library };

struct LoadOptions {
  // The device to load on: its primary context is made current on this thread (as
  // cudaSetDevice does) and the kernel loaded there. -1: the context current on this thread, or
  // device 0's primary context when there is none.
  int device = -1;
  LoadMethod method = LoadMethod::module;
};

class LoadedKernel {
 public:
  LoadedKernel(LoadedKernel&& other) noexcept;
  LoadedKernel& operator=(LoadedKernel&& other) noexcept;
  LoadedKernel(const LoadedKernel&) = delete;
  LoadedKernel& operator=(const LoadedKernel&) = delete;
  ~LoadedKernel();

  detail::CuFunction function() const { return function_; }  // the CUfunction
  int device() const { return device_; }                      // the ordinal it was loaded on
  LoadMethod method() const { return method_; }

  // Resources as the driver reports them (cuFuncGetAttribute), beside the ELF's read_resource_usage.
  Expected<ResourceUsage, JitError> driver_resources() const;

  // Raises the kernel's dynamic shared memory limit to `bytes` (needed above 48 KiB). Remembers
  // the highest value set, so repeated launches pay nothing. Not thread-safe for one kernel.
  Expected<Ok, JitError> reserve_dynamic_shared(unsigned bytes);

  // The size in bytes of each of the kernel's parameters: from the CUBIN's parameter table, or
  // for PTX from cuFuncGetParamInfo (a driver for CUDA 12.4 or later); nullopt when neither can
  // tell. Read once in load(), so that
  // launch() and prepare_launch() may read it from several threads at once.
  const std::optional<std::vector<std::size_t>>& parameter_sizes() const { return parameter_sizes_; }

 private:
  friend Expected<LoadedKernel, JitError> load(const CompiledKernel& kernel, const LoadOptions& options);
  LoadedKernel() = default;
  void release() noexcept;
  void query_parameter_sizes(const detail::DriverApi& d, std::string_view binary, std::string_view lowered_name);

  detail::CuModule module_ = nullptr;    // LoadMethod::module
  detail::CuLibrary library_ = nullptr;  // LoadMethod::library
  detail::CuFunction function_ = nullptr;
  detail::CuContext context_ = nullptr;  // the module's: made current again to unload it
  int device_ = 0;
  LoadMethod method_ = LoadMethod::module;
  unsigned dynamic_shared_limit_ = 48 * 1024;
  std::optional<std::vector<std::size_t>> parameter_sizes_;
};

// Loads a CUBIN (or PTX, which the driver JIT-compiles) as `options` say. No driver, no GPU or a
// device that does not exist: an error saying so (kinds no_driver / no_device / invalid_option),
// never a crash.
Expected<LoadedKernel, JitError> load(const CompiledKernel& kernel, const LoadOptions& options = {});

// Makes `device`'s primary context current on this thread, retaining it once per process (never
// released, as the runtime API does: releasing it would destroy the caller's allocations in it).
// What load() does first; public so that a program can create the context before it times or
// allocates anything.
Expected<Ok, JitError> use_device(int device);

}  // namespace cute_dsl::jit
