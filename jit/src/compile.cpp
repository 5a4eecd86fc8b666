// The compile step: KernelSpec + CompileOptions -> CompiledKernel, through the two-level cache.
#include "cute_dsl/jit/compile.hpp"

#include "cute_dsl/jit/dump.hpp"
#include "cute_dsl/jit/log.hpp"

#include "build_config.hpp"
#include "embedded_headers.hpp"
#include "env.hpp"
#include "link.hpp"
#include "request_fingerprint.hpp"

#include <nvrtc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <sstream>

#ifndef CUTE_DSL_JIT_LIBRARY_VERSION
#  define CUTE_DSL_JIT_LIBRARY_VERSION "unknown"
#endif

namespace cute_dsl::jit {

namespace detail {
const Hash128& embedded_headers_hash() {
  static const Hash128 h = [] {
    Hasher hasher;
    hasher.add(static_cast<std::uint64_t>(kEmbeddedHeaderCount));
    for (std::size_t i = 0; i < kEmbeddedHeaderCount; ++i)
      hasher.add(kEmbeddedHeaders[i].name).add(kEmbeddedHeaders[i].contents);
    return hasher.finish();
  }();
  return h;
}

// "auto" is resolved once per process: the device and CUTE_DSL_ARCH do not change under us, and
// the memory-cache lookup must not query the driver or build strings.
const Expected<std::string, JitError>& auto_arch() {
  static const Expected<std::string, JitError> arch = resolve_arch("auto");
  return arch;
}
}  // namespace detail

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

bool env_flag(const char* name) { return detail::env_bool(name); }

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
  return out;
}

Expected<std::string, JitError> arch_for(const CompileOptions& o) {
  if (o.arch.empty() || o.arch == "auto") return detail::auto_arch();
  return resolve_arch(o.arch);
}

Hash128 request_fingerprint(const KernelSpec& spec, const CompileOptions& o) {
  const auto& a = detail::auto_arch();
  return detail::request_fingerprint(spec, o, a ? std::string_view(*a) : std::string_view());
}

JitError nvrtc_error(const char* call, nvrtcResult r) {
  return JitError{JitErrorKind::nvrtc, std::string(call) + " failed: " + nvrtcGetErrorString(r), {}, {}, {}};
}

// Each diagnostic "name(line): error: ..." is rewritten to the path the header was read from.
// NVRTC itself follows it with the one source line and a caret; nothing else of the source is
// printed.
std::string map_log(const std::string& log, const KernelSpec& spec) {
  std::istringstream in(log);
  std::string out, line;
  while (std::getline(in, line)) {
    const auto open = line.find('(');
    const auto close = line.find("): ");
    if (open != std::string::npos && close != std::string::npos && open < close) {
      const std::string name = line.substr(0, open);
      char* end = nullptr;
      const long number = std::strtol(line.c_str() + open + 1, &end, 10);
      if (end == line.c_str() + close && number > 0) {
        std::string shown = name;
        for (const auto& h : spec.headers)
          if (h.name == name && !h.origin.empty()) shown = h.origin;
        out += shown + line.substr(open) + "\n";
        continue;
      }
    }
    out += line + "\n";
  }
  return out;
}

std::string hint_for(const std::string& log, const std::string& arch) {
  const bool missing = log.find("open source file") != std::string::npos;  // "cannot"/"could not"
  if (missing && (log.find("source file \"cuda") != std::string::npos || log.find("source file \"nv/") != std::string::npos))
  {
    std::string where = "the toolkit found when the library was built";
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
      if (const char* v = std::getenv(var); v && *v) {
        where = std::string(var) + "=" + v;
        break;
      }
    return "CUDA's headers were not found (looked in " + where + "): set CUDA_HOME (or CUDA_PATH) to a CUDA toolkit folder";
  }
  if (missing)
    return "headers are found among the library's own (embedded) and KernelSpec::headers only: add the missing "
           "one to KernelSpec::headers (the tool: --include FILE)";
  if (log.find("gpu-architecture") != std::string::npos || log.find("-arch") != std::string::npos)
    return "arch " + arch + " is not accepted by this NVRTC (" + nvrtc_version_string() + ")";
  if (log.find("name expression") != std::string::npos || log.find("no instance of") != std::string::npos)
    return "check the kernel's name and its template arguments against the template's declaration";
  return {};
}

}  // namespace

std::string nvrtc_version_string() {
  static const std::string v = [] {
    int major = 0, minor = 0;
    nvrtcVersion(&major, &minor);
    return std::to_string(major) + "." + std::to_string(minor);
  }();
  return v;
}

std::vector<std::string> cuda_include_dirs() {
  namespace fs = std::filesystem;
  std::vector<std::string> roots;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* v = std::getenv(var); v && *v) roots.push_back(std::string(v) + "/include");
  if (roots.empty())
    for (const char* const* d = detail::kBuildCudaIncludeDirs; *d; ++d) roots.push_back(*d);
  std::vector<std::string> dirs;
  std::error_code ec;
  for (const auto& r : roots) {
    if (!fs::exists(fs::path(r) / "cuda_fp16.h", ec)) continue;
    dirs.push_back(r);
    if (fs::is_directory(fs::path(r) / "cccl", ec)) dirs.push_back(r + "/cccl");
  }
  return dirs;
}

std::string generate_source(const KernelSpec& spec) {
  std::string src = "// Generated by CuteDSL's JIT; the instantiation is named to NVRTC: " + spec.name_expression() + "\n";
  std::vector<std::string_view> seen;
  for (const auto& a : spec.template_args) {
    const auto h = a.required_header();
    if (h.empty() || std::find(seen.begin(), seen.end(), h) != seen.end()) continue;
    seen.push_back(h);
    src += "#include <" + std::string(h) + ">\n";
  }
  if (!spec.header.empty()) {
    src += "#include \"" + spec.header + "\"\n";
  } else {
    src += "#line 1 \"" + spec.source_name + "\"\n";
    src += spec.source;
    if (!spec.source.empty() && spec.source.back() != '\n') src += '\n';
  }
  return src;
}

Expected<KernelPtr, JitError> compile(const KernelSpec& spec, const CompileOptions& options, CompileReport* report) {
  return compile(spec, options, default_cache(), report);
}

namespace {
Expected<KernelPtr, JitError> compile_with(const KernelSpec& spec, const CompileOptions& options,
                                           const Hash128& request, const Hash128* bulk_hash, KernelCache& cache,
                                           CompileReport* report);
}  // namespace

Expected<KernelPtr, JitError> compile(const KernelSpec& spec, const CompileOptions& options, KernelCache& cache,
                                      CompileReport* report) {
  // The memory level is keyed by a hash of the request, computed in place (no strings).
  return compile_with(spec, options, request_fingerprint(spec, options), nullptr, cache, report);
}

PreparedSpec prepare(KernelSpec spec, CompileOptions options) {
  const Hash128 fingerprint = request_fingerprint(spec, options);
  const Hash128 bulk = detail::bulk_hash(spec);
  return PreparedSpec{std::move(spec), std::move(options), fingerprint, bulk};
}

Expected<KernelPtr, JitError> compile(const PreparedSpec& prepared, KernelCache& cache, CompileReport* report) {
  return compile_with(prepared.spec, prepared.options, prepared.fingerprint, &prepared.bulk_hash, cache, report);
}

namespace {
Expected<KernelPtr, JitError> compile_with(const KernelSpec& spec, const CompileOptions& options,
                                           const Hash128& request, const Hash128* bulk_hash, KernelCache& cache,
                                           CompileReport* report) {
  CompileReport local;
  CompileReport& rep = report ? *report : local;
  rep = CompileReport{};

  // 1. Memory: the hot path. Allocates nothing and reads no clock (a clock read can cost more
  // than the lookup on a virtual machine).
  if (KernelPtr hit = cache.find_in_memory(request, spec, bulk_hash)) {
    cache.count(CacheOutcome::memory_hit);
    rep.outcome = CacheOutcome::memory_hit;
    // Dumps asked for through the API are written on memory hits too; CUTE_DSL_DUMP_DIR's were
    // written when the kernel entered memory (reading the environment here would cost more than
    // the lookup).
    if (!options.dump.dir.empty()) detail::dump_after_compile(spec, options, *hit, rep);
    return hit;
  }
  const auto start = Clock::now();

  // 2. Validate and describe the work.
  if (spec.kernel.empty())
    return unexpected(JitError{JitErrorKind::invalid_spec, "KernelSpec::kernel is empty", {}, {}, {}});
  if (!is_kernel_name(spec.kernel))
    return unexpected(JitError{JitErrorKind::invalid_spec, "KernelSpec::kernel '" + spec.kernel.substr(0, 80) +
                               (spec.kernel.size() > 80 ? "...'" : "'") + " is not a kernel name such as ns::scale",
                               {}, {}, "template arguments go in KernelSpec::template_args (--targs)"});
  if (spec.header.empty() == spec.source.empty())
    return unexpected(JitError{JitErrorKind::invalid_spec, "a KernelSpec needs exactly one of `header` and `source`",
                               {}, {}, {}});
  auto arch = arch_for(options);
  if (!arch) return unexpected(arch.error());
  auto args = nvrtc_options(options, *arch);
  if (!args) return unexpected(args.error());
  const std::string source = generate_source(spec);
  const std::string name_expression = spec.name_expression();

  // 3. The content key: everything that can change the output, nothing that names this machine.
  Hasher key_hasher;
  key_hasher.add(std::string_view("cute_dsl.jit.key")).add(static_cast<std::uint64_t>(kDiskFormatVersion));
  key_hasher.add(std::string_view(CUTE_DSL_JIT_LIBRARY_VERSION)).add(nvrtc_version_string());
  key_hasher.add(source).add(name_expression).add(*arch).add(detail::embedded_headers_hash());
  key_hasher.add(static_cast<std::uint64_t>(spec.headers.size()));
  for (const auto& h : spec.headers) key_hasher.add(h.name).add(h.contents);
  for (const auto& a : *args) key_hasher.add(a);
  if (detail::uses_linker(options)) detail::add_link_key(key_hasher, options, *arch);
  const Hash128 key = key_hasher.finish();
  rep.source_seconds = seconds_since(start);

  // 4. Disk.
  const auto lookup_start = Clock::now();
  KernelPtr disk_hit = cache.load_from_disk(key);
  rep.cache_lookup_seconds = seconds_since(lookup_start);
  if (disk_hit) {
    cache.insert_in_memory(request, spec, disk_hit);
    cache.count(CacheOutcome::disk_hit);
    rep.outcome = CacheOutcome::disk_hit;
    rep.total_seconds = seconds_since(start);
    detail::report_compile(spec, options, *disk_hit, rep);
    return disk_hit;
  }
  if (env_flag("CUTE_DSL_PRINT_SOURCE"))
    log_requested(LogLevel::info, "source of " + name_expression + ":\n" + source);

  // 5. NVRTC.
  const auto nvrtc_start = Clock::now();
  std::vector<const char*> header_names, header_texts;
  for (const auto& h : spec.headers) {
    header_names.push_back(h.name.c_str());
    header_texts.push_back(h.contents.c_str());
  }
  for (std::size_t i = 0; i < detail::kEmbeddedHeaderCount; ++i) {
    header_names.push_back(detail::kEmbeddedHeaders[i].name.data());  // NUL-terminated literals
    header_texts.push_back(detail::kEmbeddedHeaders[i].contents.data());
  }
  const std::string program_name = spec.header.empty() ? spec.source_name : "cute_dsl_jit_instance.cu";
  nvrtcProgram program = nullptr;
  if (nvrtcResult r = nvrtcCreateProgram(&program, source.c_str(), program_name.c_str(),
                                         static_cast<int>(header_names.size()), header_texts.data(),
                                         header_names.data());
      r != NVRTC_SUCCESS)
    return unexpected(nvrtc_error("nvrtcCreateProgram", r));
  struct Destroy {
    nvrtcProgram* p;
    ~Destroy() { nvrtcDestroyProgram(p); }
  } destroy{&program};

  std::vector<std::string> full_args = *args;
  const auto cuda_dirs = cuda_include_dirs();
  for (const auto& d : cuda_dirs) full_args.push_back("-I" + d);
  std::vector<const char*> argv;
  for (const auto& a : full_args) argv.push_back(a.c_str());

  if (nvrtcResult r = nvrtcAddNameExpression(program, name_expression.c_str()); r != NVRTC_SUCCESS)
    return unexpected(nvrtc_error("nvrtcAddNameExpression", r));
  const nvrtcResult compiled = nvrtcCompileProgram(program, static_cast<int>(argv.size()), argv.data());

  std::string log;
  std::size_t log_size = 0;
  if (nvrtcGetProgramLogSize(program, &log_size) == NVRTC_SUCCESS && log_size > 1) {
    log.resize(log_size);
    nvrtcGetProgramLog(program, log.data());
    log.resize(log_size - 1);
  }
  if (compiled != NVRTC_SUCCESS) {
    JitError e{JitErrorKind::compile,
               "NVRTC could not compile " + name_expression + " for " + *arch + " (" + nvrtcGetErrorString(compiled) + ")",
               map_log(log, spec),
               join(*args), hint_for(log, *arch)};
    // With a dump folder set, the failing source is kept there and the error says where.
    if (const std::string dumped = detail::dump_failed_source(spec, options, name_expression, key); !dumped.empty()) {
      if (!e.log.empty() && e.log.back() != '\n') e.log += '\n';
      e.log += "generated source: " + dumped + "\n";
    }
    return unexpected(std::move(e));
  }

  auto kernel = std::make_shared<CompiledKernel>();
  kernel->key = key;
  kernel->name_expression = name_expression;
  kernel->arch = *arch;
  kernel->output = options.output;
  kernel->log = std::move(log);
  const char* lowered = nullptr;
  if (nvrtcResult r = nvrtcGetLoweredName(program, name_expression.c_str(), &lowered); r != NVRTC_SUCCESS || !lowered)
    return unexpected(nvrtc_error("nvrtcGetLoweredName", r));
  kernel->lowered_name = lowered;

  std::size_t size = 0;
  if (detail::uses_linker(options)) {  // LTO-IR or a relocatable CUBIN, then nvJitLink (link.cpp)
    const bool ltoir = options.lto;
    if (nvrtcResult r = ltoir ? nvrtcGetLTOIRSize(program, &size) : nvrtcGetCUBINSize(program, &size); r != NVRTC_SUCCESS)
      return unexpected(nvrtc_error(ltoir ? "nvrtcGetLTOIRSize" : "nvrtcGetCUBINSize", r));
    std::string code(size, '\0');
    if (nvrtcResult r = ltoir ? nvrtcGetLTOIR(program, code.data()) : nvrtcGetCUBIN(program, code.data()); r != NVRTC_SUCCESS)
      return unexpected(nvrtc_error(ltoir ? "nvrtcGetLTOIR" : "nvrtcGetCUBIN", r));
    const auto link_start = Clock::now();
    auto linked = detail::link_cubin(code, options, *arch, name_expression, kernel->log);
    rep.link_seconds = seconds_since(link_start);
    if (!linked) return unexpected(linked.error());
    kernel->binary = std::move(linked).value();
  } else if (options.output == OutputKind::cubin) {
    if (nvrtcResult r = nvrtcGetCUBINSize(program, &size); r != NVRTC_SUCCESS)
      return unexpected(nvrtc_error("nvrtcGetCUBINSize", r));
    kernel->binary.resize(size);
    if (nvrtcResult r = nvrtcGetCUBIN(program, kernel->binary.data()); r != NVRTC_SUCCESS)
      return unexpected(nvrtc_error("nvrtcGetCUBIN", r));
  } else {
    if (nvrtcResult r = nvrtcGetPTXSize(program, &size); r != NVRTC_SUCCESS)
      return unexpected(nvrtc_error("nvrtcGetPTXSize", r));
    kernel->binary.resize(size);
    if (nvrtcResult r = nvrtcGetPTX(program, kernel->binary.data()); r != NVRTC_SUCCESS)
      return unexpected(nvrtc_error("nvrtcGetPTX", r));
    if (!kernel->binary.empty() && kernel->binary.back() == '\0') kernel->binary.pop_back();
  }
  rep.nvrtc_seconds = seconds_since(nvrtc_start) - rep.link_seconds;

  // 6. Store: disk first (best effort), then memory.
  const auto store_start = Clock::now();
  cache.store_on_disk(*kernel);
  rep.disk_write_seconds = seconds_since(store_start);
  cache.insert_in_memory(request, spec, kernel);
  cache.count(CacheOutcome::miss);
  rep.outcome = CacheOutcome::miss;
  rep.total_seconds = seconds_since(start);
  detail::report_compile(spec, options, *kernel, rep);
  return KernelPtr(std::move(kernel));
}
}  // namespace

}  // namespace cute_dsl::jit
