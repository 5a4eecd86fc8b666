// Child processes, for the tools the JIT runs (cuobjdump, nvdisasm) and warmup()'s workers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cute_dsl::jit::detail {

// The first executable `name` among: PATH, $CUDA_HOME/bin, $CUDA_PATH/bin, the toolkit found when
// the library was built. Empty when none.
std::string find_program(std::string_view name);

// Runs argv[0] (a path) with `argv`, stdin from /dev/null, stdout into `stdout_path` (created or
// truncated), stderr inherited unless `quiet`. Returns the exit status, or -1 when it could not
// start or died of a signal.
int run_program(const std::vector<std::string>& argv, const std::string& stdout_path, bool quiet = true);

}  // namespace cute_dsl::jit::detail
