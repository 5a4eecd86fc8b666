#include "cute_dsl/jit/options.hpp"

#include "cute_dsl/jit/driver.hpp"

#include "link.hpp"

#include <nvrtc.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace cute_dsl::jit {

namespace {

JitError option_error(std::string message, std::string hint = {}) {
  return JitError{JitErrorKind::invalid_option, std::move(message), {}, {}, std::move(hint)};
}

std::vector<int> supported_archs() {
  int n = 0;
  std::vector<int> archs;
  if (nvrtcGetNumSupportedArchs(&n) == NVRTC_SUCCESS && n > 0) {
    archs.resize(static_cast<std::size_t>(n));
    if (nvrtcGetSupportedArchs(archs.data()) != NVRTC_SUCCESS) archs.clear();
  }
  return archs;
}

std::string supported_list() {
  std::string out;
  for (int a : supported_archs()) out += (out.empty() ? "sm_" : ", sm_") + std::to_string(a);
  return out;
}

// "sm_90a", "90a", "compute_90a", "SM_90A" -> "sm_90a"; empty when malformed.
std::string normalize_arch(std::string a) {
  std::transform(a.begin(), a.end(), a.begin(), [](unsigned char c) { return std::tolower(c); });
  if (a.starts_with("sm_")) a = a.substr(3);
  else if (a.starts_with("compute_")) a = a.substr(8);
  std::size_t digits = 0;
  while (digits < a.size() && std::isdigit(static_cast<unsigned char>(a[digits]))) ++digits;
  if (digits < 2 || digits > 3) return {};
  const std::string suffix = a.substr(digits);
  if (!suffix.empty() && suffix != "a" && suffix != "f") return {};
  return "sm_" + a;
}

}  // namespace

void CompileOptions::hash_into(Hasher& h) const {
  h.add(arch).add(opt_level).add(line_info).add(device_asserts).add(fast_math).add(max_registers);
  h.add(static_cast<std::uint64_t>(defines.size()));
  for (const auto& d : defines) h.add(d);
  h.add(static_cast<std::uint64_t>(extra_options.size()));
  for (const auto& o : extra_options) h.add(o);
  h.add(static_cast<int>(output)).add(lto);
  h.add(static_cast<std::uint64_t>(device_libraries.size()));
  for (const auto& lib : device_libraries) h.add(lib.content_hash());
  h.add(static_cast<std::uint64_t>(hooks.size()));
  for (const auto& k : hooks) h.add(k.name).add(k.version);
}

Expected<std::string, JitError> resolve_arch(const std::string& requested) {
  std::string source;  // where the arch came from, when not from the caller (CompileOptions, --arch)
  std::string arch = requested;
  if (arch.empty() || arch == "auto") {
    if (const char* env = std::getenv("CUTE_DSL_ARCH"); env && *env) {
      arch = env;
      source = " (from CUTE_DSL_ARCH)";
    } else {
      auto device = device_arch();
      if (!device)
        return unexpected(option_error(
            "arch 'auto' needs a GPU to detect: " + device.error().message,
            "name the target explicitly (CompileOptions::arch = \"sm_90a\", --arch sm_90a, or CUTE_DSL_ARCH=sm_90a); "
            "compiling needs no GPU"));
      return *device;
    }
  }
  const std::string normalized = normalize_arch(arch);
  if (normalized.empty())
    return unexpected(option_error("arch '" + arch + "'" + source + " is not of the form sm_90, sm_90a or sm_100f"));
  const int number = std::atoi(normalized.c_str() + 3);
  const auto archs = supported_archs();
  if (!archs.empty() && std::find(archs.begin(), archs.end(), number) == archs.end())
    return unexpected(option_error("arch '" + normalized + "'" + source + " is not supported by this NVRTC",
                                   "this NVRTC supports " + supported_list()));
  if (normalized.back() == 'a' && number < 90)
    return unexpected(option_error("arch '" + normalized + "': arch-specific ('a') targets start at sm_90a",
                                   "use sm_" + std::to_string(number)));
  return normalized;
}

Expected<std::vector<std::string>, JitError> nvrtc_options(const CompileOptions& o, const std::string& arch) {
  if (o.opt_level < 0 || o.opt_level > 3)
    return unexpected(option_error("opt_level " + std::to_string(o.opt_level) + " is outside 0..3"));
  if (o.max_registers < 0 || o.max_registers > 255)
    return unexpected(option_error("max_registers " + std::to_string(o.max_registers) + " is outside 0..255"));
  if (o.output == OutputKind::ptx && !o.device_libraries.empty())
    return unexpected(option_error("device libraries need CUBIN output (nvJitLink links CUBINs)",
                                   "compile to CUBIN, or link the PTX with the libraries yourself"));
  std::vector<std::string> args;
  args.push_back("-std=c++20");
  // PTX output names the virtual arch; CUBIN output the real one (SASS for exactly this arch).
  args.push_back(o.output == OutputKind::ptx ? "-arch=compute_" + arch.substr(3) : "-arch=" + arch);
  // Through nvJitLink (link.cpp): NVRTC stops at LTO-IR, or at a relocatable CUBIN that can call
  // into the libraries; ptxas runs in nvJitLink with its own copy of the code-generation options.
  const bool linked = detail::uses_linker(o);
  if (linked) args.push_back(o.lto ? "-dlto" : "-rdc=true");
  if (!(linked && o.lto)) args.push_back("-Xptxas=-O" + std::to_string(o.opt_level));
  // opt_level is ptxas's level. NVRTC has no switch that turns NVVM's optimizer off short of -G
  // (debug code): its `-dopt` takes only `on` (NVRTC 13 rejects `-dopt=off`), so 0 adds nothing here.
  if (o.line_info) args.push_back("-lineinfo");
  if (!o.device_asserts) args.push_back("-DNDEBUG");
  if (o.fast_math) args.push_back("-use_fast_math");
  if (o.max_registers > 0) args.push_back("-maxrregcount=" + std::to_string(o.max_registers));
  for (const auto& d : o.defines) {
    // NAME must be an identifier: "=5" or "1X" would reach NVRTC as a malformed -D.
    const std::string name = d.substr(0, d.find('='));
    const bool identifier = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
                            std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; });
    if (!identifier || d.find_first_of(" \t\n") != std::string::npos)
      return unexpected(option_error("define '" + d.substr(0, 80) + (d.size() > 80 ? "..." : "") +
                                     "' must be NAME or NAME=VALUE, NAME an identifier, without spaces"));
    args.push_back("-D" + d);
  }
  for (const auto& e : o.extra_options) args.push_back(e);
  return args;
}

}  // namespace cute_dsl::jit
