#include "cute_dsl/jit/kernel_spec.hpp"

#include "cute_dsl/runtime/layout.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>

namespace cute_dsl::jit {

namespace {

struct TypeRow {
  ElementType type;
  std::string_view name;    // our spelling
  std::string_view alias;   // accepted too
  std::string_view cpp;     // what NVRTC sees
  std::string_view header;  // CUDA header that defines it
};

constexpr TypeRow kTypes[] = {
    {ElementType::f16, "f16", "half", "__half", "cuda_fp16.h"},
    {ElementType::bf16, "bf16", "bfloat16", "__nv_bfloat16", "cuda_bf16.h"},
    {ElementType::f32, "f32", "float", "float", ""},
    {ElementType::f64, "f64", "double", "double", ""},
    {ElementType::i8, "i8", "int8", "signed char", ""},
    {ElementType::i16, "i16", "int16", "short", ""},
    {ElementType::i32, "i32", "int32", "int", ""},
    {ElementType::i64, "i64", "int64", "long long", ""},
    {ElementType::u8, "u8", "uint8", "unsigned char", ""},
    {ElementType::u16, "u16", "uint16", "unsigned short", ""},
    {ElementType::u32, "u32", "uint32", "unsigned int", ""},
    {ElementType::u64, "u64", "uint64", "unsigned long long", ""},
    {ElementType::f8_e4m3, "f8e4m3", "fp8_e4m3", "__nv_fp8_e4m3", "cuda_fp8.h"},
    {ElementType::f8_e5m2, "f8e5m2", "fp8_e5m2", "__nv_fp8_e5m2", "cuda_fp8.h"},
};

const TypeRow& row(ElementType t) {
  for (const TypeRow& r : kTypes)
    if (r.type == t) return r;
  return kTypes[2];
}

JitError spec_error(std::string message, std::string hint = {}) {
  return JitError{JitErrorKind::invalid_spec, std::move(message), {}, {}, std::move(hint)};
}

// C<v> for a leaf value; tuples of the subtree at `node` for shapes (field 0) or strides (1).
void append_static(std::string& out, const tree::Tree& t, int node, int field) {
  if (t.is_leaf(node)) {
    const tree::index_t v = field == 0 ? t.nodes[node].shape : t.nodes[node].stride;
    out += "cute_dsl::C<";
    out += std::to_string(v);
    if (v > 2147483647LL || v < -2147483647LL - 1) out += "LL";
    out += '>';
    return;
  }
  out += "cute_dsl::tuple<";
  for (int k = 0; k < t.rank(node); ++k) {
    if (k) out += ", ";
    append_static(out, t, t.child(node, k), field);
  }
  out += '>';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string_view to_string(ElementType t) { return row(t).name; }
std::string_view cpp_type_name(ElementType t) { return row(t).cpp; }

Expected<ElementType, JitError> parse_element_type(std::string_view name) {
  for (const TypeRow& r : kTypes)
    if (name == r.name || name == r.alias) return r.type;
  return unexpected(spec_error("unknown element type '" + std::string(name) + "'",
                               "element types: f16 bf16 f32 f64 i8 i16 i32 i64 u8 u16 u32 u64 f8e4m3 f8e5m2"));
}

TemplateArg TemplateArg::type(ElementType t) {
  TemplateArg a;
  a.cpp_ = std::string(row(t).cpp);
  a.header_ = row(t).header;
  return a;
}

TemplateArg TemplateArg::integer(std::int64_t v) {
  TemplateArg a;
  a.cpp_ = std::to_string(v);
  if (v > 2147483647LL || v < -2147483647LL - 1) a.cpp_ += "LL";
  return a;
}

TemplateArg TemplateArg::boolean(bool v) {
  TemplateArg a;
  a.cpp_ = v ? "true" : "false";
  return a;
}

TemplateArg TemplateArg::layout(const tree::Tree& t) {
  TemplateArg a;
  a.cpp_ = "cute_dsl::Layout<";
  append_static(a.cpp_, t, 0, 0);
  a.cpp_ += ", ";
  append_static(a.cpp_, t, 0, 1);
  a.cpp_ += '>';
  return a;
}

TemplateArg TemplateArg::layout(const runtime::Layout& l) { return layout(l.tree()); }

TemplateArg TemplateArg::raw(std::string cpp) {
  TemplateArg a;
  a.cpp_ = std::move(cpp);
  return a;
}

TemplateArg TemplateArg::restore(std::string cpp, std::string_view required_header) {
  TemplateArg a;
  a.cpp_ = std::move(cpp);
  for (const TypeRow& r : kTypes)
    if (!required_header.empty() && r.header == required_header) a.header_ = r.header;  // static storage
  return a;
}

Expected<std::vector<TemplateArg>, JitError> parse_template_args(std::string_view text) {
  std::vector<TemplateArg> args;
  // Split at top-level commas: layouts contain commas inside parentheses.
  std::vector<std::string_view> items;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ',';
    if (c == '(' || c == '<' || c == '[') ++depth;
    if (c == ')' || c == '>' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      items.push_back(trim(text.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (items.size() == 1 && items[0].empty()) return args;  // no arguments at all
  for (std::string_view item : items) {
    if (item.empty()) return unexpected(spec_error("empty template argument in '" + std::string(text) + "'"));
    if (item.starts_with("type:")) {
      args.push_back(TemplateArg::raw(std::string(trim(item.substr(5)))));
      continue;
    }
    if (item == "true" || item == "false") {
      args.push_back(TemplateArg::boolean(item == "true"));
      continue;
    }
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (ec == std::errc() && end == item.data() + item.size()) {
      args.push_back(TemplateArg::integer(v));
      continue;
    }
    if (item.find(':') != std::string_view::npos || item.front() == '(') {
      try {
        args.push_back(TemplateArg::layout(runtime::Layout::parse(item)));
      } catch (const std::exception& e) {
        return unexpected(spec_error("template argument '" + std::string(item) + "' is not a layout: " + e.what()));
      }
      continue;
    }
    auto t = parse_element_type(item);
    if (!t)
      return unexpected(spec_error("template argument '" + std::string(item) +
                                       "' is neither an element type, an integer, a layout nor type:<C++>",
                                   t.error().hint));
    args.push_back(TemplateArg::type(*t));
  }
  return args;
}

std::string KernelSpec::name_expression() const {
  std::string out = kernel;
  if (template_args.empty()) return out;
  out += '<';
  for (std::size_t i = 0; i < template_args.size(); ++i) {
    if (i) out += ", ";
    out += template_args[i].cpp();
  }
  out += (out.back() == '>' ? " >" : ">");
  return out;
}

void KernelSpec::hash_into(Hasher& h) const {
  h.add(header).add(source).add(source_name).add(kernel);
  h.add(static_cast<std::uint64_t>(template_args.size()));
  for (const TemplateArg& a : template_args) h.add(a.cpp());
  h.add(static_cast<std::uint64_t>(headers.size()));
  for (const InMemoryHeader& hd : headers) h.add(hd.name).add(hd.contents);
}

bool is_kernel_name(std::string_view kernel) {
  if (kernel.starts_with("::")) kernel.remove_prefix(2);
  for (;;) {
    const auto end = std::min(kernel.find("::"), kernel.size());
    const std::string_view part = kernel.substr(0, end);
    auto word = [](unsigned char c) { return std::isalnum(c) || c == '_'; };
    if (part.empty() || std::isdigit(static_cast<unsigned char>(part[0])) || !std::all_of(part.begin(), part.end(), word))
      return false;
    if (end == kernel.size()) return true;
    kernel.remove_prefix(end + 2);
  }
}

Expected<InMemoryHeader, JitError> load_header_file(const std::string& path) {
  auto fail = [&](std::string why, std::string hint = {}) {
    return unexpected(JitError{JitErrorKind::io, "cannot read '" + path + "': " + std::move(why), {}, {}, std::move(hint)});
  };
  // O_NONBLOCK: opening a FIFO that has no writer would wait for one forever; without a writer
  // the read below then sees end-of-file at once, reported as an empty file.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return fail(std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st{};
  if (::fstat(fd, &st) != 0) return fail(std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return fail("it is a directory, not a file");
  const bool fifo = S_ISFIFO(st.st_mode);
  if (const int flags = ::fcntl(fd, F_GETFL); flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  // Bounded: /dev/zero or a runaway generator must not read until memory runs out.
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(std::strerror(errno));
    if (n == 0) break;
    if (text.size() + static_cast<std::size_t>(n) > kMaxHeaderFileBytes)
      return fail("larger than " + std::to_string(kMaxHeaderFileBytes >> 20) + " MiB, the most a header or source may be");
    text.append(buffer, static_cast<std::size_t>(n));
  }
  if (text.empty())
    return fail(fifo ? "a FIFO with no writer (nothing to read)" : "the file is empty");
  // NVRTC takes sources as C strings: a NUL byte would silently end the text there.
  if (const auto nul = text.find('\0'); nul != std::string::npos)
    return fail("a NUL byte at offset " + std::to_string(nul) + ": not a text file");
  const auto slash = path.find_last_of('/');
  return InMemoryHeader{slash == std::string::npos ? path : path.substr(slash + 1), std::move(text), path};
}

}  // namespace cute_dsl::jit
