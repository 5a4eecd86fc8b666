// The Driver API entry points that loading and launching need, resolved from the dlopen'ed
// libcuda.so.1 (see driver.hpp for why it is never linked).
//
// Why public (in detail/): PreparedLaunch::launch() is inline so that a launch is exactly one
// call through a function pointer, with no library call in between. Why hand-declared types: an
// installed copy must compile without cuda.h; the layouts below are the ABI of CUDA 12.0+
// (CUlaunchConfig, CUlaunchAttribute), which NVIDIA keeps stable.
#pragma once

#include "cute_dsl/jit/error.hpp"
#include "cute_dsl/jit/expected.hpp"

#include <cstddef>

namespace cute_dsl::jit::detail {

using CuResult = int;
using CuContext = void*;
using CuModule = void*;
using CuFunction = void*;
using CuLibrary = void*;
using CuKernel = void*;
using CuStream = void*;

// CUlaunchAttribute: an int id, padding to 8, a 64-byte value union.
struct CuLaunchAttribute {
  int id = 0;
  char pad[4] = {};
  union Value {
    char bytes[64];
    struct {
      unsigned x, y, z;
    } dim;
  } value{};
};
static_assert(sizeof(CuLaunchAttribute) == 72);

struct CuLaunchConfig {
  unsigned grid_x = 1, grid_y = 1, grid_z = 1;
  unsigned block_x = 1, block_y = 1, block_z = 1;
  unsigned shared_bytes = 0;
  CuStream stream = nullptr;
  CuLaunchAttribute* attrs = nullptr;
  unsigned num_attrs = 0;
};

constexpr int kLaunchAttributeClusterDimension = 4;     // CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
constexpr int kFuncAttributeMaxDynamicSharedBytes = 8;  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES

struct DriverApi {
  CuResult (*get_error_name)(CuResult, const char**) = nullptr;
  CuResult (*device_get)(int*, int) = nullptr;
  CuResult (*primary_ctx_retain)(CuContext*, int) = nullptr;
  CuResult (*ctx_get_current)(CuContext*) = nullptr;
  CuResult (*ctx_set_current)(CuContext) = nullptr;
  CuResult (*module_load_data)(CuModule*, const void*) = nullptr;
  CuResult (*module_unload)(CuModule) = nullptr;
  CuResult (*module_get_function)(CuFunction*, CuModule, const char*) = nullptr;
  CuResult (*func_get_attribute)(int*, int, CuFunction) = nullptr;
  CuResult (*func_set_attribute)(CuFunction, int, int) = nullptr;
  CuResult (*launch_kernel_ex)(const CuLaunchConfig*, CuFunction, void**, void**) = nullptr;
  CuResult (*ctx_get_device)(int*) = nullptr;
  // Optional: null when the driver predates them (checked where used).
  // cuLibraryLoadData (12.0): image, JIT options (n, keys, values), library options (n, keys, values).
  CuResult (*library_load_data)(CuLibrary*, const void*, void*, void**, unsigned, void*, void**, unsigned) = nullptr;
  CuResult (*library_unload)(CuLibrary) = nullptr;
  CuResult (*library_get_kernel)(CuKernel*, CuLibrary, const char*) = nullptr;
  CuResult (*kernel_get_function)(CuFunction*, CuKernel) = nullptr;
  CuResult (*func_get_param_info)(CuFunction, std::size_t, std::size_t*, std::size_t*) = nullptr;  // 12.4
};

// The table, once the driver loaded and every entry point resolved; else why not (no driver,
// a driver older than CUDA 12, no device).
Expected<const DriverApi*, JitError> driver_api();

// Any other entry point of the same driver by its exported name ("cuTensorMapEncodeTiled",
// "cuEventRecord", ...): for host code beside the JIT (a kernel's tensor maps, timing) that must
// not link libcuda either. Null when driver_api() fails or the driver lacks the name.
void* driver_symbol(const char* name);

// "cuLaunchKernelEx failed: CUDA_ERROR_INVALID_VALUE (1)": the call and the CUresult's name.
JitError driver_error(const char* call, CuResult result);

}  // namespace cute_dsl::jit::detail
