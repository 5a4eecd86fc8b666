// Autotuning the Hopper GEMM (cute_dsl/jit/gemm_autotune.hpp): the table, the timing, the search.
#include "cute_dsl/jit/gemm_autotune.hpp"

#include "cute_dsl/jit/cache.hpp"
#include "cute_dsl/jit/detail/driver_api.hpp"
#include "cute_dsl/jit/log.hpp"
#include "cute_dsl/kernels/gemm_sm90_configs.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef CUTE_DSL_JIT_LIBRARY_VERSION
#  define CUTE_DSL_JIT_LIBRARY_VERSION "unknown"
#endif

namespace cute_dsl::jit {

namespace {

constexpr const char* kTableHeader = "cute_dsl gemm_sm90 autotune 1";
constexpr const char* kTableFile = "gemm_sm90_autotune.txt";

long long next_power_of_two(long long v) {
  long long p = 1;
  while (p < v) p *= 2;
  return p;
}

const char* major_letter(GemmMajor m) { return m == GemmMajor::k ? "K" : "M"; }

template <class F>
F driver_fn(const char* name) {
  return reinterpret_cast<F>(detail::driver_symbol(name));
}

// CUDA events through the JIT's driver: the time per launch of `launch`, averaged over `runs`
// launches after one untimed one.
template <class Launch>
Expected<double, JitError> time_launches(Launch&& launch, int runs, void* stream) {
  using Event = void*;
  static const auto create = driver_fn<detail::CuResult (*)(Event*, unsigned)>("cuEventCreate");
  static const auto record = driver_fn<detail::CuResult (*)(Event, void*)>("cuEventRecord");
  static const auto sync = driver_fn<detail::CuResult (*)(Event)>("cuEventSynchronize");
  static const auto elapsed = driver_fn<detail::CuResult (*)(float*, Event, Event)>("cuEventElapsedTime");
  static const auto destroy = driver_fn<detail::CuResult (*)(Event)>("cuEventDestroy_v2");
  if (!create || !record || !sync || !elapsed || !destroy)
    return unexpected(JitError{JitErrorKind::no_driver, "the driver lacks the cuEvent* entry points", {}, {}, {}});
  Event start = nullptr, stop = nullptr;
  if (auto r = create(&start, 0); r != 0) return unexpected(detail::driver_error("cuEventCreate", r));
  if (auto r = create(&stop, 0); r != 0) {
    destroy(start);
    return unexpected(detail::driver_error("cuEventCreate", r));
  }
  Expected<double, JitError> result = 0.0;
  if (auto first = launch(); !first) result = unexpected(first.error());
  for (int i = 0; result && i <= runs; ++i) {
    if (i == 0) record(start, stream);
    if (i == runs) break;
    if (auto r = launch(); !r) result = unexpected(r.error());
  }
  if (result) {
    record(stop, stream);
    float ms = 0;
    if (auto r = sync(stop); r != 0) result = unexpected(detail::driver_error("cuEventSynchronize", r));
    else if (auto e = elapsed(&ms, start, stop); e != 0) result = unexpected(detail::driver_error("cuEventElapsedTime", e));
    else result = double(ms) / runs;
  }
  destroy(start);
  destroy(stop);
  return result;
}

std::string default_table_path() {
  const CacheConfig& c = default_cache().config();
  if (!c.use_disk || c.dir.empty()) return {};
  return c.dir + "/" + kTableFile;
}

}  // namespace

std::string gemm_shape_class(int m, int n, int k, int l) {
  std::string s = "m";  // appended piece by piece: GCC 12 warns on "literal" + std::string&& (bug 105329)
  s += std::to_string(next_power_of_two(m));
  s += " n";
  s += std::to_string(next_power_of_two(n));
  s += " k";
  s += std::to_string(next_power_of_two(k));
  s += l > 1 ? " lN" : " l1";
  return s;
}

std::string gemm_sm90_tuning_key(const GemmSm90Types& t, int m, int n, int k, int l, const std::string& device_name) {
  std::string device = device_name;
  for (char& c : device)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return std::string(to_string(t.a)) + ">" + std::string(to_string(t.d)) + " " + major_letter(t.a_major) +
         major_letter(t.b_major) + " " + gemm_shape_class(m, n, k, l) + " | " + device + " | " +
         CUTE_DSL_JIT_LIBRARY_VERSION;
}

// ---- the table ------------------------------------------------------------------------------

std::string GemmTuningTable::serialize() const {
  std::ostringstream out;
  out << kTableHeader << '\n';
  for (const auto& [key, row] : rows_) {
    const GemmSm90Config& c = row.config;
    out << key << '\t' << c.tile_m << ' ' << c.tile_n << ' ' << c.stages << ' ' << c.cluster_m << ' ' << (c.ping_pong ? 1 : 0) << '\t'
        << row.ms << '\n';
  }
  return out.str();
}

std::optional<GemmTuningTable> GemmTuningTable::parse(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != kTableHeader) return std::nullopt;
  GemmTuningTable table;
  while (std::getline(in, line)) {
    const auto tab1 = line.find('\t');
    const auto tab2 = tab1 == std::string::npos ? tab1 : line.find('\t', tab1 + 1);
    // A damaged row is skipped, not the whole table: the next store would wipe the good rows.
    auto skip = [&] { log(LogLevel::warn, "skipping a damaged GEMM tuning table row: " + line); };
    if (tab2 == std::string::npos || tab1 == 0) {
      skip();
      continue;
    }
    std::istringstream fields(line.substr(tab1 + 1, tab2 - tab1 - 1) + " " + line.substr(tab2 + 1));
    Row row;
    int ping_pong = -1;
    std::string rest;
    if (!(fields >> row.config.tile_m >> row.config.tile_n >> row.config.stages >> row.config.cluster_m >> ping_pong >> row.ms) ||
        (fields >> rest) || (ping_pong != 0 && ping_pong != 1) || !(row.ms >= 0)) {
      skip();
      continue;
    }
    row.config.ping_pong = ping_pong == 1;
    // A row the kernel cannot build is damage too (a hand edit, a table from another version).
    if (!gemm_sm90_unsupported(GemmSm90Types{}, row.config).empty()) {
      skip();
      continue;
    }
    table.rows_[line.substr(0, tab1)] = row;
  }
  return table;
}

GemmTuningTable GemmTuningTable::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream text;
  text << in.rdbuf();
  if (auto table = parse(text.str())) return *table;
  log(LogLevel::warn, "ignoring the damaged GEMM tuning table " + path + " (rewritten at the next store)");
  GemmTuningTable empty;
  empty.damaged_ = true;
  return empty;
}

const GemmTuningTable::Row* GemmTuningTable::find(const std::string& key) const {
  const auto it = rows_.find(key);
  return it == rows_.end() ? nullptr : &it->second;
}

bool GemmTuningTable::save(const std::string& path) const {
  // A name of its own per call (mkstemp), so that two threads or processes never share one, and
  // fsync before the rename, so that a crash leaves the old table or the new one, never a torn one.
  std::string tmp = path + ".tmp.XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) return false;
  ::fchmod(fd, 0644);  // mkstemp makes it 0600; the table was world-readable before
  const std::string text = serialize();
  bool ok = true;
  for (std::size_t done = 0; ok && done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) done += static_cast<std::size_t>(n);
  }
  ok = ok && ::fsync(fd) == 0;
  ok = ::close(fd) == 0 && ok;
  if (!ok) {
    std::remove(tmp.c_str());
    return false;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

namespace {

// An exclusive flock on a side file, released (with the descriptor) on destruction. A side file,
// not the table: save() renames a new file over the table, so a process waiting for a lock on the
// table's old inode would get it on a file no longer at that path and read a stale table.
class TableLock {
 public:
  explicit TableLock(const std::string& table_path) {
    const std::string lock_path = table_path + ".lock";
    // O_RDONLY is enough for flock, and works on a lock file another user created.
    fd_ = ::open(lock_path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) {
      why_ = "cannot open " + lock_path + ": " + std::strerror(errno);
      return;
    }
    int r;
    while ((r = ::flock(fd_, LOCK_EX)) != 0 && errno == EINTR) {
    }
    if (r != 0) {
      why_ = "cannot lock " + lock_path + ": " + std::strerror(errno);
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~TableLock() {
    if (fd_ >= 0) ::close(fd_);  // closing the only descriptor releases the lock
  }
  TableLock(const TableLock&) = delete;
  TableLock& operator=(const TableLock&) = delete;
  bool held() const { return fd_ >= 0; }
  const std::string& why_not() const { return why_; }

 private:
  int fd_ = -1;
  std::string why_;
};

}  // namespace

bool GemmTuningTable::update(const std::string& path, const std::string& key, const Row& row) {
  const TableLock lock(path);
  // Without the lock (a folder we cannot create files in, a file system without flock) the store
  // is still atomic, only no longer safe against another process's store at the same moment.
  if (!lock.held()) log(LogLevel::info, "GEMM tuning table stored without a lock: " + lock.why_not());
  GemmTuningTable table = load(path);  // under the lock: every store before ours is in it
  table.set(key, row);
  return table.save(path);
}

// ---- the search -----------------------------------------------------------------------------

GemmSm90Config gemm_sm90_config(int tile_n, int stages, int cluster_m, bool ping_pong, int tile_m) {
  GemmSm90Config c;
  c.tile_m = tile_m;
  c.tile_n = tile_n;
  c.stages = stages;
  c.cluster_m = cluster_m;
  c.ping_pong = ping_pong;
  return c;
}

std::vector<GemmSm90Config> gemm_sm90_default_candidates() {
  // The nvcc launcher's variants (kernels/gemm_sm90_configs.hpp), the same table, but the swapped
  // ones (swap_ab): the JIT's launch does not swap A and B.
  std::vector<GemmSm90Config> configs;
  for (const kernels::GemmSm90Config& c : kernels::kGemmSm90Configs)
    if (!c.swap_ab) configs.push_back(gemm_sm90_config(c.tile_n, c.stages, c.cluster_m, c.ping_pong, c.tile_m));
  return configs;
}

Expected<std::string, JitError> current_device_name() {
  auto api = detail::driver_api();
  if (!api) return unexpected(api.error());
  int device = 0;
  if ((*api)->ctx_get_device(&device) != 0) {
    if (auto r = use_device(0); !r) return unexpected(r.error());
    if (auto r = (*api)->ctx_get_device(&device); r != 0) return unexpected(detail::driver_error("cuCtxGetDevice", r));
  }
  static const auto get_name = driver_fn<detail::CuResult (*)(char*, int, int)>("cuDeviceGetName");
  char name[256] = {};
  if (!get_name) return unexpected(JitError{JitErrorKind::no_driver, "the driver has no cuDeviceGetName", {}, {}, {}});
  if (auto r = get_name(name, sizeof name - 1, device); r != 0) return unexpected(detail::driver_error("cuDeviceGetName", r));
  return std::string(name);
}

Expected<GemmTuneResult, JitError> autotune_gemm_sm90(const GemmSm90Types& types, const GemmSm90Arguments& args,
                                                      const GemmTuneOptions& options) {
  if (options.runs < 1)  // else the average divides by zero and the table gets "nan"
    return unexpected(JitError{JitErrorKind::invalid_option,
                               "autotune_gemm_sm90: runs must be at least 1, got " + std::to_string(options.runs), {}, {},
                               "GemmTuneOptions::runs is the number of timed launches per candidate"});
  auto device = current_device_name();
  if (!device) return unexpected(device.error());
  const std::string key = gemm_sm90_tuning_key(types, args.m, args.n, args.k, args.l, *device);
  const std::string path = options.table_path.empty() ? default_table_path() : options.table_path;

  if (!options.retune && !path.empty()) {
    const GemmTuningTable table = GemmTuningTable::load(path);
    if (const GemmTuningTable::Row* row = table.find(key)) {
      auto gemm = GemmSm90Jit::create(types, row->config, options.compile);
      if (!gemm) return unexpected(gemm.error());
      return GemmTuneResult{std::move(*gemm), true, key, path, {}};
    }
  }

  // Compile every buildable candidate at once (worker processes), then time each in turn.
  std::vector<GemmSm90Config> candidates;
  for (const GemmSm90Config& c : options.candidates.empty() ? gemm_sm90_default_candidates() : options.candidates)
    if (gemm_sm90_unsupported(types, c).empty()) candidates.push_back(c);
  if (candidates.empty())
    return unexpected(JitError{JitErrorKind::invalid_option, "autotune_gemm_sm90: no candidate config is buildable", {}, {}, {}});
  std::vector<KernelSpec> specs;
  for (const GemmSm90Config& c : candidates) specs.push_back(gemm_sm90_spec(types, c));
  const std::vector<WarmupItemResult> compiled = warmup(specs, options.compile, options.warmup);

  std::vector<std::pair<GemmSm90Config, double>> timings;
  std::optional<std::size_t> best;
  JitError last_error{JitErrorKind::invalid_option, "autotune_gemm_sm90: no candidate ran", {}, {}, {}};
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (!compiled[i].kernel) {
      last_error = compiled[i].kernel.error();
      continue;
    }
    auto loaded = load(**compiled[i].kernel);
    if (!loaded) {
      last_error = loaded.error();
      continue;
    }
    auto ms = time_launches([&] { return launch_gemm_sm90(*loaded, types, candidates[i], args, options.stream); },
                            options.runs, options.stream);
    if (!ms) {
      last_error = ms.error();
      continue;
    }
    log(LogLevel::info, "autotune " + to_string(candidates[i]) + ": " + std::to_string(*ms) + " ms");
    timings.emplace_back(candidates[i], *ms);
    if (!best || *ms < timings[*best].second) best = timings.size() - 1;
  }
  if (!best) return unexpected(last_error);

  const GemmSm90Config winner = timings[*best].first;
  std::string stored_path;
  if (!path.empty()) {
    // Read again under the table's lock: other processes may have stored meanwhile, or store now.
    if (GemmTuningTable::update(path, key, {winner, timings[*best].second})) stored_path = path;
    else log(LogLevel::warn, "cannot write the GEMM tuning table " + path);
  }
  auto gemm = GemmSm90Jit::create(types, winner, options.compile);  // a memory-cache hit
  if (!gemm) return unexpected(gemm.error());
  return GemmTuneResult{std::move(*gemm), false, key, stored_path, std::move(timings)};
}

}  // namespace cute_dsl::jit
