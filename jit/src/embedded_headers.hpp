// The library's headers, compiled into CuteDSL::jit by jit/tools/embed_headers.cpp.
#pragma once

#include "cute_dsl/jit/hash.hpp"

#include <cstddef>
#include <string_view>

namespace cute_dsl::jit::detail {

struct EmbeddedHeader {
  std::string_view name;      // include name: "cute_dsl/layout/layout.hpp"
  std::string_view contents;
};

extern const EmbeddedHeader kEmbeddedHeaders[];
extern const std::size_t kEmbeddedHeaderCount;

// Hash of every embedded name and content, computed once: part of every content key.
const Hash128& embedded_headers_hash();

}  // namespace cute_dsl::jit::detail
