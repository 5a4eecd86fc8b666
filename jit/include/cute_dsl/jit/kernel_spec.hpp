// KernelSpec: which kernel to instantiate, described with run-time values.
//
// A spec names a header (or gives a whole source string), a kernel template and its template
// arguments. Template arguments are rendered to C++ text once, when they are made, so that a
// spec is cheap to hash and compare afterwards.
#pragma once

#include "cute_dsl/jit/error.hpp"
#include "cute_dsl/jit/expected.hpp"
#include "cute_dsl/jit/hash.hpp"
#include "cute_dsl/layout/tree.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cute_dsl::runtime { class Layout; }

namespace cute_dsl::jit {

// Element types a kernel can be specialised on. The CUDA header that defines a type is included
// by the generated source only when the type is used.
enum class ElementType {
  f16, bf16, f32, f64,
  i8, i16, i32, i64, u8, u16, u32, u64,
  f8_e4m3, f8_e5m2,
};

std::string_view to_string(ElementType t);          // "f16", "bf16", ...
std::string_view cpp_type_name(ElementType t);      // "__half", "float", ...
Expected<ElementType, JitError> parse_element_type(std::string_view name);

// One template argument, already in the C++ spelling that goes between the angle brackets.
class TemplateArg {
 public:
  static TemplateArg type(ElementType t);
  static TemplateArg integer(std::int64_t v);
  static TemplateArg boolean(bool v);
  // A layout as a static type: cute_dsl::Layout<cute_dsl::tuple<cute_dsl::C<4>, ...>, ...>.
  static TemplateArg layout(const tree::Tree& t);
  static TemplateArg layout(const runtime::Layout& l);
  // Any C++ text, taken as is (a user type, an expression). The escape hatch.
  static TemplateArg raw(std::string cpp);
  // An argument as cpp() and required_header() gave it (for specs sent to warmup's workers); a
  // header other than those of the element types is dropped.
  static TemplateArg restore(std::string cpp, std::string_view required_header);

  const std::string& cpp() const { return cpp_; }
  // The CUDA header this argument needs (e.g. "cuda_fp16.h"), or empty.
  std::string_view required_header() const { return header_; }

 private:
  std::string cpp_;
  std::string_view header_;
};

// Parses the tool's template-argument text: comma-separated at the top level; each item is an
// element type (f16, bf16, f32, f64, i8..i64, u8..u64, f8e4m3, f8e5m2), an integer, true/false,
// a layout in CuTe notation ("(4,2):(1,4)"), or `type:<C++ text>` taken as is.
Expected<std::vector<TemplateArg>, JitError> parse_template_args(std::string_view text);

struct InMemoryHeader {
  std::string name;      // the include name, e.g. "my_kernels.cuh"
  std::string contents;
  std::string origin;    // where it came from (a path), for messages only; not part of the key
};

struct KernelSpec {
  // Either a header to include (found among `headers`, then among the embedded library headers)
  // or a full source string. Exactly one should be set.
  std::string header;
  std::string source;
  std::string source_name = "kernel.cu";  // the file name errors in `source` are reported against

  std::string kernel;  // the kernel template, possibly qualified: "my_ns::scale"
  std::vector<TemplateArg> template_args;
  std::vector<InMemoryHeader> headers;  // extra headers, visible to #include by name

  // The instantiation as NVRTC's name expression: kernel<args...> (just `kernel` without args).
  std::string name_expression() const;

  // A fingerprint of everything above, computed without building strings: the memory cache's key.
  void hash_into(Hasher& h) const;
};

// Whether `kernel` names a kernel as compile() needs it: an identifier, possibly qualified
// (ns::scale, ::scale); its template arguments go in KernelSpec::template_args. Anything else
// would reach NVRTC as source text (and its log would repeat it for every error).
bool is_kernel_name(std::string_view kernel);

// The largest header or source file load_header_file() reads.
inline constexpr std::size_t kMaxHeaderFileBytes = std::size_t{16} << 20;

// Reads a header file from disk into an InMemoryHeader named by its file name. An io error says
// why when the path is missing or unreadable, a directory, empty (or a FIFO with no writer),
// larger than kMaxHeaderFileBytes (a device such as /dev/zero included) or holds a NUL byte.
Expected<InMemoryHeader, JitError> load_header_file(const std::string& path);

}  // namespace cute_dsl::jit
