// warmup(): a batch of compiles spread over worker processes (or threads), then loaded from the
// disk cache into memory. The request file and the workers' reports use one framing: each
// string as "<size>:<bytes>", so that any byte may appear in a header or an error log.
#include "cute_dsl/jit/warmup.hpp"

#include "cute_dsl/jit/log.hpp"

#include "build_config.hpp"
#include "embedded_headers.hpp"
#include "request_fingerprint.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>

extern char** environ;

namespace cute_dsl::jit {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kRequestMagic = "cute_dsl.warmup.1";

// ---- framing ---------------------------------------------------------------------------------
void put(std::string& out, std::string_view s) {
  out += std::to_string(s.size());
  out += ':';
  out += s;
}
void put(std::string& out, long long v) { put(out, std::to_string(v)); }

struct Reader {
  std::string_view in;
  bool ok = true;
  std::string str() {
    const auto colon = in.find(':');
    if (!ok || colon == std::string_view::npos) return ok = false, std::string();
    const unsigned long long n = std::strtoull(std::string(in.substr(0, colon)).c_str(), nullptr, 10);
    if (in.size() - colon - 1 < n) return ok = false, std::string();
    std::string s(in.substr(colon + 1, n));
    in.remove_prefix(colon + 1 + n);
    return s;
  }
  long long num() { return std::strtoll(str().c_str(), nullptr, 10); }
};

void put_spec(std::string& out, const KernelSpec& s) {
  put(out, s.header);
  put(out, s.source);
  put(out, s.source_name);
  put(out, s.kernel);
  put(out, static_cast<long long>(s.template_args.size()));
  for (const auto& a : s.template_args) {
    put(out, a.cpp());
    put(out, a.required_header());
  }
  put(out, static_cast<long long>(s.headers.size()));
  for (const auto& h : s.headers) {
    put(out, h.name);
    put(out, h.contents);
    put(out, h.origin);
  }
}

KernelSpec get_spec(Reader& r) {
  KernelSpec s;
  s.header = r.str();
  s.source = r.str();
  s.source_name = r.str();
  s.kernel = r.str();
  for (long long n = r.num(); r.ok && n-- > 0;) {
    std::string cpp = r.str();
    const std::string header = r.str();
    s.template_args.push_back(TemplateArg::restore(std::move(cpp), header));
  }
  for (long long n = r.num(); r.ok && n-- > 0;) {
    InMemoryHeader h;
    h.name = r.str();
    h.contents = r.str();
    h.origin = r.str();
    s.headers.push_back(std::move(h));
  }
  return s;
}

void put_options(std::string& out, const CompileOptions& o) {
  put(out, o.arch);
  put(out, static_cast<long long>(o.opt_level));
  put(out, static_cast<long long>(o.line_info | o.device_asserts << 1 | o.fast_math << 2 | o.lto << 3));
  put(out, static_cast<long long>(o.max_registers));
  put(out, static_cast<long long>(o.output));
  for (const auto* list : {&o.defines, &o.extra_options}) {
    put(out, static_cast<long long>(list->size()));
    for (const auto& d : *list) put(out, d);
  }
  put(out, static_cast<long long>(o.device_libraries.size()));
  for (const auto& lib : o.device_libraries) {
    put(out, lib.name());
    put(out, lib.bytes());
  }
}

CompileOptions get_options(Reader& r) {
  CompileOptions o;
  o.arch = r.str();
  o.opt_level = static_cast<int>(r.num());
  const long long flags = r.num();
  o.line_info = flags & 1;
  o.device_asserts = flags & 2;
  o.fast_math = flags & 4;
  o.lto = flags & 8;
  o.max_registers = static_cast<int>(r.num());
  o.output = static_cast<OutputKind>(r.num());
  for (auto* list : {&o.defines, &o.extra_options})
    for (long long n = r.num(); r.ok && n-- > 0;) list->push_back(r.str());
  for (long long n = r.num(); r.ok && n-- > 0;) {
    std::string name = r.str();
    o.device_libraries.emplace_back(std::move(name), r.str());
  }
  return o;
}

void put_error(std::string& out, const JitError& e) {
  put(out, static_cast<long long>(e.kind));
  put(out, e.message);
  put(out, e.log);
  put(out, e.options);
  put(out, e.hint);
}

JitError get_error(Reader& r) {
  JitError e;
  e.kind = static_cast<JitErrorKind>(r.num());
  e.message = r.str();
  e.log = r.str();
  e.options = r.str();
  e.hint = r.str();
  return e;
}

// ---- the batch -------------------------------------------------------------------------------
struct Progress {
  bool on;
  std::size_t total;
  std::atomic<std::size_t> started{0};
  void item(const KernelSpec& s) {
    const std::size_t k = ++started;
    if (on) log_requested(LogLevel::info, "compiling " + std::to_string(k) + "/" + std::to_string(total) + ": " + s.name_expression());
  }
};

int worker_count(const WarmupOptions& w, std::size_t items) {
  int n = w.workers > 0 ? w.workers : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(n), std::max<std::size_t>(items, 1)));
}

void compile_with_threads(std::span<const KernelSpec> specs, const CompileOptions& options, int threads,
                          KernelCache& cache, Progress& progress, std::vector<WarmupItemResult>& results) {
  std::atomic<std::size_t> next{0};
  auto run = [&] {
    for (std::size_t i; (i = next++) < specs.size();) {
      progress.item(specs[i]);
      CompileReport report;
      auto k = compile(specs[i], options, cache, &report);
      results[i] = WarmupItemResult{std::move(k), report.outcome, false};
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(run);
  run();
  for (auto& t : pool) t.join();
}

struct Worker {
  pid_t pid = -1;
  int out = -1;  // read end of its stdout
  std::string buffer;
};

// Parses the complete records at the front of `w.buffer`: "S" index (started) or "R" index,
// status ("compiled", "hit", "error") and, for an error, the JitError.
void take_records(Worker& w, std::span<const KernelSpec> specs, Progress& progress,
                  std::vector<int>& state, std::vector<std::optional<JitError>>& errors) {
  for (;;) {
    Reader frame{w.buffer};
    const std::string record = frame.str();
    if (!frame.ok) return;
    w.buffer.erase(0, w.buffer.size() - frame.in.size());
    Reader r{record};
    const std::string tag = r.str();
    const long long i = r.num();
    if (!r.ok || i < 0 || static_cast<std::size_t>(i) >= specs.size()) continue;
    if (tag == "S") {
      progress.item(specs[static_cast<std::size_t>(i)]);
    } else if (tag == "R") {
      const std::string status = r.str();
      state[static_cast<std::size_t>(i)] = status == "compiled" ? 1 : status == "hit" ? 2 : 3;
      if (status == "error") errors[static_cast<std::size_t>(i)] = get_error(r);
    }
  }
}

// Runs the workers; returns false (having logged why) when none could start. state[i]: 0 no
// report, 1 compiled by a worker, 2 found on disk by a worker, 3 failed (errors[i]).
bool compile_with_workers(std::span<const KernelSpec> specs, const CompileOptions& worker_options,
                          const std::string& worker, int count, const KernelCache& cache, Progress& progress,
                          std::vector<int>& state, std::vector<std::optional<JitError>>& errors) {
  std::string request;
  put(request, kRequestMagic);
  put(request, detail::embedded_headers_hash().hex());  // the worker must key entries as we do
  put(request, cache.config().dir);
  put(request, static_cast<long long>(cache.config().max_bytes));
  put_options(request, worker_options);
  put(request, static_cast<long long>(specs.size()));
  for (const auto& s : specs) put_spec(request, s);
  const std::string request_path =
      cache.config().dir + "/warmup." + std::to_string(::getpid()) + "." + std::to_string(reinterpret_cast<std::uintptr_t>(&state)) + ".req";
  {
    std::ofstream f(request_path, std::ios::binary | std::ios::trunc);
    f.write(request.data(), static_cast<std::streamsize>(request.size()));
    if (!f) {
      log(LogLevel::info, "warmup: cannot write " + request_path + "; compiling with threads");
      return false;
    }
  }
  std::vector<Worker> workers;
  for (int w = 0; w < count; ++w) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) break;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    const std::string index = std::to_string(w), total = std::to_string(count);
    char* argv[] = {const_cast<char*>(worker.c_str()), const_cast<char*>(request_path.c_str()),
                    const_cast<char*>(index.c_str()), const_cast<char*>(total.c_str()), nullptr};
    pid_t pid = -1;
    const int started = ::posix_spawn(&pid, worker.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    if (started != 0) {
      ::close(fds[0]);
      log(LogLevel::warn, "warmup: cannot start " + worker + " (" + std::strerror(started) + "); compiling with threads");
      break;
    }
    workers.push_back(Worker{pid, fds[0], {}});
  }
  if (static_cast<int>(workers.size()) < count) {  // all or nothing: the stripes assume `count`
    for (auto& w : workers) {
      ::close(w.out);
      ::waitpid(w.pid, nullptr, 0);
    }
    ::unlink(request_path.c_str());
    return false;
  }
  for (std::size_t open = workers.size(); open > 0;) {
    std::vector<pollfd> fds;
    for (const auto& w : workers)
      if (w.out >= 0) fds.push_back(pollfd{w.out, POLLIN, 0});
    if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR) {
      log(LogLevel::warn, std::string("warmup: poll failed: ") + std::strerror(errno) + "; waiting for the workers");
      break;
    }
    for (auto& w : workers) {
      if (w.out < 0) continue;
      const auto it = std::find_if(fds.begin(), fds.end(), [&](const pollfd& p) { return p.fd == w.out; });
      if (it == fds.end() || it->revents == 0) continue;
      char buf[65536];
      const ssize_t n = ::read(w.out, buf, sizeof buf);
      if (n > 0) {
        w.buffer.append(buf, static_cast<std::size_t>(n));
        take_records(w, specs, progress, state, errors);
      } else if (n == 0 || errno != EINTR) {
        ::close(w.out);
        w.out = -1;
        --open;
      }
    }
  }
  // After a poll() failure some read ends are still open: close them, or a worker blocked on a
  // full pipe never exits and waitpid waits for ever (it dies of SIGPIPE instead).
  for (auto& w : workers)
    if (w.out >= 0) ::close(std::exchange(w.out, -1));
  for (auto& w : workers) {
    int status = 0;
    while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {}
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
      log(LogLevel::warn, "warmup: a worker (" + worker + ") ended with status " +
                              std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                              "; its unfinished items compile here");
  }
  ::unlink(request_path.c_str());
  return true;
}

bool executable(const std::string& p) { return !p.empty() && ::access(p.c_str(), X_OK) == 0; }

}  // namespace

// The worker of the installed package that the program was built against: defined in the program
// by a source that the installed CuteDSLConfig.cmake generates (on CuteDSL::jit's INTERFACE_SOURCES),
// where the package's prefix is known, wherever it was moved. Weak: absent from the build tree's
// programs and from programs built without the CMake package.
extern "C" __attribute__((weak)) const char* cute_dsl_jit_installed_worker_path();

std::string find_warmup_worker(const WarmupOptions& w) {
  if (!w.worker_path.empty()) return executable(w.worker_path) ? w.worker_path : std::string();
  if (const char* env = std::getenv("CUTE_DSL_JIT_WORKER"); env && *env) return executable(env) ? env : std::string();
  constexpr std::string_view name = "cute-dsl-jit-worker";
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&warmup_worker_main), &info) && info.dli_fname) {
    const fs::path dir = fs::absolute(fs::path(info.dli_fname)).parent_path();
    for (const fs::path& candidate : {dir / name, dir / ".." / "bin" / name, dir / ".." / "libexec" / name})
      if (executable(candidate.string())) return candidate.string();
  }
  if (cute_dsl_jit_installed_worker_path != nullptr)
    if (const char* installed = cute_dsl_jit_installed_worker_path(); installed && executable(installed)) return installed;
  return executable(detail::kBuildWorkerPath) ? std::string(detail::kBuildWorkerPath) : std::string();
}

std::vector<WarmupItemResult> warmup(std::span<const KernelSpec> specs, const CompileOptions& options,
                                     const WarmupOptions& warmup_options) {
  return warmup(specs, options, warmup_options, default_cache());
}

std::vector<WarmupItemResult> warmup(std::span<const KernelSpec> specs, const CompileOptions& options,
                                     const WarmupOptions& warmup_options, KernelCache& cache) {
  std::vector<WarmupItemResult> results;
  results.reserve(specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i)
    results.push_back(WarmupItemResult{unexpected(JitError{JitErrorKind::compile, "not compiled", {}, {}, {}}),
                                       CacheOutcome::miss, false});
  if (specs.empty()) return results;
  Progress progress{warmup_options.progress, specs.size()};
  const int count = worker_count(warmup_options, specs.size());

  // Workers need the disk (their only way back) and a resolved arch (they may see no GPU).
  std::string why_not;
  std::string worker;
  auto arch = options.arch.empty() || options.arch == "auto" ? detail::auto_arch() : resolve_arch(options.arch);
  if (!warmup_options.use_processes) why_not = "WarmupOptions::use_processes is false";
  else if (!cache.disk_enabled()) why_not = "the disk cache is off";
  else if (!arch) why_not = "the arch does not resolve";
  else if (!options.hooks.empty()) why_not = "hooks are C++ callbacks, which worker processes cannot run";
  else if ((worker = find_warmup_worker(warmup_options)).empty())
    why_not = "no cute-dsl-jit-worker program was found (set CUTE_DSL_JIT_WORKER or WarmupOptions::worker_path)";

  std::vector<int> state(specs.size(), 0);
  std::vector<std::optional<JitError>> errors(specs.size());
  bool workers_ran = false;
  if (why_not.empty()) {
    CompileOptions worker_options = options;
    worker_options.arch = *arch;
    log(LogLevel::info, "warmup: " + std::to_string(specs.size()) + " kernels in " + std::to_string(count) +
                            " worker processes (" + worker + ")");
    workers_ran = compile_with_workers(specs, worker_options, worker, count, cache, progress, state, errors);
  } else {
    // Asked for processes and not getting them is worth a warning: warmup is then slower.
    log(warmup_options.use_processes ? LogLevel::warn : LogLevel::info,
        "warmup: compiling with " + std::to_string(count) + " threads in this process: " + why_not);
  }
  if (!workers_ran) {
    compile_with_threads(specs, options, count, cache, progress, results);
    return results;
  }
  // From disk into memory, through compile() itself (so that the memory key is the caller's).
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (state[i] == 3) {
      results[i].kernel = unexpected(std::move(*errors[i]));
      continue;
    }
    CompileReport report;
    results[i].kernel = compile(specs[i], options, cache, &report);
    results[i].by_worker = state[i] == 1;
    results[i].outcome = report.outcome == CacheOutcome::memory_hit ? CacheOutcome::memory_hit
                         : state[i] == 2                           ? CacheOutcome::disk_hit
                                                                   : CacheOutcome::miss;
  }
  return results;
}

int warmup_worker_main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s REQUEST_FILE INDEX COUNT (started by cute_dsl::jit::warmup)\n", argv[0]);
    return 2;
  }
  ::unsetenv("CUTE_DSL_DUMP_DIR");  // the parent dumps when it takes the entries from disk
  std::ifstream f(argv[1], std::ios::binary);
  std::ostringstream text;
  text << f.rdbuf();
  const std::string bytes = text.str();
  Reader r{bytes};
  if (r.str() != kRequestMagic) {
    std::fprintf(stderr, "cute-dsl-jit-worker: %s is not a warmup request of this version\n", argv[1]);
    return 2;
  }
  if (r.str() != detail::embedded_headers_hash().hex()) {
    std::fprintf(stderr, "cute-dsl-jit-worker: built with other CuteDSL headers than the program that started it "
                         "(its cache keys would differ); rebuild it, or point CUTE_DSL_JIT_WORKER at the matching one\n");
    return 3;
  }
  CacheConfig config;
  config.use_disk = true;
  config.dir = r.str();
  config.max_bytes = static_cast<std::uint64_t>(r.num());
  const CompileOptions options = get_options(r);
  const long long n = r.num();
  std::vector<KernelSpec> specs;
  for (long long i = 0; r.ok && i < n; ++i) specs.push_back(get_spec(r));
  if (!r.ok) {
    std::fprintf(stderr, "cute-dsl-jit-worker: %s is truncated\n", argv[1]);
    return 2;
  }
  const long long index = std::atoll(argv[2]), count = std::max(1LL, std::atoll(argv[3]));
  KernelCache cache(config);
  auto send = [](const std::string& record) {
    std::string frame;
    put(frame, record);
    std::fwrite(frame.data(), 1, frame.size(), stdout);
    std::fflush(stdout);
  };
  for (long long i = index; i < n; i += count) {
    std::string started;
    put(started, "S");
    put(started, i);
    send(started);
    CompileReport report;
    auto k = compile(specs[static_cast<std::size_t>(i)], options, cache, &report);
    std::string done;
    put(done, "R");
    put(done, i);
    if (k) {
      put(done, report.outcome == CacheOutcome::miss ? "compiled" : "hit");
    } else {
      put(done, "error");
      put_error(done, k.error());
    }
    send(done);
  }
  return 0;
}

}  // namespace cute_dsl::jit
