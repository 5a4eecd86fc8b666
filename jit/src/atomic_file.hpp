// Files written whole or not at all: what the disk cache's entries and the AOT export's outputs
// need (a reader, or a build interrupted halfway, sees the old file or the new one).
#pragma once

#include <string>

namespace cute_dsl::jit::detail {

// Writes all of `bytes` to a new file `path` (O_EXCL), then fsyncs it. Returns "" or why not.
std::string write_new_file(const std::string& path, const std::string& bytes);

// ".tmp.<pid>.<n>.<random>": a temporary name no other thread or process picks.
std::string unique_suffix();

// write_new_file to path + unique_suffix(), then rename() over `path`. Returns "" or why not.
std::string replace_file(const std::string& path, const std::string& bytes);

}  // namespace cute_dsl::jit::detail
