// The link stage (link.cpp): NVRTC's output -> nvJitLink -> CUBIN, used when CompileOptions ask
// for link-time optimisation or name device libraries. Internal to the library.
#pragma once

#include "cute_dsl/jit/error.hpp"
#include "cute_dsl/jit/expected.hpp"
#include "cute_dsl/jit/hash.hpp"
#include "cute_dsl/jit/options.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace cute_dsl::jit::detail {

// True when a compile with `o` goes through nvJitLink: CUBIN output with LTO or device libraries.
bool uses_linker(const CompileOptions& o);

// nvJitLink's options for `o` (arch resolved): -arch, -lto when NVRTC emitted LTO-IR,
// -optimize-unused-variables, -O, and the code-generation options NVRTC no longer applies.
// `lto_input` false: the input is PTX or a CUBIN even though `o.lto` is set (a hook changed the PTX).
std::vector<std::string> link_options(const CompileOptions& o, const std::string& arch);
std::vector<std::string> link_options(const CompileOptions& o, const std::string& arch, bool lto_input);

// Adds to a content key what the link stage changes: nvJitLink's version, its options and the
// device libraries' content hashes (never their names or paths).
void add_link_key(Hasher& key, const CompileOptions& o, const std::string& arch);

// Links `code` (NVRTC's LTO-IR when `lto_input`, else its relocatable CUBIN or PTX) with
// o.device_libraries into a CUBIN. `what` names the kernel in messages; nvJitLink's warnings are
// appended to `log`.
Expected<std::string, JitError> link_cubin(std::string_view code, bool lto_input, const CompileOptions& o,
                                           const std::string& arch, const std::string& what, std::string& log);

// The PTX that LTO makes of `ltoir` (and o.device_libraries): nvJitLink with -lto -ptx, no ptxas.
// The PTX a linked CUBIN's ptxas compiles, for PTX hooks and dumps.
Expected<std::string, JitError> link_ptx(std::string_view ltoir, const CompileOptions& o, const std::string& arch,
                                         const std::string& what);

}  // namespace cute_dsl::jit::detail
