// load(), use_device() and LoadedKernel; see loaded_kernel.hpp.
#include "cute_dsl/jit/loaded_kernel.hpp"

#include "cute_dsl/jit/driver.hpp"

#include <mutex>
#include <utility>

namespace cute_dsl::jit {

namespace {
constexpr int kAttrMaxThreads = 0;  // CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK
constexpr int kAttrSharedBytes = 1;  // CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES
constexpr int kAttrLocalBytes = 3;   // CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES
constexpr int kAttrRegisters = 4;    // CU_FUNC_ATTRIBUTE_NUM_REGS
constexpr int kNoBinaryForGpu = 209;  // CUDA_ERROR_NO_BINARY_FOR_GPU
constexpr int kInvalidValue = 1;      // CUDA_ERROR_INVALID_VALUE

JitError no_such_device(int device, int count) {
  return JitError{JitErrorKind::no_device,
                  "device " + std::to_string(device) + " does not exist: the driver reports " + std::to_string(count) +
                      (count == 1 ? " device (ordinal 0)" : " devices (ordinals 0 to " + std::to_string(count - 1) + ")"),
                  {}, {}, "check LoadOptions::device, and CUDA_VISIBLE_DEVICES, which hides and renumbers devices"};
}

// Each device's primary context, retained at its first use for the life of the process.
Expected<detail::CuContext, JitError> primary_context(const detail::DriverApi& d, int device) {
  static std::mutex mutex;
  static std::vector<detail::CuContext> contexts;
  const int count = load_driver().value().device_count;  // driver_api() succeeded: it loaded
  if (device < 0 || device >= count) return unexpected(no_such_device(device, count));
  std::lock_guard lock(mutex);
  contexts.resize(static_cast<std::size_t>(count), nullptr);
  detail::CuContext& c = contexts[static_cast<std::size_t>(device)];
  if (!c) {
    int handle = 0;
    if (auto r = d.device_get(&handle, device); r != 0)
      return unexpected(detail::driver_error(("cuDeviceGet(" + std::to_string(device) + ")").c_str(), r));
    if (auto r = d.primary_ctx_retain(&c, handle); r != 0) {
      c = nullptr;
      return unexpected(detail::driver_error("cuDevicePrimaryCtxRetain", r));
    }
  }
  return c;
}

Expected<Ok, JitError> make_current(const detail::DriverApi& d, int device) {
  auto ctx = primary_context(d, device);
  if (!ctx) return unexpected(ctx.error());
  if (auto r = d.ctx_set_current(*ctx); r != 0) return unexpected(detail::driver_error("cuCtxSetCurrent", r));
  return Ok{};
}

JitError load_error(const char* call, detail::CuResult r, const CompiledKernel& kernel) {
  JitError e = detail::driver_error(call, r);
  e.message += " (" + kernel.name_expression + ", " + kernel.arch + ")";
  if (r == kNoBinaryForGpu) e.hint = "the CUBIN was built for another arch than this GPU's";
  return e;
}
}  // namespace

Expected<Ok, JitError> use_device(int device) {
  auto api = detail::driver_api();
  if (!api) return unexpected(api.error());
  return make_current(**api, device);
}

Expected<LoadedKernel, JitError> load(const CompiledKernel& kernel, const LoadOptions& options) {
  auto api = detail::driver_api();
  if (!api) return unexpected(api.error());
  const detail::DriverApi& d = **api;
  if (options.device >= 0) {
    if (auto made = make_current(d, options.device); !made) return unexpected(made.error());
  } else {
    detail::CuContext ctx = nullptr;
    if (auto r = d.ctx_get_current(&ctx); r != 0) return unexpected(detail::driver_error("cuCtxGetCurrent", r));
    if (!ctx)
      if (auto made = make_current(d, 0); !made) return unexpected(made.error());
  }
  LoadedKernel out;
  out.method_ = options.method;
  if (auto r = d.ctx_get_current(&out.context_); r != 0) return unexpected(detail::driver_error("cuCtxGetCurrent", r));
  if (auto r = d.ctx_get_device(&out.device_); r != 0) return unexpected(detail::driver_error("cuCtxGetDevice", r));
  // A CUBIN is an ELF with its size in its headers; PTX is NUL-terminated: std::string is both.
  const char* image = kernel.binary.c_str();
  const char* symbol = kernel.lowered_name.c_str();
  if (options.method == LoadMethod::module) {
    if (auto r = d.module_load_data(&out.module_, image); r != 0) return unexpected(load_error("cuModuleLoadData", r, kernel));
    if (auto r = d.module_get_function(&out.function_, out.module_, symbol); r != 0)
      return unexpected(load_error("cuModuleGetFunction", r, kernel));
    out.query_parameter_sizes(d, kernel.binary, kernel.lowered_name);
    return out;
  }
  if (!d.library_load_data)
    return unexpected(JitError{JitErrorKind::no_driver, "this CUDA driver has no cuLibraryLoadData", {}, {},
                               "LoadMethod::library needs a driver for CUDA 12.0 or later; LoadMethod::module works"});
  if (auto r = d.library_load_data(&out.library_, image, nullptr, nullptr, 0, nullptr, nullptr, 0); r != 0)
    return unexpected(load_error("cuLibraryLoadData", r, kernel));
  detail::CuKernel k = nullptr;
  if (auto r = d.library_get_kernel(&k, out.library_, symbol); r != 0)
    return unexpected(load_error("cuLibraryGetKernel", r, kernel));
  if (auto r = d.kernel_get_function(&out.function_, k); r != 0)
    return unexpected(load_error("cuKernelGetFunction", r, kernel));
  out.query_parameter_sizes(d, kernel.binary, kernel.lowered_name);
  return out;
}

LoadedKernel::LoadedKernel(LoadedKernel&& other) noexcept { *this = std::move(other); }

LoadedKernel& LoadedKernel::operator=(LoadedKernel&& other) noexcept {
  if (this != &other) {
    release();
    module_ = std::exchange(other.module_, nullptr);
    library_ = std::exchange(other.library_, nullptr);
    function_ = std::exchange(other.function_, nullptr);
    context_ = other.context_;
    device_ = other.device_;
    method_ = other.method_;
    dynamic_shared_limit_ = other.dynamic_shared_limit_;
    parameter_sizes_ = std::move(other.parameter_sizes_);
  }
  return *this;
}

LoadedKernel::~LoadedKernel() { release(); }

void LoadedKernel::release() noexcept {
  if (!module_ && !library_) return;
  auto api = detail::driver_api();
  if (!api) return;  // nothing can have been loaded
  if (module_) {
    // cuModuleUnload acts on the current context: make the module's current for the call (another
    // device's may be current by now, or none on another thread).
    const detail::DriverApi& d = **api;
    detail::CuContext current = nullptr;
    d.ctx_get_current(&current);
    if (current != context_) d.ctx_set_current(context_);
    d.module_unload(module_);
    if (current != context_) d.ctx_set_current(current);
  }
  if (library_) (*api)->library_unload(library_);  // a library belongs to no context
  module_ = nullptr;
  library_ = nullptr;
  function_ = nullptr;
}

Expected<ResourceUsage, JitError> LoadedKernel::driver_resources() const {
  auto api = detail::driver_api();
  if (!api) return unexpected(api.error());
  int threads = 0, shared = 0, local = 0, regs = 0;
  const std::pair<int, int*> queries[] = {
      {kAttrMaxThreads, &threads}, {kAttrSharedBytes, &shared}, {kAttrLocalBytes, &local}, {kAttrRegisters, &regs}};
  for (auto [attr, out] : queries)
    if (auto r = (*api)->func_get_attribute(out, attr, function_); r != 0)
      return unexpected(detail::driver_error("cuFuncGetAttribute", r));
  return ResourceUsage{regs, shared, local, threads, {}};
}

Expected<Ok, JitError> LoadedKernel::reserve_dynamic_shared(unsigned bytes) {
  if (bytes <= dynamic_shared_limit_) return Ok{};
  auto api = detail::driver_api();
  if (!api) return unexpected(api.error());
  if (auto r = (*api)->func_set_attribute(function_, detail::kFuncAttributeMaxDynamicSharedBytes, static_cast<int>(bytes));
      r != 0) {
    JitError e = detail::driver_error("cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", r);
    e.message += " for " + std::to_string(bytes) + " bytes";
    e.hint = "the device's opt-in limit (227 KiB on sm_90) minus the kernel's static shared memory";
    return unexpected(std::move(e));
  }
  dynamic_shared_limit_ = bytes;
  return Ok{};
}

void LoadedKernel::query_parameter_sizes(const detail::DriverApi& d, std::string_view binary, std::string_view lowered_name) {
  // A CUBIN says it itself (EIATTR_KPARAM_INFO, read_resource_usage): no driver call. The
  // driver's probe below ends on an invalid index, which compute-sanitizer reports as an API
  // error in every program that loads a kernel; it stays for PTX, which the driver compiles.
  if (binary.size() >= 4 && binary.substr(0, 4) == std::string_view("\x7f" "ELF", 4)) {
    if (auto usage = read_resource_usage(binary, lowered_name)) {
      std::vector<std::size_t> sizes;
      for (const KernelParameter& p : usage->parameters) sizes.push_back(std::size_t(p.size));
      parameter_sizes_ = std::move(sizes);
      return;
    }
  }
  if (!d.func_get_param_info) return;  // the driver cannot tell
  // One call per parameter until the index is past the last one (CUDA_ERROR_INVALID_VALUE). The
  // parameter space is at most 32 KiB, so a kernel has fewer parameters than that many bytes.
  // Any other failure leaves the sizes unknown rather than wrong.
  std::vector<std::size_t> sizes;
  for (std::size_t i = 0; i < 32768; ++i) {
    std::size_t offset = 0, size = 0;
    const detail::CuResult r = d.func_get_param_info(function_, i, &offset, &size);
    if (r == kInvalidValue) break;
    if (r != 0) return;
    sizes.push_back(size);
  }
  parameter_sizes_ = std::move(sizes);
}

}  // namespace cute_dsl::jit
