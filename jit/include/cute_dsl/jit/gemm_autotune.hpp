// Autotuning the Hopper GEMM through the JIT: compile candidate configs in parallel (warmup()'s
// worker processes), time each on the problem with CUDA events, keep the winner in a small table
// on disk keyed by (shape class, element types, layouts, device, library version); a later run
// (any process) reads the winner back and times nothing.
//
//   auto tuned = jit::autotune_gemm_sm90(types, args);   // args: a real problem, buffers included
//   tuned->gemm.run(args, stream);                        // the winner, compiled and loaded
//
// The table: <cache dir>/gemm_sm90_autotune.txt, text, one line per key:
//   cute_dsl gemm_sm90 autotune 1                                    (first line: format, version)
//   <key> TAB <tile_m> <tile_n> <stages> <cluster_m> <ping_pong> TAB <ms>
// A file whose first line is not that header is ignored (as if empty) and rewritten at the next
// store; a damaged row is skipped and dropped at the next store. Stores go through update(),
// which holds an exclusive flock on <table>.lock around the read-modify-write, so processes that
// tune at once lose no row (docs/design/jit.md, "The autotune table").
#pragma once

#include "cute_dsl/jit/gemm_sm90.hpp"
#include "cute_dsl/jit/warmup.hpp"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cute_dsl::jit {

// The shape class a tuning result stands for: each of M, N, K rounded up to a power of two, and
// whether the problem is batched. "m1024 n1024 k512 l1" for 1000 x 1030 x 520.
std::string gemm_shape_class(int m, int n, int k, int l);
// The whole key: "bf16>bf16 KK m1024 n1024 k512 l1 | NVIDIA H200 | 0.1.0" (no tabs or newlines).
std::string gemm_sm90_tuning_key(const GemmSm90Types& types, int m, int n, int k, int l, const std::string& device_name);

class GemmTuningTable {
 public:
  struct Row {
    GemmSm90Config config;
    double ms = 0;
  };
  // Reads `path`; a missing file is an empty table, a damaged one too (damaged() says so).
  static GemmTuningTable load(const std::string& path);
  // The table as text / from text (nullopt when any line is malformed).
  std::string serialize() const;
  static std::optional<GemmTuningTable> parse(const std::string& text);

  const Row* find(const std::string& key) const;
  void set(const std::string& key, const Row& row) { rows_[key] = row; }
  std::size_t size() const { return rows_.size(); }
  bool damaged() const { return damaged_; }
  // Writes the table to `path` atomically (temporary file + fsync + rename); false when it cannot.
  // Unlocked: a concurrent save() of another table read earlier wins, and this one's rows are lost.
  bool save(const std::string& path) const;
  // Sets `key` to `row` in the table at `path` and writes it back, under an exclusive lock on
  // `path + ".lock"` (flock, created when missing, never removed): load, set, save as one step
  // against every other update() of that table, in any process or thread. False when the table
  // cannot be written.
  static bool update(const std::string& path, const std::string& key, const Row& row);

 private:
  std::map<std::string, Row> rows_;
  bool damaged_ = false;
};

// A config from the fields that vary, in the order of gemm_sm90_launch.hpp's kGemmSm90Configs rows
// ({tile_n, stages, cluster_m[, ping_pong[, tile_m]]}); tile_k and cluster_n keep their defaults.
GemmSm90Config gemm_sm90_config(int tile_n, int stages, int cluster_m, bool ping_pong = false, int tile_m = 128);

// The configs autotuning tries by default: those gemm_sm90_launch.hpp instantiates for nvcc
// (kernels/gemm_sm90_configs.hpp's table, converted).
std::vector<GemmSm90Config> gemm_sm90_default_candidates();

struct GemmTuneOptions {
  std::vector<GemmSm90Config> candidates;  // empty: gemm_sm90_default_candidates()
  int runs = 10;                           // launches timed per candidate (after one untimed)
  std::string table_path;                  // empty: <cache dir>/gemm_sm90_autotune.txt (memory only without one)
  bool retune = false;                     // ignore a stored winner
  CompileOptions compile;
  WarmupOptions warmup;
  void* stream = nullptr;  // where the candidates run (a CUstream)
};

struct GemmTuneResult {
  GemmSm90Jit gemm;        // the winner, loaded
  bool from_table = false; // read from the table: nothing was timed
  std::string key;
  std::string table_path;  // empty: not stored
  std::vector<std::pair<GemmSm90Config, double>> timings;  // ms per launch of each candidate timed
};

// Runs (and overwrites D of) `args` several times per candidate; C is read when beta != 0.
Expected<GemmTuneResult, JitError> autotune_gemm_sm90(const GemmSm90Types& types, const GemmSm90Arguments& args,
                                                      const GemmTuneOptions& options = {});

// "NVIDIA H200": the current device's name (cuDeviceGetName), or why there is none.
Expected<std::string, JitError> current_device_name();

}  // namespace cute_dsl::jit
