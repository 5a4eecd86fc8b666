// The Hopper GEMM with an epilogue written in the epilogue language (epilogue_expression.hpp),
// compiled by the JIT: the program becomes the C++ epilogue tree (cute_dsl/epilogue/) inside a
// generated kernel that runs the GEMM's own body with it (kernels/gemm_sm90.hpp).
//
//   auto program = jit::epilogue::parse_epilogue("gelu(alpha * acc + bias[col])");
//   auto spec = jit::gemm_sm90_epilogue_spec(types, config, *program);   // a KernelSpec
//   auto kernel = jit::compile(*spec, options);                          // NVRTC + nvJitLink
//
// The generated kernel takes two parameters: the GEMM's parameter block (as the plain kernel's)
// and a struct holding the program's inputs and outputs, in the order gemm_epilogue_fields()
// lists them: a scalar input is a float; a vector (`v[row]`, `v[col]`) a pointer; a tensor
// (`t[row, col]`) or a stored output a pointer and its leading dimension (row-major); a
// reduction's output a float pointer (accumulated into: it starts at the reduction's identity);
// `c` a pointer to C (D's type) and its leading dimension. The tree stands for D: the GEMM's
// alpha, beta and C arguments are not used.
#pragma once

#include <string>
#include <vector>

#include "cute_dsl/jit/epilogue_expression.hpp"
#include "cute_dsl/jit/error.hpp"
#include "cute_dsl/jit/expected.hpp"
#include "cute_dsl/jit/gemm_sm90.hpp"
#include "cute_dsl/jit/kernel_spec.hpp"
#include "cute_dsl/jit/loaded_kernel.hpp"

namespace cute_dsl::jit {

// One field of the generated kernel's epilogue parameter struct.
struct GemmEpilogueField {
  enum class Kind { f32, pointer, leading_dimension };
  std::string name;  // the program's name; "<name>_ld" for a leading dimension
  Kind kind = Kind::f32;
};
std::vector<GemmEpilogueField> gemm_epilogue_fields(const epilogue::Program& program);

// The largest C++ tree gemm_sm90_epilogue_spec generates. The tree holds values, so each use of a
// `let` binding copies its expression: a program of a few lines that reuses bindings in layers
// can grow exponentially, and NVRTC's time with it (a 60-node tree compiles in ~11 s of CPU on
// the 2-core build machine, a 10,000-node one took 5 minutes).
inline constexpr long long kGemmEpilogueMaxTreeNodes = 400;

// The kernel's name in the generated source (not a template: the spec has no template arguments).
inline constexpr const char* kGemmEpilogueKernel = "cute_dsl_gemm_sm90_epilogue";

// `element`: the element type of the program's vector and tensor inputs and stored outputs
// (bf16, f16 or f32). Fails (invalid_spec) where the program cannot be generated: a config or
// types the GEMM refuses (gemm_sm90_unsupported), an element type other than those three.
Expected<KernelSpec, JitError> gemm_sm90_epilogue_spec(const GemmSm90Types& types, const GemmSm90Config& config,
                                                      const epilogue::Program& program,
                                                      ElementType element = ElementType::f32);

// A value for the parameter struct: a scalar input's `value`; a vector's, tensor's, store's or
// reduction's device `pointer`; a tensor's or store's leading dimension `ld` (elements). C is the
// binding named "c" (pointer and ld).
struct GemmEpilogueBinding {
  std::string name;
  float value = 0;
  const void* pointer = nullptr;
  long long ld = 0;
};

// The parameter struct's bytes, laid out as the generated kernel declares it (C rules: each field
// at a multiple of its size, the whole a multiple of 8 bytes when it holds a pointer). Fails
// (invalid_option) naming a field without a binding, a binding no field takes, or a null pointer.
Expected<std::vector<unsigned char>, JitError> gemm_epilogue_arguments(const epilogue::Program& program,
                                                                       const std::vector<GemmEpilogueBinding>& bindings);

// Launches `kernel`, compiled from gemm_sm90_epilogue_spec(types, config, program, ...), on
// `stream` (a CUstream): the GEMM's arguments as for launch_gemm_sm90, except that alpha must be 1
// and beta 0 (the program stands for D: scale inside it, read C through `c`).
Expected<Ok, JitError> launch_gemm_sm90_epilogue(LoadedKernel& kernel, const GemmSm90Types& types,
                                                 const GemmSm90Config& config, const epilogue::Program& program,
                                                 const GemmSm90Arguments& args,
                                                 const std::vector<GemmEpilogueBinding>& bindings, void* stream = nullptr);

}  // namespace cute_dsl::jit
