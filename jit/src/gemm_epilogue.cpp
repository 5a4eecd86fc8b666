// The epilogue language's back end (cute_dsl/jit/gemm_epilogue.hpp): a program becomes the C++
// epilogue tree of a generated fused GEMM kernel.
//
// Every output other than D is evaluated once per element beside D, not inside it: the C++ tree
// is a tree of values, so a subexpression the program uses twice appears twice in it, and a store
// or reduction placed inside such a subexpression would run twice (a reduction would count
// twice). The root is therefore map(first, D, outputs...): each output once, D returned. Leaves
// are keyed by kind and slot (the input's index), so every use of an input is one load.
#include "cute_dsl/jit/gemm_epilogue.hpp"
#include "gemm_sm90_setup.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cute_dsl::jit {

namespace {

using epilogue::InputKind;
using epilogue::Node;
using epilogue::NodeKind;

using epilogue::Program;
using OutKind = epilogue::OutputKind;  // jit:: has an OutputKind of its own (PTX or CUBIN)

JitError spec_error(std::string message) {
  return JitError{JitErrorKind::invalid_spec, "gemm epilogue: " + std::move(message), {}, {}, {}};
}

// The C++ of a number as a float literal that reads back the same float.
std::string float_literal(double v) {
  char s[48];
  std::snprintf(s, sizeof s, "%.9g", v);
  std::string t = s;
  if (t.find_first_of(".eEn") == std::string::npos) t += ".0";  // "inf"/"nan" cannot come from the parser
  return t + "f";
}

const char* tree_function(const std::string& f) {
  static const std::pair<const char*, const char*> table[] = {
      {"relu", "ep::relu"},       {"gelu", "ep::gelu"},     {"gelu_tanh", "ep::gelu_tanh"},  {"silu", "ep::silu"},
      {"sigmoid", "ep::sigmoid"}, {"tanh", "ep::tanh"},     {"exp", "ep::exp"},              {"max", "ep::max"},
      {"min", "ep::min"},         {"fma", "ep::fma"},       {"clamp", "ep::clamp"},          {"drelu", "ep::drelu"},
      {"dgelu", "ep::dgelu"},     {"to_bf16", "ep::to_bf16"}, {"to_f16", "ep::to_fp16"},     {"to_e4m3", "ep::to_fp8_e4m3"},
      {"to_e5m2", "ep::to_fp8_e5m2"}, {"abs", "cute_dsl_epilogue_abs"}, {"leaky_relu", "ep::leaky_relu"}};
  for (const auto& [name, cpp] : table)
    if (f == name) return cpp;
  return nullptr;
}

class Emitter {
 public:
  explicit Emitter(const Program& p) : p_(p) {}

  std::string node(int index) const {
    const Node& n = p_.nodes[std::size_t(index)];
    auto arg = [&](std::size_t i) { return node(n.args[i]); };
    switch (n.kind) {
      case NodeKind::number: return "ep::scalar(" + float_literal(n.value) + ")";
      case NodeKind::acc: return "ep::acc()";
      case NodeKind::c_source: return "ep::c_source(in.c, in.c_ld)";
      case NodeKind::input: return input(n.index);
      case NodeKind::negate: return "(-" + arg(0) + ")";
      case NodeKind::add:
      case NodeKind::sub:
      case NodeKind::mul:
      case NodeKind::div: return "(" + arg(0) + " " + std::string(epilogue::operator_symbol(n.kind)) + " " + arg(1) + ")";
      case NodeKind::call: {
        const std::string f = tree_function(n.name);
        if (n.name == "abs") return "ep::map(cute_dsl_epilogue_abs{}, " + arg(0) + ")";
        if (n.name == "leaky_relu") return f + "(" + arg(0) + ", " + slope(n.args[1]) + ")";
        std::string s = f + "(";
        for (std::size_t i = 0; i < n.args.size(); ++i) s += (i ? ", " : "") + arg(i);
        return s + ")";
      }
    }
    return "?";
  }

  // An output other than D around its expression; slots count per kind of output.
  std::string output(const epilogue::Output& o) const {
    const std::string e = node(o.root), slot = std::to_string(&o - p_.outputs.data());
    if (o.kind == OutKind::store)
      return "ep::aux_store<" + slot + ">(in." + o.name + ", ep::row_major(in." + o.name + "_ld), " + e + ")";
    static const std::pair<OutKind, const char*> reductions[] = {
        {OutKind::row_sum, "ep::row_sum"},         {OutKind::col_sum, "ep::col_sum"},
        {OutKind::sum, "ep::tensor_sum"},          {OutKind::row_max, "ep::row_max"},
        {OutKind::col_max, "ep::col_max"},         {OutKind::max, "ep::tensor_max"},
        {OutKind::row_absmax, "ep::row_abs_max"},  {OutKind::col_absmax, "ep::col_abs_max"},
        {OutKind::absmax, "ep::tensor_abs_max"}};
    for (const auto& [kind, f] : reductions)
      if (kind == o.kind) return std::string(f) + "<" + slot + ">(in." + o.name + ", " + e + ")";
    return e;  // D
  }

 private:
  std::string input(int index) const {
    const epilogue::Input& in = p_.inputs[std::size_t(index)];
    const std::string slot = std::to_string(index);
    switch (in.kind) {
      case InputKind::scalar: return "ep::scalar(in." + in.name + ")";
      case InputKind::row_vector: return "ep::row_broadcast<" + slot + ">(in." + in.name + ")";
      case InputKind::col_vector: return "ep::col_broadcast<" + slot + ">(in." + in.name + ")";
      case InputKind::tensor: return "ep::aux_load<" + slot + ">(in." + in.name + ", ep::row_major(in." + in.name + "_ld))";
    }
    return "?";
  }
  // leaky_relu's slope: a number or a scalar input (the parser checked), as a float.
  std::string slope(int index) const {
    const Node& n = p_.nodes[std::size_t(index)];
    return n.kind == NodeKind::number ? float_literal(n.value) : "in." + p_.inputs[std::size_t(n.index)].name;
  }

  const Program& p_;
};

// The node count of the C++ tree a program becomes: the tree holds values, so a binding used k
// times is copied k times (a DAG of depth d can grow like 2^d). Compile time grows with it.
long long expanded_size(const Program& p) {
  std::vector<long long> size(p.nodes.size(), 0);
  for (std::size_t i = 0; i < p.nodes.size(); ++i) {  // operands come first
    long long s = 1;
    for (int a : p.nodes[i].args) s += size[std::size_t(a)];
    size[i] = s > (1LL << 40) ? (1LL << 40) : s;
  }
  long long total = 0;
  for (const epilogue::Output& o : p.outputs) total += size[std::size_t(o.root)];
  return total;
}

bool reads_c(const Program& p) {
  for (const Node& n : p.nodes)
    if (n.kind == NodeKind::c_source) return true;
  return false;
}

}  // namespace

std::vector<GemmEpilogueField> gemm_epilogue_fields(const Program& p) {
  using Kind = GemmEpilogueField::Kind;
  std::vector<GemmEpilogueField> fields;
  for (const epilogue::Input& in : p.inputs) {
    fields.push_back({in.name, in.kind == InputKind::scalar ? Kind::f32 : Kind::pointer});
    if (in.kind == InputKind::tensor) fields.push_back({in.name + "_ld", Kind::leading_dimension});
  }
  for (const epilogue::Output& o : p.outputs) {
    if (o.kind == OutKind::d) continue;
    fields.push_back({o.name, Kind::pointer});
    if (o.kind == OutKind::store) fields.push_back({o.name + "_ld", Kind::leading_dimension});
  }
  if (reads_c(p)) {
    fields.push_back({"c", Kind::pointer});
    fields.push_back({"c_ld", Kind::leading_dimension});
  }
  return fields;
}

Expected<KernelSpec, JitError> gemm_sm90_epilogue_spec(const GemmSm90Types& types, const GemmSm90Config& config,
                                                      const Program& program, ElementType element) {
  if (std::string why = gemm_sm90_unsupported(types, config); !why.empty()) return unexpected(spec_error(why));
  // (as the nvcc launcher: the 192-row tile has not run with an epilogue tree on a GPU)
  if (config.tile_m == 192) return unexpected(spec_error("gemm_sm90: tile_m 192 runs plain GEMMs only, not epilogue trees"));
  if (element != ElementType::bf16 && element != ElementType::f16 && element != ElementType::f32)
    return unexpected(spec_error("the inputs' and stores' element type must be bf16, f16 or f32"));
  if (program.outputs.empty() || program.outputs.front().kind != OutKind::d)
    return unexpected(spec_error("the program has no D (parse it with parse_epilogue)"));
  if (const long long n = expanded_size(program); n > kGemmEpilogueMaxTreeNodes)
    return unexpected(spec_error("the program becomes a tree of " + std::to_string(n) +
                                 " nodes (a binding is copied where it is used), more than " +
                                 std::to_string(kGemmEpilogueMaxTreeNodes) + ": use the bindings fewer times"));
  const std::string ta(cpp_type_name(types.a)), td(cpp_type_name(types.d)), te(cpp_type_name(element));
  auto major = [](GemmMajor m) { return m == GemmMajor::k ? "cute_dsl::GmmaMajor::K" : "cute_dsl::GmmaMajor::MN"; };

  std::string s;
  s += "// Generated by the CuteDSL JIT (gemm_epilogue.cpp) from the epilogue:\n";
  for (const epilogue::Output& o : program.outputs)
    s += "//   " + (o.kind == OutKind::d ? std::string("d") : std::string(to_string(o.kind)) + " " + o.name) + " = " +
         epilogue::canonical(program, o.root) + "\n";
  s += "#include <cuda_bf16.h>\n#include <cuda_fp16.h>\n";
  s += "#include \"cute_dsl/kernels/gemm_sm90.hpp\"\n#include \"cute_dsl/epilogue/epilogue.hpp\"\n\n";
  s += "struct cute_dsl_epilogue_args {\n";
  for (const GemmEpilogueField& f : gemm_epilogue_fields(program)) {
    const bool is_c = f.name == "c";
    bool is_output = false, is_reduction = false;
    for (const epilogue::Output& o : program.outputs)
      if (o.name == f.name) is_output = true, is_reduction = o.kind != OutKind::store;
    switch (f.kind) {
      case GemmEpilogueField::Kind::f32: s += "  float " + f.name + ";\n"; break;
      case GemmEpilogueField::Kind::leading_dimension: s += "  long long " + f.name + ";\n"; break;
      case GemmEpilogueField::Kind::pointer:
        if (is_c) s += "  const " + td + "* c;\n";
        else if (is_reduction) s += "  float* " + f.name + ";\n";
        else if (is_output) s += "  " + te + "* " + f.name + ";\n";
        else s += "  const " + te + "* " + f.name + ";\n";
        break;
    }
  }
  s += "};\n\n";
  s += "struct cute_dsl_epilogue_abs {\n"
       "  template <class V> __host__ __device__ V operator()(V x) const { return x < V(0) ? -x : x; }\n};\n";
  s += "struct cute_dsl_epilogue_first {  // D, after the other outputs were evaluated beside it\n"
       "  template <class V, class... Rest> __host__ __device__ V operator()(V d, Rest...) const { return d; }\n};\n\n";
  const std::string params = "cute_dsl::kernels::GemmSm90KernelParams<" + ta + ", " + td + ", " + std::to_string(config.tile_n) +
                             ", " + std::to_string(config.stages) + ", " + std::to_string(config.cluster_m) + ", " +
                             (config.ping_pong ? "true" : "false") + ", " + major(types.a_major) + ", " +
                             major(types.b_major) + ", " + std::to_string(config.tile_m) + ">";
  s += "__global__ void __launch_bounds__(cute_dsl::kernels::gemm_sm90_impl::kThreads, 1)\n";
  s += std::string(kGemmEpilogueKernel) + "(const __grid_constant__ " + params +
       " p, const __grid_constant__ cute_dsl_epilogue_args in) {\n";
  s += "  namespace ep = cute_dsl::epilogue;\n";
  const Emitter emit(program);
  std::string root = emit.node(program.outputs.front().root);
  if (program.outputs.size() > 1) {
    root = "ep::map(cute_dsl_epilogue_first{}, " + root;
    for (std::size_t i = 1; i < program.outputs.size(); ++i) root += ",\n      " + emit.output(program.outputs[i]);
    root += ")";
  }
  s += "  const auto tree = " + root + ";\n";
  // TMA loads, D not transposed, no split-K path (the JIT never splits), edge tiles as configured.
  s += "  cute_dsl::kernels::gemm_sm90_impl::run<" + ta + ", " + td + ", " + std::to_string(config.tile_n) + ", " +
       std::to_string(config.stages) + ", " + std::to_string(config.cluster_m) + ", " + (config.ping_pong ? "true" : "false") +
       ", " + major(types.a_major) + ", " + major(types.b_major) + ", " + std::to_string(config.tile_m) +
       ", true, cute_dsl::remove_cvref_t<decltype(tree)>, false, false, " + (config.edge_tiles ? "true" : "false") + ">(p, tree);\n";
  s += "}\n";

  KernelSpec spec;
  spec.source = std::move(s);
  spec.source_name = "gemm_epilogue.cu";
  spec.kernel = kGemmEpilogueKernel;
  return spec;
}

Expected<std::vector<unsigned char>, JitError> gemm_epilogue_arguments(const Program& program,
                                                                       const std::vector<GemmEpilogueBinding>& bindings) {
  auto error = [](std::string message) {
    return unexpected(JitError{JitErrorKind::invalid_option, "gemm epilogue: " + std::move(message), {}, {}, {}});
  };
  const std::vector<GemmEpilogueField> fields = gemm_epilogue_fields(program);
  for (const GemmEpilogueBinding& b : bindings) {
    bool taken = false;
    for (const GemmEpilogueField& f : fields) taken = taken || f.name == b.name;
    if (!taken) return error("no input or output of the program is named '" + b.name + "'");
  }
  std::vector<unsigned char> bytes;
  std::size_t align = 4;
  for (const GemmEpilogueField& f : fields) {
    using Kind = GemmEpilogueField::Kind;
    // A leading dimension comes from the binding of its tensor ("<name>_ld" -> "<name>").
    const std::string owner = f.kind == Kind::leading_dimension ? f.name.substr(0, f.name.size() - 3) : f.name;
    const GemmEpilogueBinding* b = nullptr;
    for (const GemmEpilogueBinding& x : bindings)
      if (x.name == owner) b = &x;
    if (!b) return error("'" + owner + "' has no binding");
    const std::size_t size = f.kind == Kind::f32 ? 4 : 8;
    align = size > align ? size : align;
    bytes.resize((bytes.size() + size - 1) / size * size);
    const std::size_t at = bytes.size();
    bytes.resize(at + size);
    if (f.kind == Kind::f32) {
      std::memcpy(bytes.data() + at, &b->value, 4);
    } else if (f.kind == Kind::pointer) {
      if (!b->pointer) return error("'" + owner + "' needs a device pointer");
      std::memcpy(bytes.data() + at, &b->pointer, 8);
    } else {
      if (b->ld < 1) return error("'" + owner + "' needs its leading dimension (ld >= 1)");
      std::memcpy(bytes.data() + at, &b->ld, 8);
    }
  }
  bytes.resize((bytes.size() + align - 1) / align * align);
  if (bytes.empty()) bytes.resize(1);  // an empty struct still has one byte
  return bytes;
}

Expected<Ok, JitError> launch_gemm_sm90_epilogue(LoadedKernel& kernel, const GemmSm90Types& types, const GemmSm90Config& config,
                                                 const Program& program, const GemmSm90Arguments& args,
                                                 const std::vector<GemmEpilogueBinding>& bindings, void* stream) {
  if (args.alpha != 1.f || args.beta != 0.f)
    return unexpected(JitError{JitErrorKind::invalid_option,
                               "gemm epilogue: alpha must be 1 and beta 0: the program stands for D (scale inside it, read C as `c`)",
                               {}, {}, {}});
  auto epilogue_args = gemm_epilogue_arguments(program, bindings);
  if (!epilogue_args) return unexpected(epilogue_args.error());
  auto setup = gemm_sm90_launch_setup(kernel, types, config, args, stream);
  if (!setup) return unexpected(setup.error());
  detail::CuLaunchConfig cu;
  detail::CuLaunchAttribute cluster;
  const std::size_t sizes[2] = {sizeof(setup->params), epilogue_args->size()};
  auto api = detail::build_launch_config(kernel, setup->config, sizes, 2, cu, cluster);
  if (!api) return unexpected(api.error());
  void* params[2] = {&setup->params, epilogue_args->data()};
  if (auto r = (*api)->launch_kernel_ex(&cu, kernel.function(), params, nullptr); r != 0)
    return unexpected(detail::driver_error("cuLaunchKernelEx", r));
  return Ok{};
}

}  // namespace cute_dsl::jit
