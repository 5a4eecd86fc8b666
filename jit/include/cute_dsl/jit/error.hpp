// JitError: what went wrong in one step of the pipeline, with everything needed to act on it.
#pragma once

#include "cute_dsl/config.hpp"  // first: the C++20 check

#include <string>
#include <string_view>

namespace cute_dsl::jit {

enum class JitErrorKind {
  invalid_spec,     // the kernel description is malformed (bad template argument, empty name)
  invalid_option,   // an option or environment variable has a value we cannot use
  missing_headers,  // CUDA's headers were needed but not found
  compile,          // NVRTC rejected the source
  nvrtc,            // an NVRTC call failed outside compilation proper
  link,             // nvJitLink rejected the kernel or a device library
  hook,             // a user hook (hooks.hpp) rejected the kernel or failed
  no_driver,        // libcuda.so.1 could not be loaded or cuInit failed
  no_device,        // the driver works but there is no device
  driver,           // a Driver API call failed
  cache,            // the disk cache could not be used (reported, then degraded)
  io,               // reading a file the user named
};

std::string_view to_string(JitErrorKind kind);

struct JitError {
  JitErrorKind kind = JitErrorKind::compile;
  std::string message;  // one line: what failed
  std::string log;      // compiler messages, already mapped to the user's files; may be empty
  std::string options;  // the NVRTC options used, space-separated; may be empty
  std::string hint;     // what to do about it, when we can tell; may be empty

  // All of the above as one readable block (what the tool prints and what(), were it thrown).
  std::string describe() const;
};

}  // namespace cute_dsl::jit
