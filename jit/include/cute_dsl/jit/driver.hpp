// The CUDA driver, loaded at first use with dlopen("libcuda.so.1").
//
// Why not link it: a program that only compiles (the tool, a build step, CI) must start on a
// machine with no driver at all, and only a GPU step should report that it is missing. Why the
// versioned name: the toolkit's lib64/stubs/libcuda.so exists for linking only; it must never be
// taken for a driver. A stub or a broken install that loads but whose cuInit fails counts as
// "no usable driver", with the CUresult in the message.
#pragma once

#include "cute_dsl/jit/error.hpp"
#include "cute_dsl/jit/expected.hpp"

#include <string>

namespace cute_dsl::jit {

struct DriverInfo {
  int version = 0;       // cuDriverGetVersion, e.g. 13000
  int device_count = 0;
};

// Loads and initialises the driver once per process; later calls return the same answer.
Expected<DriverInfo, JitError> load_driver();

// "sm_90a" for the current device (device 0), or the reason there is none.
Expected<std::string, JitError> device_arch();

}  // namespace cute_dsl::jit
