// The non-template half of launch.hpp: checking a LaunchConfig and building the driver's.
#include "cute_dsl/jit/launch.hpp"

#include <string>

namespace cute_dsl::jit::detail {

namespace {
Expected<Ok, JitError> check_argument_sizes(LoadedKernel& kernel, const std::size_t* sizes, std::size_t count) {
  const auto& expected = kernel.parameter_sizes();
  if (!expected) return Ok{};  // a driver before 12.4 cannot tell
  auto mismatch = [](std::string message) {
    return unexpected(JitError{JitErrorKind::invalid_option, std::move(message), {}, {},
                               "pass the kernel's own parameter types, in order (float, not double; int, not long)"});
  };
  if (expected->size() != count)
    return mismatch("launch: " + std::to_string(count) + " argument" + (count == 1 ? "" : "s") + " for a kernel with " +
                    std::to_string(expected->size()) + " parameter" + (expected->size() == 1 ? "" : "s"));
  for (std::size_t i = 0; i < count; ++i)
    if (sizes[i] != (*expected)[i])
      return mismatch("launch: argument " + std::to_string(i) + " is " + std::to_string(sizes[i]) +
                      " bytes, the kernel's parameter " + std::to_string(i) + " is " + std::to_string((*expected)[i]) +
                      " bytes");
  return Ok{};
}
}  // namespace

Expected<const DriverApi*, JitError> build_launch_config(LoadedKernel& kernel, const LaunchConfig& config,
                                                         const std::size_t* arg_sizes, std::size_t arg_count,
                                                         CuLaunchConfig& out, CuLaunchAttribute& cluster) {
  auto api = driver_api();
  if (!api) return unexpected(api.error());
  auto invalid = [](std::string message) {
    return unexpected(JitError{JitErrorKind::invalid_option, std::move(message), {}, {}, {}});
  };
  auto empty = [](Dim3 d) { return d.x == 0 || d.y == 0 || d.z == 0; };
  if (empty(config.grid) || empty(config.block) || empty(config.cluster))
    return invalid("launch: grid, block and cluster dimensions must all be at least 1");
  if (config.grid.x % config.cluster.x || config.grid.y % config.cluster.y || config.grid.z % config.cluster.z)
    return invalid("launch: the grid must be a multiple of the cluster in every dimension");
  if (auto r = check_argument_sizes(kernel, arg_sizes, arg_count); !r) return unexpected(r.error());
  if (auto r = kernel.reserve_dynamic_shared(config.dynamic_smem_bytes); !r) return unexpected(r.error());
  out = CuLaunchConfig{config.grid.x,  config.grid.y,  config.grid.z,
                       config.block.x, config.block.y, config.block.z,
                       config.dynamic_smem_bytes, config.stream, nullptr, 0};
  if (config.cluster.x * config.cluster.y * config.cluster.z != 1) {
    cluster = CuLaunchAttribute{};
    cluster.id = kLaunchAttributeClusterDimension;
    cluster.value.dim = {config.cluster.x, config.cluster.y, config.cluster.z};
    out.attrs = &cluster;
    out.num_attrs = 1;
  }
  return api;
}

}  // namespace cute_dsl::jit::detail
