// Resolves the load/launch entry points from the driver that driver_loader.cpp already opened.
#include "cute_dsl/jit/detail/driver_api.hpp"

#include "cute_dsl/jit/driver.hpp"

#include <dlfcn.h>

#include <mutex>
#include <string>

namespace cute_dsl::jit::detail {

namespace {

template <class F>
bool resolve(void* handle, const char* name, F& out) {
  out = reinterpret_cast<F>(dlsym(handle, name));
  return out != nullptr;
}

struct ApiState {
  DriverApi api;
  Expected<const DriverApi*, JitError> result = unexpected(JitError{});
};

ApiState& api_state() {
  static ApiState s;
  static std::once_flag once;
  std::call_once(once, [] {
    auto info = load_driver();
    if (!info) {
      s.result = unexpected(info.error());
      return;
    }
    if (info->device_count == 0) {
      s.result = unexpected(JitError{JitErrorKind::no_device, "the CUDA driver reports no device: cannot load or launch",
                                     {}, {}, "compiling works without a GPU; loading and launching need one"});
      return;
    }
    // RTLD_NOLOAD: the handle load_driver() opened (reference counted, so this leaks nothing).
    void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    DriverApi& a = s.api;
    // The _v2 names are what cuda.h maps the plain ones to; cuLaunchKernelEx needs CUDA 12.0.
    const bool ok = h && resolve(h, "cuGetErrorName", a.get_error_name) && resolve(h, "cuDeviceGet", a.device_get) &&
                    resolve(h, "cuDevicePrimaryCtxRetain", a.primary_ctx_retain) &&
                    resolve(h, "cuCtxGetCurrent", a.ctx_get_current) &&
                    resolve(h, "cuCtxSetCurrent", a.ctx_set_current) &&
                    resolve(h, "cuModuleLoadData", a.module_load_data) &&
                    resolve(h, "cuModuleUnload", a.module_unload) &&
                    resolve(h, "cuModuleGetFunction", a.module_get_function) &&
                    resolve(h, "cuFuncGetAttribute", a.func_get_attribute) &&
                    resolve(h, "cuFuncSetAttribute", a.func_set_attribute) &&
                    resolve(h, "cuLaunchKernelEx", a.launch_kernel_ex) && resolve(h, "cuCtxGetDevice", a.ctx_get_device);
    // Optional entry points: a missing one disables its feature only (see loaded_kernel.cpp).
    if (ok) {
      const bool library = resolve(h, "cuLibraryLoadData", a.library_load_data) &&
                           resolve(h, "cuLibraryUnload", a.library_unload) &&
                           resolve(h, "cuLibraryGetKernel", a.library_get_kernel) &&
                           resolve(h, "cuKernelGetFunction", a.kernel_get_function);
      if (!library) a.library_load_data = nullptr;
      resolve(h, "cuFuncGetParamInfo", a.func_get_param_info);
    }
    if (!ok) {
      s.result = unexpected(JitError{JitErrorKind::no_driver,
                                     "the CUDA driver lacks an entry point loading needs (cuLaunchKernelEx, ...)",
                                     {}, {}, "launching needs a driver for CUDA 12.0 or later"});
      return;
    }
    s.result = static_cast<const DriverApi*>(&a);
  });
  return s;
}

}  // namespace

Expected<const DriverApi*, JitError> driver_api() { return api_state().result; }

void* driver_symbol(const char* name) {
  if (!driver_api()) return nullptr;
  static void* const handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);  // load_driver()'s
  return handle ? dlsym(handle, name) : nullptr;
}

JitError driver_error(const char* call, CuResult result) {
  const char* name = nullptr;
  const DriverApi& a = api_state().api;
  std::string what = (a.get_error_name && a.get_error_name(result, &name) == 0 && name) ? name : "CUresult";
  return JitError{JitErrorKind::driver,
                  std::string(call) + " failed: " + what + " (" + std::to_string(result) + ")", {}, {}, {}};
}

}  // namespace cute_dsl::jit::detail
