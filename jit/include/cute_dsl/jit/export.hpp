// AOT export: a JIT kernel written out as files that a C or C++ program builds and launches with
// the CUDA Driver API alone (no CuteDSL, no NVRTC, no C++20 at the consumer's side).
//
//   auto kernel = jit::gemm_sm90_export(types, config);          // or elementwise_export(...)
//   auto files  = jit::export_kernel(*kernel, {.archs = {"sm_90a"}, .out_dir = "gen", .name = "my_gemm"});
//
// writes, for each arch, one CUBIN compiled through the usual stages (describe_request, NVRTC,
// nvJitLink; the cache included), and
//   <name>.h   C99 / C++ header: the parameter struct (one field per kernel parameter, in order),
//              the kernel's symbol, block and cluster dimensions, dynamic shared memory, and
//              <name>_load / _unload / _launch (plus the family's helpers: _grid, _make_params)
//   <name>.c   the CUBINs as byte arrays, the load (the CUBIN for the current context's device,
//              by compute capability) and the launch (cuLaunchKernelEx, cluster attribute), and
//              checks that fail the consumer's COMPILE when a field's size differs from the
//              CUBIN's parameter (EIATTR_KPARAM_INFO)
//   <name>.<arch>.cubin   the same CUBINs as files, for cuobjdump and friends
// See docs/09_jit_export.md; the choices (embedded CUBINs, no fatbin) in docs/design/jit.md.
#pragma once

#include "cute_dsl/jit/compiled_kernel.hpp"
#include "cute_dsl/jit/error.hpp"
#include "cute_dsl/jit/expected.hpp"
#include "cute_dsl/jit/gemm_sm90.hpp"
#include "cute_dsl/jit/kernel_spec.hpp"
#include "cute_dsl/jit/launch.hpp"
#include "cute_dsl/jit/options.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace cute_dsl::jit {

// One kernel parameter as the C header declares it. In `c_type` and in ExportKernel's C text,
// "@P@" stands for the export's name (the C prefix) and "@PU@" for it in capitals.
struct ExportParameter {
  std::string c_type;  // "CUdeviceptr", "long long", "@P@_axpby"
  std::string name;    // "out"
  int offset = -1;     // where the kernel expects it inside a by-value struct parameter: -1 unless
                       // the kernel takes ONE struct, whose C twin is checked field by field
};

// What the export knows about a kernel beyond its binary: how C names and launches it.
struct ExportKernel {
  KernelSpec spec;
  // The parameters in order. Empty: taken from the CUBIN as p0, p1, ... of unsigned integer or
  // byte-array types of the right sizes (a kernel the export has no family for).
  std::vector<ExportParameter> parameters;
  std::string family;     // "elementwise", "gemm_sm90", "custom": a comment in the files
  std::string summary;    // one line for the header's comment: what the kernel computes
  Dim3 block;
  Dim3 cluster;                     // {1,1,1}: no cluster attribute
  unsigned dynamic_smem_bytes = 0;  // above 48 KiB, _load raises the kernel's limit
  std::vector<std::string> allowed_archs;  // empty: any; else the only archs it compiles for
  std::string c_types;    // C declarations the parameters use, written before the struct
  std::string c_header;   // prototypes of the family's helpers (after _launch's)
  std::string c_source;   // their definitions
};

// The elementwise kernels (include/cute_dsl/kernels/elementwise.hpp) with the library's default
// shape: 16-byte vectors, kElementwiseThreads threads, one-trip grid (the helper <name>_grid(n)).
enum class ElementwiseOp { copy, add, axpby, relu, gelu, silu };
std::string_view to_string(ElementwiseOp op);
Expected<ElementwiseOp, JitError> parse_elementwise_op(std::string_view name);
// Element types: f32, f64, f16, bf16.
Expected<ExportKernel, JitError> elementwise_export(ElementwiseOp op, ElementType type);

// The Hopper GEMM (gemm_sm90.hpp), sm_90a only. The C side gets the problem struct
// (<name>_problem: the fields of GemmSm90Arguments), <name>_make_params (the two tensor maps,
// cuTensorMapEncodeTiled), <name>_grid (the persistent grid, cuOccupancyMaxActiveClusters) and
// <name>_run, which does the three and launches.
Expected<ExportKernel, JitError> gemm_sm90_export(const GemmSm90Types& types, const GemmSm90Config& config);

// Any kernel: its parameters come from the CUBIN (ExportKernel::parameters left empty).
ExportKernel custom_export(KernelSpec spec, Dim3 block, Dim3 cluster = {}, unsigned dynamic_smem_bytes = 0);

struct ExportOptions {
  std::vector<std::string> archs;  // "sm_80", "sm_90a", ... at least one, no repeats, none "auto"
  std::string out_dir;             // created when missing
  std::string name;                // the C prefix: a C identifier
  CompileOptions compile;          // everything but `arch` (taken from `archs`) and `output` (CUBIN)
};

// The files' contents, before (or without) writing them.
struct ExportedKernel {
  std::string name;
  std::string lowered_name;                // the kernel's symbol (the same for every arch)
  std::vector<KernelParameter> parameters; // as the CUBINs lay them out
  std::vector<std::string> archs;          // as resolved ("sm_90a")
  std::vector<std::string> cubins;         // one per arch, in `archs` order
  std::string header;                      // <name>.h
  std::string source;                      // <name>.c
};

// Compiles for every arch and renders the files; writes nothing.
Expected<ExportedKernel, JitError> render_export(const ExportKernel& kernel, const ExportOptions& options);

// render_export, then writes <out_dir>/<name>.h, .c and .<arch>.cubin (each atomically: a
// build that is interrupted leaves the old file or the new one). Returns the paths written.
Expected<std::vector<std::string>, JitError> export_kernel(const ExportKernel& kernel, const ExportOptions& options);

}  // namespace cute_dsl::jit
