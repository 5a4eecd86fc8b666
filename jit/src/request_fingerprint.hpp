// The memory cache's key: a fingerprint of a compile request, made for the hot path.
//
// It reads the spec's and the options' fields in place (no string is built, nothing allocated)
// with a two-lane multiply-fold hash (wyhash's 64x64->128 "mum" step) that consumes 16 bytes per
// multiply. What it leaves out is the bulk text: the spec's `source` and its headers' contents
// enter only by their sizes, and the memory level compares them byte for byte on a hit instead
// (memcmp runs many times faster than any hash). The disk keeps the full content key
// (compile.cpp), which hashes everything, once per miss.
#pragma once

#include "cute_dsl/jit/error.hpp"
#include "cute_dsl/jit/expected.hpp"
#include "cute_dsl/jit/hash.hpp"
#include "cute_dsl/jit/kernel_spec.hpp"
#include "cute_dsl/jit/options.hpp"

#include <string>
#include <string_view>

namespace cute_dsl::jit::detail {

// The process's one resolution of the arch "auto" (compile.cpp), shared by compile() and warmup()
// so that both use the same arch even if CUTE_DSL_ARCH changes later.
const Expected<std::string, JitError>& auto_arch();

// `auto_arch` is the process's resolution of "auto" (empty when it failed), mixed in when the
// options ask for "auto", so that CUTE_DSL_ARCH read at start-up is part of the key.
Hash128 request_fingerprint(const KernelSpec& spec, const CompileOptions& options, std::string_view auto_arch);

// True when the bulk text the fingerprint leaves out is equal (the memory level's check on a hit).
bool same_bulk_text(const KernelSpec& a, const KernelSpec& b);
// A content hash of that text (the full-strength Hasher): computed when an entry is stored and
// when a spec is prepared, so that a prepared lookup compares 16 bytes instead.
Hash128 bulk_hash(const KernelSpec& spec);

}  // namespace cute_dsl::jit::detail
