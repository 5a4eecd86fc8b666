// The memory and disk levels of the kernel cache. Concurrency between processes is a benign
// race: each writer compiles, writes its own uniquely named temporary file, fsyncs it and
// renames it over the final name. rename() is atomic, so a reader sees no file or a whole one;
// two writers of one key write identical bytes, so whichever rename lands last is as good as
// the first. Damage from outside (truncation, a crash of the storage, a foreign file) is caught
// by the checksums on load. See docs/design/jit.md for the options rejected.
#include "cute_dsl/jit/cache.hpp"

#include "cute_dsl/jit/log.hpp"

#include "atomic_file.hpp"
#include "env.hpp"
#include "request_fingerprint.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace cute_dsl::jit {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

std::string_view to_string(CacheOutcome o) {
  switch (o) {
    case CacheOutcome::memory_hit: return "memory hit";
    case CacheOutcome::disk_hit: return "disk hit";
    case CacheOutcome::miss: return "miss";
  }
  return "?";
}

CacheConfig CacheConfig::from_environment() {
  const detail::Environment env = detail::read_environment();
  CacheConfig c;
  if (env.cache_max_bytes) c.max_bytes = *env.cache_max_bytes;
  // The folder is named even when the disk cache is off: `cute-dsl cache` still inspects it.
  c.dir = env.cache_dir;
  c.use_disk = !c.dir.empty() && !env.disable_file_cache;
  return c;
}

KernelCache::KernelCache(CacheConfig config) : config_(std::move(config)) {
  if (!config_.use_disk) return;
  std::error_code ec;
  fs::create_directories(config_.dir, ec);
  if (!fs::is_directory(config_.dir, ec)) {
    disable_disk("cannot create the cache folder " + config_.dir + (ec ? ": " + ec.message() : ""));
    return;
  }
  if (::access(config_.dir.c_str(), W_OK) != 0) {
    disable_disk("the cache folder " + config_.dir + " is not writable: " + std::strerror(errno));
    return;
  }
  disk_usable_ = true;
}

void KernelCache::disable_disk(const std::string& why) {
  disk_usable_ = false;
  std::call_once(warned_, [&] {
    log(LogLevel::warn, why + "; compiled kernels are cached in memory only "
                             "(set CUTE_DSL_CACHE_DIR, or CUTE_DSL_DISABLE_FILE_CACHE=1 to silence this)");
  });
}

std::shared_ptr<const CompiledKernel> KernelCache::find_in_memory(const Hash128& request, const KernelSpec& spec,
                                                                  const Hash128* bulk_hash) const {
  std::shared_lock lock(mutex_);
  const auto it = memory_.find(request);
  if (it == memory_.end()) return nullptr;
  const bool same = bulk_hash ? *bulk_hash == it->second.bulk_hash : detail::same_bulk_text(*it->second.bulk, spec);
  return same ? it->second.kernel : nullptr;
}

void KernelCache::insert_in_memory(const Hash128& request, const KernelSpec& spec, std::shared_ptr<const CompiledKernel> k) {
  const Hash128 bulk_hash = detail::bulk_hash(spec);
  std::unique_lock lock(mutex_);
  auto& bulk = bulk_texts_[bulk_hash];
  if (!bulk || !detail::same_bulk_text(*bulk, spec)) {
    auto copy = std::make_shared<KernelSpec>();
    copy->source = spec.source;
    for (const auto& h : spec.headers) copy->headers.push_back(InMemoryHeader{{}, h.contents, {}});
    bulk = std::move(copy);
  }
  memory_.insert_or_assign(request, MemoryEntry{std::move(k), bulk, bulk_hash});  // a changed header replaces a stale entry
}

void KernelCache::clear_memory() {
  std::unique_lock lock(mutex_);
  memory_.clear();
  bulk_texts_.clear();
}

std::string KernelCache::entry_path(const Hash128& key) const {
  return config_.dir + "/" + key.hex() + std::string(kDiskEntrySuffix);
}

std::shared_ptr<const CompiledKernel> KernelCache::load_from_disk(const Hash128& key) {
  if (!disk_enabled()) return nullptr;
  const std::string path = entry_path(key);
  const auto bytes = read_file(path);
  if (!bytes) return nullptr;
  auto k = decode_disk_entry(*bytes, &key);
  if (!k) {
    ++damaged_;
    std::error_code ec;
    fs::remove(path, ec);
    log(LogLevel::info, "removed damaged cache entry " + path + "; compiling again");
    return nullptr;
  }
  // Least recently *used*: a hit refreshes the entry's time (best effort; a read-only folder
  // simply keeps write times).
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
  return std::make_shared<const CompiledKernel>(std::move(*k));
}

// Runs after a write (that is, after a compile, which costs far more than listing the folder).
// Two processes may evict at once; removing an entry twice is harmless, and a reader that loses
// an entry to eviction only compiles again.
void KernelCache::enforce_size_cap(const std::string& keep) {
  if (config_.max_bytes == 0) return;
  struct Entry {
    fs::file_time_type used;
    std::uint64_t bytes;
    fs::path path;
  };
  std::vector<Entry> entries;
  std::uint64_t total = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(config_.dir, ec)) {
    if (!e.path().filename().string().ends_with(kDiskEntrySuffix)) continue;
    std::error_code size_ec, time_ec;
    const std::uint64_t bytes = e.file_size(size_ec);
    const auto used = e.last_write_time(time_ec);
    if (size_ec || time_ec) continue;
    total += bytes;
    entries.push_back({used, bytes, e.path()});
  }
  if (total <= config_.max_bytes) return;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
  for (const Entry& e : entries) {
    if (total <= config_.max_bytes) break;
    if (e.path.string() == keep) continue;  // the entry just written stays, even alone over the cap
    if (fs::remove(e.path, ec)) {
      total -= e.bytes;
      ++evicted_;
    }
  }
}

void KernelCache::store_on_disk(const CompiledKernel& k) {
  if (!disk_enabled()) return;
  const std::string path = entry_path(k.key);
  const std::string tmp = path + detail::unique_suffix();
  if (std::string why = detail::write_new_file(tmp, encode_disk_entry(k)); !why.empty()) {
    ::unlink(tmp.c_str());
    disable_disk(why);
    return;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    // One store lost, not the disk: `cute-dsl cache clear` may have removed our temporary file, or
    // something that is no entry (a directory) sits at the path. The folder itself was writable.
    log(LogLevel::info, "cannot rename " + tmp + " to " + path + ": " + std::strerror(errno) +
                            "; this kernel is not stored on disk");
    ::unlink(tmp.c_str());
    return;
  }
  ++disk_writes_;
  enforce_size_cap(path);
}

void KernelCache::count(CacheOutcome o) {
  switch (o) {
    case CacheOutcome::memory_hit: ++memory_hits_; break;
    case CacheOutcome::disk_hit: ++disk_hits_; break;
    case CacheOutcome::miss: ++misses_; break;
  }
}

CacheCounters KernelCache::counters() const {
  return {memory_hits_.load(), disk_hits_.load(), misses_.load(), disk_writes_.load(), damaged_.load(), evicted_.load()};
}

KernelCache& default_cache() {
  static KernelCache cache;
  return cache;
}

std::vector<DiskEntryInfo> list_disk_entries(const std::string& dir) {
  std::vector<DiskEntryInfo> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (!name.ends_with(kDiskEntrySuffix)) continue;
    DiskEntryInfo info;
    info.file = name;
    std::error_code file_ec;
    if (!e.is_regular_file(file_ec)) {  // e.g. a directory by an entry's name: damaged, 0 bytes
      out.push_back(std::move(info));
      continue;
    }
    const std::uintmax_t bytes_on_disk = e.file_size(file_ec);
    info.file_bytes = file_ec ? 0 : bytes_on_disk;
    const auto bytes = read_file(e.path().string());
    if (!bytes && !fs::exists(e.path(), file_ec)) continue;  // removed meanwhile (a clear, an eviction)
    if (bytes)
      if (const auto k = decode_disk_entry(*bytes, nullptr)) {
        info.valid = true;
        info.key = k->key;
        info.name_expression = k->name_expression;
        info.arch = k->arch;
        info.output = k->output;
      }
    out.push_back(std::move(info));
  }
  return out;
}

std::uint64_t clear_disk_entries(const std::string& dir) {
  std::uint64_t removed = 0;
  std::error_code ec;
  const auto now = fs::file_time_type::clock::now();
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    bool remove = name.ends_with(kDiskEntrySuffix);
    if (name.find(std::string(kDiskEntrySuffix) + ".tmp.") != std::string::npos) {
      // A temporary file is another process's store in flight (milliseconds) unless it is old: a
      // leftover of a crash. Removing one in flight would only cost that store, but leave it be.
      std::error_code time_ec;
      const auto written = e.last_write_time(time_ec);
      remove = !time_ec && now - written > kLeftoverTemporaryAge;
    }
    if (remove && fs::remove_all(e.path(), ec) > 0) ++removed;
  }
  return removed;
}

}  // namespace cute_dsl::jit
