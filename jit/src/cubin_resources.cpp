// Resource usage read from a CUBIN's ELF sections, so that the report needs no GPU, no driver
// and no cuobjdump (which a runtime-only install lacks). Where each figure lives:
//   symbol         .text.<kernel>: low 24 bits of sh_info (the kernel's symbol index)
//   registers      .nv.info: EIATTR_REGCOUNT (0x2f) for that symbol (CUDA 13); older ptxas put
//                  them in bits 24..31 of the .text section's sh_info
//   local (stack)  .nv.info: EIATTR_FRAME_SIZE (0x11) for that symbol
//   static shared  .nv.shared.<kernel>: sh_size (absent when the kernel uses none)
//   max threads    .nv.info.<kernel>: EIATTR_MAX_THREADS (0x05), from __launch_bounds__
//   parameters     .nv.info.<kernel>: one EIATTR_KPARAM_INFO (0x17) each: u32 index, u16 ordinal,
//                  u16 offset, u32 flags whose bits 18..31 are the size
// These are the layouts ptxas has written since CUDA 9; the tests check them against kernels
// with known resources, and the GPU tests against cuFuncGetAttribute.
#include "cute_dsl/jit/compiled_kernel.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

namespace cute_dsl::jit {

namespace {

template <class T>
bool read_at(std::string_view bytes, std::uint64_t at, T& out) {
  if (at > bytes.size() || bytes.size() - at < sizeof(T)) return false;
  std::memcpy(&out, bytes.data() + at, sizeof(T));
  return true;
}

struct Section {
  std::string_view name;
  std::uint64_t offset = 0, size = 0;
  std::uint32_t info = 0, type = 0;
};

constexpr std::uint8_t kFormatNoValue = 0x01, kFormatByte = 0x02, kFormatHalf = 0x03, kFormatSized = 0x04;
constexpr std::uint8_t kAttrMaxThreads = 0x05, kAttrFrameSize = 0x11, kAttrParamInfo = 0x17, kAttrRegCount = 0x2f;
constexpr std::uint32_t kSectionNoBits = 8;  // SHT_NOBITS: .nv.shared has a size but no bytes

JitError bad(std::string why) { return JitError{JitErrorKind::invalid_spec, "not a readable CUBIN: " + why, {}, {}, {}}; }

}  // namespace

Expected<ResourceUsage, JitError> read_resource_usage(std::string_view cubin, std::string_view lowered_name) {
  if (cubin.size() < 64 || cubin.substr(0, 4) != std::string_view("\x7f" "ELF", 4) || cubin[4] != 2)
    return unexpected(bad("no 64-bit ELF header (PTX output has no resource figures)"));
  std::uint64_t shoff = 0;
  std::uint16_t shentsize = 0, shnum = 0, shstrndx = 0;
  read_at(cubin, 0x28, shoff);
  read_at(cubin, 0x3A, shentsize);
  read_at(cubin, 0x3C, shnum);
  read_at(cubin, 0x3E, shstrndx);
  if (shentsize < 64 || shstrndx >= shnum) return unexpected(bad("section table"));

  auto section = [&](std::uint16_t i, Section& s, std::uint32_t& name_offset) {
    const std::uint64_t at = shoff + std::uint64_t{i} * shentsize;
    return read_at(cubin, at + 0, name_offset) && read_at(cubin, at + 4, s.type) && read_at(cubin, at + 24, s.offset) &&
           read_at(cubin, at + 32, s.size) && read_at(cubin, at + 44, s.info);
  };
  Section strtab;
  std::uint32_t ignored = 0;
  if (!section(shstrndx, strtab, ignored) || strtab.offset > cubin.size() || cubin.size() - strtab.offset < strtab.size)
    return unexpected(bad("section name table"));
  const std::string_view names = cubin.substr(strtab.offset, strtab.size);

  ResourceUsage usage;
  bool found_text = false;
  std::uint32_t symbol = 0;
  std::string_view global_info, kernel_info;
  for (std::uint16_t i = 0; i < shnum; ++i) {
    Section s;
    std::uint32_t name_offset = 0;
    if (!section(i, s, name_offset) || name_offset >= names.size()) return unexpected(bad("section header"));
    const std::string_view name = names.substr(name_offset, names.find('\0', name_offset) - name_offset);
    auto is = [&](std::string_view prefix) {
      return name.size() == prefix.size() + lowered_name.size() && name.starts_with(prefix) && name.ends_with(lowered_name);
    };
    auto contents = [&]() -> std::string_view {
      if (s.type == kSectionNoBits || s.offset > cubin.size() || cubin.size() - s.offset < s.size) return {};
      return cubin.substr(s.offset, s.size);
    };
    if (is(".text.")) {
      found_text = true;
      symbol = s.info & 0xffffffu;
      usage.registers = static_cast<int>(s.info >> 24);  // older ptxas; newer ones use EIATTR_REGCOUNT
    } else if (is(".nv.shared.")) {
      usage.shared_bytes = static_cast<long long>(s.size);
    } else if (is(".nv.info.")) {
      kernel_info = contents();
    } else if (name == ".nv.info") {
      global_info = contents();
    }
  }
  if (!found_text) return unexpected(bad("no code section for " + std::string(lowered_name)));
  std::vector<std::pair<std::uint16_t, KernelParameter>> parameters;  // (ordinal, parameter)
  // Attributes: (format u8, attribute u8, then 2 bytes of value, or a u16 size and that many bytes).
  auto walk = [&](std::string_view info, bool keyed_by_symbol) {
    std::size_t at = 0;
    while (at + 4 <= info.size()) {
      const auto format = static_cast<std::uint8_t>(info[at]);
      const auto attr = static_cast<std::uint8_t>(info[at + 1]);
      if (format == kFormatNoValue || format == kFormatByte || format == kFormatHalf) {
        at += 4;
        continue;
      }
      if (format != kFormatSized) break;  // unknown format: stop rather than misread
      std::uint16_t size = 0;
      read_at(info, at + 2, size);
      const std::string_view value = info.substr(at + 4, size);
      std::uint32_t first = 0, second = 0;
      const bool pair = read_at(value, 0, first) && read_at(value, 4, second);
      const bool ours = !keyed_by_symbol || (pair && first == symbol);
      if (ours && pair && attr == kAttrRegCount) usage.registers = static_cast<int>(second);
      if (ours && pair && attr == kAttrFrameSize) usage.local_bytes = second;
      if (!keyed_by_symbol && attr == kAttrMaxThreads && read_at(value, 0, first)) {
        std::uint32_t y = 1, z = 1;
        read_at(value, 4, y);
        read_at(value, 8, z);
        usage.max_threads = static_cast<int>(first * y * z);
      }
      std::uint16_t ordinal = 0, offset = 0;
      std::uint32_t flags = 0;
      if (!keyed_by_symbol && attr == kAttrParamInfo && read_at(value, 4, ordinal) && read_at(value, 6, offset) &&
          read_at(value, 8, flags))
        parameters.push_back({ordinal, KernelParameter{offset, static_cast<int>((flags >> 18) & 0x3fff)}});
      at += 4 + size;
    }
  };
  walk(global_info, true);
  walk(kernel_info, false);
  std::sort(parameters.begin(), parameters.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  for (const auto& p : parameters) usage.parameters.push_back(p.second);
  return usage;
}
}  // namespace cute_dsl::jit
