// The link stage and DeviceLibrary; see link.hpp and device_library.hpp.
#include "link.hpp"

#include "cute_dsl/jit/device_library.hpp"

#include <nvJitLink.h>

#include <fstream>
#include <sstream>

namespace cute_dsl::jit {

DeviceLibrary::DeviceLibrary(std::string name, std::string bytes)
    : name_(std::move(name)), bytes_(std::make_shared<const std::string>(std::move(bytes))), hash_(hash128(*bytes_)) {}

Expected<DeviceLibrary, JitError> DeviceLibrary::from_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return unexpected(JitError{JitErrorKind::io, "cannot read device library '" + path + "'", {}, {}, {}});
  std::ostringstream bytes;
  bytes << in.rdbuf();
  const auto slash = path.find_last_of('/');
  return DeviceLibrary(slash == std::string::npos ? path : path.substr(slash + 1), std::move(bytes).str());
}

namespace detail {

namespace {

std::string nvjitlink_version() {
  static const std::string v = [] {
    unsigned major = 0, minor = 0;
    nvJitLinkVersion(&major, &minor);
    return std::to_string(major) + "." + std::to_string(minor);
  }();
  return v;
}

// nvJitLink's size-then-get pairs, once: the bytes, without a trailing NUL for text.
template <class SizeFn, class GetFn>
bool read_bytes(nvJitLinkHandle h, SizeFn size_fn, GetFn get_fn, std::string& out, bool text) {
  std::size_t size = 0;
  if (size_fn(h, &size) != NVJITLINK_SUCCESS) return false;
  out.assign(size, '\0');
  if (size > 0 && get_fn(h, out.data()) != NVJITLINK_SUCCESS) return false;
  if (text && !out.empty() && out.back() == '\0') out.pop_back();
  return true;
}

std::string read_log(nvJitLinkHandle h, bool errors) {
  std::string log;
  const bool ok = errors ? read_bytes(h, nvJitLinkGetErrorLogSize, nvJitLinkGetErrorLog, log, true)
                         : read_bytes(h, nvJitLinkGetInfoLogSize, nvJitLinkGetInfoLog, log, true);
  return ok ? log : std::string();
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
  return out;
}

}  // namespace

bool uses_linker(const CompileOptions& o) {
  return o.output == OutputKind::cubin && (o.lto || !o.device_libraries.empty());
}

std::vector<std::string> link_options(const CompileOptions& o, const std::string& arch) {
  return link_options(o, arch, o.lto);
}

std::vector<std::string> link_options(const CompileOptions& o, const std::string& arch, bool lto_input) {
  std::vector<std::string> args{"-arch=" + arch};
  if (lto_input) {
    // -lto only with LTO-IR from NVRTC: with nothing to optimise, nvJitLink fails ("no module").
    // Unused variables: without it nvJitLink keeps every __device__/__constant__ variable, since
    // the host might look one up by name; a JIT kernel's host side never does.
    args.insert(args.end(), {"-lto", "-optimize-unused-variables"});
    args.push_back(o.opt_level == 0 ? "-O0" : "-O3");  // nvJitLink accepts only these two
    if (o.fast_math) args.insert(args.end(), {"-ftz=1", "-prec-div=0", "-prec-sqrt=0", "-fma=1"});
  }
  args.push_back("-Xptxas=-O" + std::to_string(o.opt_level));
  if (o.line_info) args.push_back("-lineinfo");
  if (o.max_registers > 0) args.push_back("-maxrregcount=" + std::to_string(o.max_registers));
  // Our cache is the one cache: nvJitLink's own would make cold-compile figures depend on history.
  args.push_back("-no-cache");
  return args;
}

void add_link_key(Hasher& key, const CompileOptions& o, const std::string& arch) {
  key.add(std::string_view("nvJitLink")).add(nvjitlink_version());
  const auto args = link_options(o, arch);
  key.add(static_cast<std::uint64_t>(args.size()));
  for (const auto& a : args) key.add(a);
  key.add(static_cast<std::uint64_t>(o.device_libraries.size()));
  for (const auto& lib : o.device_libraries) key.add(lib.content_hash());
}

namespace {

// One nvJitLink run: `code` then the device libraries; the CUBIN, or with `ptx` the LTO's PTX.
Expected<std::string, JitError> run_link(std::string_view code, bool lto_input, bool ptx, const CompileOptions& o,
                                         const std::string& arch, const std::string& what, std::string* log) {
  auto args = link_options(o, arch, lto_input);
  if (ptx) args.insert(args.begin() + 1, "-ptx");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  auto fail = [&](std::string message, std::string details, std::string hint = {}) {
    return unexpected(JitError{JitErrorKind::link, std::move(message), std::move(details), join(args), std::move(hint)});
  };
  nvJitLinkHandle h = nullptr;
  if (nvJitLinkResult r = nvJitLinkCreate(&h, static_cast<std::uint32_t>(argv.size()), argv.data());
      r != NVJITLINK_SUCCESS)
    return fail("nvJitLinkCreate failed (" + std::to_string(r) + ") for " + what, {},
                "nvJitLink " + nvjitlink_version() + " may not support " + arch);
  struct Destroy {
    nvJitLinkHandle* h;
    ~Destroy() { nvJitLinkDestroy(h); }
  } destroy{&h};

  // NVJITLINK_INPUT_ANY: nvJitLink tells LTO-IR, CUBIN, fatbin, PTX, objects and archives apart
  // by their contents, so callers need not name a kind.
  const std::string main_name = what + (lto_input ? " (LTO-IR)" : " (CUBIN or PTX)");
  nvJitLinkResult r = nvJitLinkAddData(h, NVJITLINK_INPUT_ANY, code.data(), code.size(), main_name.c_str());
  for (std::size_t i = 0; r == NVJITLINK_SUCCESS && i < o.device_libraries.size(); ++i) {
    const auto& lib = o.device_libraries[i];
    r = nvJitLinkAddData(h, NVJITLINK_INPUT_ANY, lib.bytes().data(), lib.bytes().size(), lib.name().c_str());
    if (r != NVJITLINK_SUCCESS)
      return fail("nvJitLink could not read device library '" + lib.name() + "' (" + std::to_string(r) + ")",
                  read_log(h, true),
                  "device libraries are LTO-IR, CUBIN, fatbin, PTX, host objects from nvcc -dc, or .a archives of "
                  "them, built for " + arch);
  }
  if (r == NVJITLINK_SUCCESS) r = nvJitLinkComplete(h);
  if (r != NVJITLINK_SUCCESS) {
    const std::string errors = read_log(h, true);
    std::string hint;
    for (const char* word : {"nresolved", "ndefined"})  // "Unresolved extern function", "undefined"
      if (errors.find(word) != std::string::npos)
        hint = "a function the kernel calls is defined in no device library: add one to CompileOptions::device_libraries";
    return fail("nvJitLink could not link " + what + " for " + arch + " (" + std::to_string(r) + ")", errors,
                std::move(hint));
  }
  if (log) {
    std::string info = read_log(h, false);
    if (!info.empty()) *log += (log->empty() || log->back() == '\n' ? "" : "\n") + info;
  }
  std::string out;
  const bool ok = ptx ? read_bytes(h, nvJitLinkGetLinkedPtxSize, nvJitLinkGetLinkedPtx, out, true)
                      : read_bytes(h, nvJitLinkGetLinkedCubinSize, nvJitLinkGetLinkedCubin, out, false);
  if (!ok) return fail(std::string(ptx ? "nvJitLinkGetLinkedPtx" : "nvJitLinkGetLinkedCubin") + " failed for " + what, {});
  return out;
}

}  // namespace

Expected<std::string, JitError> link_cubin(std::string_view code, bool lto_input, const CompileOptions& o,
                                           const std::string& arch, const std::string& what, std::string& log) {
  return run_link(code, lto_input, false, o, arch, what, &log);
}

Expected<std::string, JitError> link_ptx(std::string_view ltoir, const CompileOptions& o, const std::string& arch,
                                         const std::string& what) {
  return run_link(ltoir, true, true, o, arch, what, nullptr);
}

}  // namespace detail
}  // namespace cute_dsl::jit
