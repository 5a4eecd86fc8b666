// What the multi-GPU benchmarks (dist_gemm_rs, dist_gemm_ag) share: error checks, random bf16
// fill (dist_fill.hpp), the slowest-rank timer, interleaved rounds with medians, and the command
// line. Included by one translation unit per benchmark executable (it defines a kernel).
#pragma once

#include <cuda_bf16.h>

#include <cute_dsl/dist/nccl_session.hpp>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "dist_fill.hpp"

namespace dist_bench {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
inline void check(ncclResult_t e, const char* what) {
  if (e != ncclSuccess) throw std::runtime_error(std::string(what) + ": " + ncclGetErrorString(e));
}

struct Shape {
  int m, n, k;
};

// Times one op across the ranks: a barrier, CUDA events around the op on each rank's stream, the
// slowest rank's time (a max all-reduce through NCCL), in microseconds.
class SlowestRankTimer {
 public:
  SlowestRankTimer(cute_dsl::dist::NcclSession& session, cudaStream_t stream) : session_(session), stream_(stream) {
    check(cudaMalloc(&slowest_, sizeof(float)), "cudaMalloc");
    check(cudaEventCreate(&start_), "event"), check(cudaEventCreate(&stop_), "event");
  }
  ~SlowestRankTimer() { cudaFree(slowest_), cudaEventDestroy(start_), cudaEventDestroy(stop_); }
  SlowestRankTimer(const SlowestRankTimer&) = delete;
  SlowestRankTimer& operator=(const SlowestRankTimer&) = delete;

  double operator()(const std::function<void()>& op) {
    session_.barrier(stream_);
    check(cudaEventRecord(start_, stream_), "record");
    op();
    check(cudaEventRecord(stop_, stream_), "record");
    check(cudaEventSynchronize(stop_), "sync");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start_, stop_), "elapsed");
    check(cudaMemcpy(slowest_, &ms, sizeof(float), cudaMemcpyHostToDevice), "copy");
    check(ncclAllReduce(slowest_, slowest_, 1, ncclFloat32, ncclMax, session_.comm(), stream_), "allreduce max");
    check(cudaMemcpyAsync(&ms, slowest_, sizeof(float), cudaMemcpyDeviceToHost, stream_), "copy");
    check(cudaStreamSynchronize(stream_), "sync");
    return ms * 1e3;
  }

 private:
  cute_dsl::dist::NcclSession& session_;
  cudaStream_t stream_;
  float* slowest_ = nullptr;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

// Interleaved: every round times each op once, starting from a different one each round, so
// clocks that drift over a long run (power, heat) weigh on every op alike rather than on the ones
// measured last (one op after another, the same GEMM variant timed twice in a row differed by 8%
// on the LLM shape, H100, 2026-11-26). The median of each op over the rounds after 3 warm-up rounds.
inline std::vector<double> interleaved_medians(SlowestRankTimer& time, const std::vector<std::function<void()>>& ops, int rounds) {
  std::vector<std::vector<double>> us(ops.size());
  for (int round = 0; round < rounds + 3; ++round)
    for (std::size_t j = 0; j < ops.size(); ++j) {
      const std::size_t o = (j + std::size_t(round)) % ops.size();
      const double t = time(ops[o]);
      if (round >= 3) us[o].push_back(t);
    }
  std::vector<double> medians;
  for (auto& v : us) {
    std::sort(v.begin(), v.end());
    medians.push_back(v[v.size() / 2]);
  }
  return medians;
}

struct Options {
  int world = 2, iters = 10;
  std::vector<Shape> shapes;
  std::string json;
};

// --world P --iters N --shape MxNxK ... --json FILE; throws on anything else.
inline Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--world") o.world = std::stoi(next());
    else if (arg == "--iters") o.iters = std::stoi(next());
    else if (arg == "--json") o.json = next();
    else if (arg == "--shape") {
      Shape s{};
      if (std::sscanf(next().c_str(), "%dx%dx%d", &s.m, &s.n, &s.k) != 3) throw std::runtime_error("--shape takes MxNxK");
      o.shapes.push_back(s);
    } else {
      throw std::runtime_error("unknown argument " + arg);
    }
  }
  if (o.iters < 1) throw std::runtime_error("--iters must be at least 1");
  return o;
}

// What one shape's run reports: its JSON line, and what failed (empty: nothing).
struct ShapeReport {
  std::string json;
  std::string error;
};

// The whole benchmark: options (default shapes when none are given), one process per GPU, each
// shape in turn on every rank; every rank prints its line (rank 0's also goes to --json); a
// failed check ends with exit status 1, bad options with 2.
template <class RunShape>
int run_benchmark(int argc, char** argv, std::vector<Shape> default_shapes, RunShape run_shape) {
  Options o;
  try {
    o = parse_options(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ERROR: %s\n", e.what());
    return 2;
  }
  if (o.shapes.empty()) o.shapes = default_shapes;
  try {
    return cute_dsl::dist::run_local_ranks(o.world, [&](int rank, int world, const ncclUniqueId& id) {
      cute_dsl::dist::NcclSession session(rank, world, id);
      FILE* out = rank == 0 && !o.json.empty() ? std::fopen(o.json.c_str(), "w") : nullptr;
      if (out) std::fprintf(out, "[\n");
      int status = 0;
      for (std::size_t i = 0; i < o.shapes.size(); ++i) {
        const ShapeReport r = run_shape(session, o.shapes[i], o.iters);
        std::printf("rank %d: %s\n", rank, r.json.c_str());
        if (out) std::fprintf(out, "  %s%s\n", r.json.c_str(), i + 1 < o.shapes.size() ? "," : "");
        if (!r.error.empty()) std::fprintf(stderr, "ERROR: rank %d: %s\n", rank, r.error.c_str()), status = 1;
      }
      if (out) std::fprintf(out, "]\n"), std::fclose(out);
      return status;
    });
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ERROR: %s\n", e.what());
    return 1;
  }
}

}  // namespace dist_bench
