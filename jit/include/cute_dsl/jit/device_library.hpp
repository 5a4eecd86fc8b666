// DeviceLibrary: device code that nvJitLink links into a JIT kernel (a function the kernel calls
// but does not define).
//
// Accepted: whatever nvJitLink recognises by its contents: LTO-IR, CUBIN (relocatable, from
// `nvcc -dc -cubin`), fatbin, PTX, host objects from `nvcc -dc` (with or without -dlto) and `.a`
// archives of those. Why by content, not by file name: the bytes are what the linker reads, and
// the cache key is their hash, never the path (as for headers: docs/design/jit.md).
#pragma once

#include "cute_dsl/jit/error.hpp"
#include "cute_dsl/jit/expected.hpp"
#include "cute_dsl/jit/hash.hpp"

#include <memory>
#include <string>
#include <string_view>

namespace cute_dsl::jit {

class DeviceLibrary {
 public:
  // `name` appears in linker messages only. The content hash is computed here, once, so that
  // hashing options (each compile() call without a PreparedSpec) never rereads the bytes.
  DeviceLibrary(std::string name, std::string bytes);

  // Reads a file; the library is named by the file's name.
  static Expected<DeviceLibrary, JitError> from_file(const std::string& path);

  const std::string& name() const { return name_; }
  std::string_view bytes() const { return *bytes_; }
  const Hash128& content_hash() const { return hash_; }

 private:
  std::string name_;
  std::shared_ptr<const std::string> bytes_;  // shared: options are copied freely
  Hash128 hash_;
};

}  // namespace cute_dsl::jit
