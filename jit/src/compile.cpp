// compile(): the stages of stages.cpp composed around the two-level cache, with the observers
// (dump, report, timing) told what each stage produced.
#include "cute_dsl/jit/compile.hpp"

#include "cute_dsl/jit/dump.hpp"
#include "cute_dsl/jit/log.hpp"
#include "cute_dsl/jit/stages.hpp"

#include "embedded_headers.hpp"
#include "env.hpp"
#include "request_fingerprint.hpp"
#include "stages_internal.hpp"

#include <nvrtc.h>

#include <chrono>

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

Expected<std::string, JitError> arch_for(const CompileOptions& o) {
  if (o.arch.empty() || o.arch == "auto") return auto_arch();
  return resolve_arch(o.arch);
}
}  // namespace detail

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

Hash128 request_fingerprint(const KernelSpec& spec, const CompileOptions& o) {
  const auto& a = detail::auto_arch();
  return detail::request_fingerprint(spec, o, a ? std::string_view(*a) : std::string_view());
}

Expected<KernelPtr, JitError> compile_with(const KernelSpec& spec, const CompileOptions& options,
                                           const Hash128& request, const Hash128* bulk_hash, KernelCache& cache,
                                           CompileReport* report);

}  // namespace

std::string nvrtc_version_string() {
  static const std::string v = [] {
    int major = 0, minor = 0;
    nvrtcVersion(&major, &minor);
    return std::to_string(major) + "." + std::to_string(minor);
  }();
  return v;
}

std::vector<std::string> cuda_include_dirs() { return detail::cuda_include_dirs(detail::read_environment()); }

Expected<KernelPtr, JitError> compile(const KernelSpec& spec, const CompileOptions& options, CompileReport* report) {
  return compile(spec, options, default_cache(), report);
}

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
                                           const Hash128& fingerprint, const Hash128* bulk_hash, KernelCache& cache,
                                           CompileReport* report) {
  // 1. Memory: the hot path. Allocates nothing, reads no clock and no environment (either can
  // cost more than the lookup), and builds a report (three strings) only for a caller that asked.
  // Dumps asked for through the API are written on memory hits too.
  if (KernelPtr hit = cache.find_in_memory(fingerprint, spec, bulk_hash)) {
    cache.count(CacheOutcome::memory_hit);
    if (report != nullptr || !options.dump.dir.empty()) {
      CompileReport local;
      CompileReport& rep = report ? *report : local;
      rep = CompileReport{};
      rep.outcome = CacheOutcome::memory_hit;
      if (!options.dump.dir.empty()) detail::observe_compile(spec, options, *hit, rep, options.dump, false);
    }
    return hit;
  }
  CompileReport local;
  CompileReport& rep = report ? *report : local;
  rep = CompileReport{};
  const auto start = Clock::now();
  const detail::Environment env = detail::read_environment();  // the one read of this compile
  const DumpOptions& dump = options.dump.dir.empty() ? env.dump : options.dump;

  // 2. Describe: validated spec, arch, source (after source hooks), options, content key.
  auto request = detail::describe_request(spec, options, env, !dump.dir.empty() && (dump.keep & keep_ptx));
  if (!request) return unexpected(request.error());
  rep.source_seconds = seconds_since(start);

  // 3. Disk.
  const auto lookup_start = Clock::now();
  KernelPtr disk_hit = cache.load_from_disk(request->key);
  rep.cache_lookup_seconds = seconds_since(lookup_start);
  if (disk_hit) {
    cache.insert_in_memory(fingerprint, spec, disk_hit);
    cache.count(CacheOutcome::disk_hit);
    rep.outcome = CacheOutcome::disk_hit;
    rep.total_seconds = seconds_since(start);
    rep.source = std::move(request->source);
    detail::observe_compile(spec, options, *disk_hit, rep, dump, env.time_profiling);
    return disk_hit;
  }
  if (env.print_source)
    log_requested(LogLevel::info, "source of " + request->name_expression + ":\n" + request->source);

  // 4. Front end (NVRTC), then back end (hooks, nvJitLink).
  auto front = run_front_end(*request, spec);
  if (!front) return unexpected(detail::observe_failure(front.error(), *request, dump));
  rep.nvrtc_seconds = front->seconds;
  std::string lowered_name = front->lowered_name;
  auto back = run_back_end(*request, std::move(*front), options);
  if (!back) return unexpected(back.error());
  rep.link_seconds = back->seconds;
  rep.ptx_seconds = back->ptx_seconds;

  auto kernel = std::make_shared<CompiledKernel>();
  kernel->key = request->key;
  kernel->name_expression = request->name_expression;
  kernel->arch = request->arch;
  kernel->output = options.output;
  kernel->lowered_name = std::move(lowered_name);
  kernel->binary = std::move(back->binary);
  kernel->log = std::move(back->log);

  // 5. Store: disk first (best effort), then memory.
  const auto store_start = Clock::now();
  cache.store_on_disk(*kernel);
  rep.disk_write_seconds = seconds_since(store_start);
  cache.insert_in_memory(fingerprint, spec, kernel);
  cache.count(CacheOutcome::miss);
  rep.outcome = CacheOutcome::miss;
  rep.total_seconds = seconds_since(start);
  rep.source = std::move(request->source);
  rep.ptx = std::move(back->ptx);
  detail::observe_compile(spec, options, *kernel, rep, dump, env.time_profiling);
  return KernelPtr(std::move(kernel));
}

}  // namespace

}  // namespace cute_dsl::jit
