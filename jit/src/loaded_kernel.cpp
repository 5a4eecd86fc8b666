// load() and LoadedKernel; see loaded_kernel.hpp.
#include "cute_dsl/jit/loaded_kernel.hpp"

#include <utility>

namespace cute_dsl::jit {

namespace {
constexpr int kAttrMaxThreads = 0;  // CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK
constexpr int kAttrSharedBytes = 1;  // CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES
constexpr int kAttrLocalBytes = 3;   // CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES
constexpr int kAttrRegisters = 4;    // CU_FUNC_ATTRIBUTE_NUM_REGS

// Device 0's primary context, retained once for the life of the process, as the runtime API
// does. Why never released: releasing it with the last kernel would destroy every allocation the
// caller made in it between two loads.
Expected<detail::CuContext, JitError> primary_context(const detail::DriverApi& d) {
  static const Expected<detail::CuContext, JitError> ctx = [&]() -> Expected<detail::CuContext, JitError> {
    int device = 0;
    if (auto r = d.device_get(&device, 0); r != 0) return unexpected(detail::driver_error("cuDeviceGet(0)", r));
    detail::CuContext c = nullptr;
    if (auto r = d.primary_ctx_retain(&c, device); r != 0)
      return unexpected(detail::driver_error("cuDevicePrimaryCtxRetain", r));
    return c;
  }();
  return ctx;
}
}  // namespace

Expected<LoadedKernel, JitError> load(const CompiledKernel& kernel) {
  auto api = detail::driver_api();
  if (!api) return unexpected(api.error());
  const detail::DriverApi& d = **api;
  LoadedKernel out;
  detail::CuContext ctx = nullptr;
  if (auto r = d.ctx_get_current(&ctx); r != 0) return unexpected(detail::driver_error("cuCtxGetCurrent", r));
  if (!ctx) {
    auto primary = primary_context(d);
    if (!primary) return unexpected(primary.error());
    if (auto r = d.ctx_set_current(*primary); r != 0) return unexpected(detail::driver_error("cuCtxSetCurrent", r));
  }
  // A CUBIN is an ELF with its size in its headers; PTX is NUL-terminated: std::string is both.
  if (auto r = d.module_load_data(&out.module_, kernel.binary.c_str()); r != 0) {
    JitError e = detail::driver_error("cuModuleLoadData", r);
    e.message += " (" + kernel.name_expression + ", " + kernel.arch + ")";
    if (r == 209 /* CUDA_ERROR_NO_BINARY_FOR_GPU */) e.hint = "the CUBIN was built for another arch than this GPU's";
    return unexpected(std::move(e));
  }
  if (auto r = d.module_get_function(&out.function_, out.module_, kernel.lowered_name.c_str()); r != 0) {
    JitError e = detail::driver_error("cuModuleGetFunction", r);
    e.message += " (" + kernel.lowered_name + ")";
    return unexpected(std::move(e));
  }
  return out;
}

LoadedKernel::LoadedKernel(LoadedKernel&& other) noexcept
    : module_(std::exchange(other.module_, nullptr)),
      function_(std::exchange(other.function_, nullptr)),
      dynamic_shared_limit_(other.dynamic_shared_limit_) {}

LoadedKernel& LoadedKernel::operator=(LoadedKernel&& other) noexcept {
  if (this != &other) {
    release();
    module_ = std::exchange(other.module_, nullptr);
    function_ = std::exchange(other.function_, nullptr);
    dynamic_shared_limit_ = other.dynamic_shared_limit_;
  }
  return *this;
}

LoadedKernel::~LoadedKernel() { release(); }

void LoadedKernel::release() noexcept {
  auto api = detail::driver_api();
  if (!api) return;  // nothing can have been loaded
  if (module_) (*api)->module_unload(module_);
  module_ = nullptr;
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
  return ResourceUsage{regs, shared, local, threads};
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

}  // namespace cute_dsl::jit
