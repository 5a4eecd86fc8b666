#include "cute_dsl/jit/error.hpp"

namespace cute_dsl::jit {

std::string_view to_string(JitErrorKind kind) {
  switch (kind) {
    case JitErrorKind::invalid_spec: return "invalid kernel spec";
    case JitErrorKind::invalid_option: return "invalid option";
    case JitErrorKind::missing_headers: return "missing headers";
    case JitErrorKind::compile: return "compile error";
    case JitErrorKind::nvrtc: return "NVRTC error";
    case JitErrorKind::link: return "link error";
    case JitErrorKind::hook: return "rejected by a hook";
    case JitErrorKind::no_driver: return "no CUDA driver";
    case JitErrorKind::no_device: return "no CUDA device";
    case JitErrorKind::driver: return "CUDA driver error";
    case JitErrorKind::cache: return "cache error";
    case JitErrorKind::io: return "I/O error";
  }
  return "error";
}

std::string JitError::describe() const {
  std::string out;
  out.append(to_string(kind)).append(": ").append(message).append("\n");
  if (!log.empty()) {
    out += log;
    if (log.back() != '\n') out += '\n';
  }
  if (!options.empty()) out.append("options: ").append(options).append("\n");
  if (!hint.empty()) out.append("hint: ").append(hint).append("\n");
  return out;
}

}  // namespace cute_dsl::jit
