// `cute-dsl demo`: a table of demo entries, each a kernel the JIT compiles from its header plus
// how to run it on the GPU, check it and time it against a reference. Providers (one per kernel
// family) return their entries; demo_command.cpp lists the providers. To add a family (the GEMM):
// write demo_<family>.cpp with a provider, declare it below, add it to kProviders in
// demo_command.cpp and the source to jit/tools/CMakeLists.txt.
#pragma once

#include "cute_dsl/jit/jit.hpp"

#include <functional>
#include <string>
#include <vector>

namespace cute_dsl::tools::demo {

// What one GPU run of an entry found.
struct Measurement {
  std::string size;       // "64 Mi elements", "8192x8192x8192"
  double ms = 0;          // ours, median
  double rate = 0;        // ours, in `unit`
  std::string unit;       // "GB/s" (bytes read + written) or "TFLOP/s"
  std::string reference;  // "cudaMemcpy D2D", "cuBLAS"
  double reference_rate = 0;
  bool correct = false;
  std::string check;      // "all 67108864 elements" or what was wrong
};

struct GpuContext {
  int sm_count = 0;
  int runs = 10;           // timed runs per kernel (median)
  long long elements = 0;  // problem size for the elementwise entries
};

struct Entry {
  std::string name;    // one line: what the kernel computes, dtype
  jit::KernelSpec spec;
  // Runs the loaded kernel: checks it against a host reference and times it and its reference.
  // `error` set: the run itself failed (allocation, launch).
  std::function<Measurement(jit::LoadedKernel& kernel, const jit::ResourceUsage& usage, const GpuContext& gpu,
                            std::string& error)>
      run;
};

using Provider = std::vector<Entry> (*)();

std::vector<Entry> elementwise_entries();  // demo_elementwise.cpp
std::vector<Entry> gemm_entries();         // demo_gemm.cpp

}  // namespace cute_dsl::tools::demo
