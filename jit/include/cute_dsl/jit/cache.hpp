// The two-level kernel cache: in memory (per process) and on disk (shared by processes).
//
// Memory level: keyed by the request fingerprint (the spec's and options' fields hashed in place,
// src/request_fingerprint.hpp), so a hit builds no strings and allocates nothing; the bulk text
// the fingerprint leaves out (source, header contents) is compared on a hit. Guarded by a shared
// mutex (readers never block each other). Disk level: keyed by the content key, one self-describing file per entry,
// written to a unique temporary file, fsynced and renamed into place, so a reader sees either
// nothing or a whole entry. Layout of a file and the concurrency argument: docs/design/jit.md.
#pragma once

#include "cute_dsl/jit/compiled_kernel.hpp"
#include "cute_dsl/jit/hash.hpp"
#include "cute_dsl/jit/kernel_spec.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace cute_dsl::jit {

struct CacheConfig {
  bool use_disk = true;
  std::string dir;  // the disk cache folder; empty with use_disk=false
  // Size cap of the folder's entries; past it, the least recently used entries are removed
  // after a write. 0: no cap. Default 4 GiB; CUTE_DSL_CACHE_MAX_BYTES sets it.
  std::uint64_t max_bytes = kDefaultMaxBytes;
  static constexpr std::uint64_t kDefaultMaxBytes = std::uint64_t{4} << 30;

  // CUTE_DSL_DISABLE_FILE_CACHE=1 turns the disk off; CUTE_DSL_CACHE_DIR names the folder;
  // else $XDG_CACHE_HOME/cute_dsl; else $HOME/.cache/cute_dsl; else memory only.
  static CacheConfig from_environment();
};

enum class CacheOutcome { memory_hit, disk_hit, miss };
std::string_view to_string(CacheOutcome o);

struct CacheCounters {
  std::uint64_t memory_hits = 0, disk_hits = 0, misses = 0;
  std::uint64_t disk_writes = 0, damaged_entries = 0;  // damaged: found on load, removed
  std::uint64_t evicted_entries = 0;                   // removed by the size cap
};

// One entry of the disk cache, as `cute-dsl cache list` shows it.
struct DiskEntryInfo {
  std::string file;  // file name within the cache folder
  Hash128 key;
  std::string name_expression;
  std::string arch;
  OutputKind output = OutputKind::cubin;
  std::uint64_t file_bytes = 0;
  bool valid = false;  // header and checksum verified
};

// The disk format. Bump kDiskFormatVersion whenever the layout of a file changes.
inline constexpr char kDiskMagic[8] = {'C', 'U', 'T', 'E', 'D', 'S', 'L', 'K'};
inline constexpr std::uint32_t kDiskFormatVersion = 1;
inline constexpr std::string_view kDiskEntrySuffix = ".cdk";

// Entry <-> bytes; decode verifies magic, version, sizes and checksum (and the key if given).
std::string encode_disk_entry(const CompiledKernel& k);
std::optional<CompiledKernel> decode_disk_entry(std::string_view bytes, const Hash128* expected_key);

class KernelCache {
 public:
  explicit KernelCache(CacheConfig config = CacheConfig::from_environment());

  const CacheConfig& config() const { return config_; }
  bool disk_enabled() const { return disk_usable_.load(std::memory_order_relaxed); }

  // `request` is detail::request_fingerprint(spec, ...); `spec` supplies the bulk text to compare,
  // or `bulk_hash` (PreparedSpec's) stands for it when given.
  std::shared_ptr<const CompiledKernel> find_in_memory(const Hash128& request, const KernelSpec& spec,
                                                       const Hash128* bulk_hash = nullptr) const;
  void insert_in_memory(const Hash128& request, const KernelSpec& spec, std::shared_ptr<const CompiledKernel> k);

  // Loads the entry for `key`; a damaged entry is removed and reported as absent.
  std::shared_ptr<const CompiledKernel> load_from_disk(const Hash128& key);
  // Best effort: the first failure to write prints one warning and turns the disk level off.
  void store_on_disk(const CompiledKernel& k);

  std::string entry_path(const Hash128& key) const;
  CacheCounters counters() const;
  void count(CacheOutcome o);
  void clear_memory();

 private:
  void disable_disk(const std::string& why);

  CacheConfig config_;
  std::atomic<bool> disk_usable_{false};
  std::once_flag warned_;
  mutable std::shared_mutex mutex_;
  struct MemoryEntry {
    std::shared_ptr<const CompiledKernel> kernel;
    // Only `source` and the headers' contents are kept: what a hit compares. Shared by every
    // entry with the same text (one copy of a header for all its instantiations).
    std::shared_ptr<const KernelSpec> bulk;
    Hash128 bulk_hash;  // of the same, for prepared lookups
  };
  std::unordered_map<Hash128, MemoryEntry, Hash128Hasher> memory_;
  std::unordered_map<Hash128, std::shared_ptr<const KernelSpec>, Hash128Hasher> bulk_texts_;
  void enforce_size_cap(const std::string& keep);
  std::atomic<std::uint64_t> memory_hits_{0}, disk_hits_{0}, misses_{0}, disk_writes_{0}, damaged_{0}, evicted_{0};
};

// The process-wide cache that compile() uses by default, configured from the environment.
KernelCache& default_cache();

// Disk maintenance, for `cute-dsl cache`.
std::vector<DiskEntryInfo> list_disk_entries(const std::string& dir);
// Temporary files (a store in flight) older than this are leftovers of a crash.
inline constexpr std::chrono::minutes kLeftoverTemporaryAge{10};
// Removes every entry and leftover temporary file (not the temporary files of stores in flight);
// returns how many files were removed.
std::uint64_t clear_disk_entries(const std::string& dir);

}  // namespace cute_dsl::jit
