// Loads libcuda.so.1 with dlopen at first use; see driver.hpp for why.
#include "cute_dsl/jit/driver.hpp"

#include <dlfcn.h>

#include <mutex>

namespace cute_dsl::jit {

namespace {

// The few Driver API entry points we call, declared by hand: the real cuda.h would tempt a
// direct (link-time) reference. CUresult is an int-sized enum; CUdevice an int.
using CuResult = int;
using CuInit = CuResult (*)(unsigned);
using CuDriverGetVersion = CuResult (*)(int*);
using CuDeviceGetCount = CuResult (*)(int*);
using CuDeviceGet = CuResult (*)(int*, int);
using CuDeviceGetAttribute = CuResult (*)(int*, int, int);
using CuGetErrorName = CuResult (*)(CuResult, const char**);

constexpr int kAttrComputeCapabilityMajor = 75;  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int kAttrComputeCapabilityMinor = 76;

struct Driver {
  void* handle = nullptr;
  CuInit init = nullptr;
  CuDriverGetVersion get_version = nullptr;
  CuDeviceGetCount get_count = nullptr;
  CuDeviceGet device_get = nullptr;
  CuDeviceGetAttribute get_attribute = nullptr;
  CuGetErrorName error_name = nullptr;
};

std::string result_name(const Driver& d, CuResult r) {
  const char* name = nullptr;
  if (d.error_name && d.error_name(r, &name) == 0 && name) return std::string(name) + " (" + std::to_string(r) + ")";
  return "CUresult " + std::to_string(r);
}

template <class F>
bool resolve(void* handle, const char* name, F& out) {
  out = reinterpret_cast<F>(dlsym(handle, name));
  return out != nullptr;
}

struct LoadState {
  Driver driver;
  Expected<DriverInfo, JitError> result = unexpected(JitError{});
};

LoadState& state() {
  static LoadState s;
  static std::once_flag once;
  std::call_once(once, [] {
    auto fail = [](JitErrorKind kind, std::string message, std::string hint) {
      return Expected<DriverInfo, JitError>(unexpected(JitError{kind, std::move(message), {}, {}, std::move(hint)}));
    };
    Driver& d = s.driver;
    d.handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!d.handle) {
      const char* why = dlerror();
      s.result = fail(JitErrorKind::no_driver,
                      std::string("the CUDA driver (libcuda.so.1) could not be loaded: ") + (why ? why : "unknown reason"),
                      "this machine has no NVIDIA driver; compiling works without one, loading and launching do not");
      return;
    }
    if (!resolve(d.handle, "cuInit", d.init) || !resolve(d.handle, "cuDriverGetVersion", d.get_version) ||
        !resolve(d.handle, "cuDeviceGetCount", d.get_count) || !resolve(d.handle, "cuDeviceGet", d.device_get) ||
        !resolve(d.handle, "cuDeviceGetAttribute", d.get_attribute)) {
      s.result = fail(JitErrorKind::no_driver, "libcuda.so.1 lacks the Driver API entry points (cuInit, ...)",
                      "the library found is not a CUDA driver");
      return;
    }
    resolve(d.handle, "cuGetErrorName", d.error_name);
    // The toolkit's stub library loads and then fails here (CUDA_ERROR_STUB_LIBRARY), as does a
    // driver whose kernel module is missing: both mean "no usable driver".
    if (const CuResult r = d.init(0); r != 0) {
      s.result = fail(JitErrorKind::no_driver, "cuInit failed: " + result_name(d, r) + ": no usable CUDA driver",
                      r == 34 ? "libcuda.so.1 is the toolkit's stub (lib64/stubs), not a driver: remove it from "
                                "LD_LIBRARY_PATH"
                              : "check that the NVIDIA kernel module is loaded (nvidia-smi)");
      return;
    }
    DriverInfo info;
    d.get_version(&info.version);
    if (const CuResult r = d.get_count(&info.device_count); r != 0) {
      s.result = fail(JitErrorKind::driver, "cuDeviceGetCount failed: " + result_name(d, r), {});
      return;
    }
    s.result = info;
  });
  return s;
}

}  // namespace

Expected<DriverInfo, JitError> load_driver() { return state().result; }

Expected<std::string, JitError> device_arch() {
  auto info = load_driver();
  if (!info) return unexpected(info.error());
  if (info->device_count == 0)
    return unexpected(JitError{JitErrorKind::no_device, "the CUDA driver reports no device", {}, {}, {}});
  const Driver& d = state().driver;
  int device = 0, major = 0, minor = 0;
  if (const CuResult r = d.device_get(&device, 0); r != 0)
    return unexpected(JitError{JitErrorKind::driver, "cuDeviceGet(0) failed: " + result_name(d, r), {}, {}, {}});
  d.get_attribute(&major, kAttrComputeCapabilityMajor, device);
  d.get_attribute(&minor, kAttrComputeCapabilityMinor, device);
  std::string arch = "sm_" + std::to_string(major) + std::to_string(minor);
  // Hopper and later have arch-specific instructions (wgmma, tcgen05) only under the 'a' target;
  // a CUBIN is built for exactly this device anyway, so nothing is lost.
  if (major >= 9) arch += 'a';
  return arch;
}

}  // namespace cute_dsl::jit
