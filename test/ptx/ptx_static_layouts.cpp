// Static layouts are free: compiled with NVRTC to PTX, a kernel that evaluates a static layout
// (or a static composition or logical_divide) at a static coordinate must store the answer as
// an immediate constant, with no arithmetic instruction at all in the kernel body. A negative
// control, the same layout at a run-time coordinate, must show arithmetic, so the check can fail.
//
// Expected values are worked out by hand from the definitions (comments below), independently
// of the library's algebra.
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "nvrtc_compile.hpp"

namespace {

const char* const kPrelude =
    "#include <cute_dsl/cute_dsl.hpp>\n"
    "using namespace cute_dsl;\n";

struct Case {
  const char* name;
  const char* body;     // body of `extern "C" __global__ void kernel(int* out, const int* in)`
  bool is_static;       // static: immediate `expected`, no arithmetic; dynamic: arithmetic present
  long long expected;
};

const Case kCases[] = {
    // (4,8):(8,1) at (3,5): 3*8 + 5*1 = 29.
    {"static layout, static coordinate",
     "auto L = make_layout(make_shape(Int<4>{}, Int<8>{}), make_stride(Int<8>{}, Int<1>{}));\n"
     "out[0] = L(make_coord(Int<3>{}, Int<5>{}));\n",
     true, 29},
    // R = A o B with A = (4,8):(8,1), B = (4,4):(2,8). R(5) = A(B(5)); B(5) = 1*2 + 1*8 = 10;
    // A(10) = A at (10%4, 10/4) = (2,2) -> 2*8 + 2 = 18.
    {"static composition, static coordinate",
     "auto A = make_layout(make_shape(Int<4>{}, Int<8>{}), make_stride(Int<8>{}, Int<1>{}));\n"
     "auto B = make_layout(make_shape(Int<4>{}, Int<4>{}), make_stride(Int<2>{}, Int<8>{}));\n"
     "auto R = composition(A, B);\n"
     "out[0] = R(Int<5>{});\n",
     true, 18},
    // logical_divide(A, 4:2) = A o (4:2, complement(4:2, 32)) = A o (4:2, (2,4):(1,8)).
    // At 13: first mode 13%4 = 1 -> 2; rest 13/4 = 3 -> (1,1) -> 1 + 8 = 9; A(11) = (3,2) -> 26.
    {"static logical_divide, static coordinate",
     "auto A = make_layout(make_shape(Int<4>{}, Int<8>{}), make_stride(Int<8>{}, Int<1>{}));\n"
     "auto D = logical_divide(A, make_layout(Int<4>{}, Int<2>{}));\n"
     "out[0] = D(Int<13>{});\n",
     true, 26},
    // Negative control: the same layout at a run-time coordinate needs a multiply-add.
    {"negative control: static layout, run-time coordinate",
     "auto L = make_layout(make_shape(Int<4>{}, Int<8>{}), make_stride(Int<8>{}, Int<1>{}));\n"
     "out[0] = L(make_coord(in[0], in[1]));\n",
     false, 0},
};

// The instructions between the braces of `.entry kernel(...) { ... }`, one per element.
std::vector<std::string> kernel_instructions(const std::string& ptx, const std::string& kernel) {
  std::vector<std::string> out;
  const size_t entry = ptx.find(".entry " + kernel);
  if (entry == std::string::npos) return out;
  const size_t open = ptx.find('{', entry);
  int depth = 0;
  std::string line;
  std::istringstream in(ptx.substr(open));
  while (std::getline(in, line)) {
    for (char c : line) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    const size_t first = line.find_first_not_of(" \t{");
    if (first != std::string::npos) {
      std::string text = line.substr(first);
      // Keep instructions; drop declarations (.reg, .local), labels, comments and braces.
      if (text[0] != '.' && text[0] != '/' && text[0] != '}' && text.back() == ';') out.push_back(text);
    }
    if (depth == 0) break;
  }
  return out;
}

// The opcode of an instruction, without its predicate: "mad.lo.s32 %r3, ..." -> "mad".
std::string opcode(const std::string& instruction) {
  std::string s = instruction;
  if (s[0] == '@') s = s.substr(s.find(' ') + 1);
  return s.substr(0, s.find_first_of(". \t"));
}

bool is_arithmetic(const std::string& op) {
  static const char* const kOps[] = {"add", "sub", "mul", "mad", "mul24", "mad24", "fma", "shl",
                                     "shr", "div", "rem", "neg", "min", "max", "and", "or", "xor",
                                     "not", "shf", "bfe", "bfi", "sad", "abs", "popc", "clz"};
  for (const char* k : kOps)
    if (op == k) return true;
  return false;
}

// Is `expected` the value stored by the kernel's st.global: either as an immediate operand,
// or through a register set by `mov` from that immediate?
bool stores_immediate(const std::vector<std::string>& body, long long expected) {
  static const std::regex store(R"(^st\.global\.[a-z0-9.]+\s+\[[^\]]+\],\s*([^;\s]+);)");
  static const std::regex move(R"(^mov\.[a-z0-9]+\s+([^,\s]+),\s*([^;\s]+);)");
  auto is_value = [&](const std::string& operand) {
    if (operand.empty() || !(std::isdigit(static_cast<unsigned char>(operand[0])) || operand[0] == '-')) return false;
    return std::strtoll(operand.c_str(), nullptr, 0) == expected;
  };
  for (const auto& instruction : body) {
    std::smatch s;
    if (!std::regex_search(instruction, s, store)) continue;
    const std::string value = s[1];
    if (is_value(value)) return true;
    for (const auto& other : body) {
      std::smatch m;
      if (std::regex_search(other, m, move) && m[1] == value && is_value(m[2])) return true;
    }
  }
  return false;
}

}  // namespace

int main() {
  const auto options = cute_dsl_test::nvrtc_default_options(cute_dsl_test::kNvrtcArch, /*virtual_arch=*/true);
  int failures = 0;
  for (const auto& c : kCases) {
    const std::string source = std::string(kPrelude) +
        "extern \"C\" __global__ void kernel(int* out, const int* in) {\n" + c.body + "}\n";
    const auto result = cute_dsl_test::nvrtc_compile(source, "ptx_case.cu", options, /*want_ptx=*/true);
    std::vector<std::string> body;
    std::vector<std::string> arithmetic;
    bool ok = result.ok;
    std::string why = ok ? "" : "NVRTC failed:\n" + result.log;
    if (ok) {
      body = kernel_instructions(result.ptx, "kernel");
      for (const auto& i : body)
        if (is_arithmetic(opcode(i))) arithmetic.push_back(i);
      if (body.empty()) {
        ok = false;
        why = "no kernel body found in the PTX";
      } else if (c.is_static && !arithmetic.empty()) {
        ok = false;
        why = "run-time arithmetic in a static evaluation: " + arithmetic.front();
      } else if (c.is_static && !stores_immediate(body, c.expected)) {
        ok = false;
        why = "the immediate " + std::to_string(c.expected) + " is not what the kernel stores";
      } else if (!c.is_static && arithmetic.empty()) {
        ok = false;
        why = "the negative control shows no arithmetic: the check cannot tell static from dynamic";
      }
    }
    std::printf("%-56s %s (%zu instructions, %zu arithmetic)\n", c.name, ok ? "ok" : "FAILED",
                body.size(), arithmetic.size());
    if (!ok) {
      ++failures;
      std::printf("  %s\n  kernel:\n%s", why.c_str(), source.c_str());
      for (const auto& i : body) std::printf("    %s\n", i.c_str());
    }
  }
  return failures == 0 ? 0 : 1;
}
