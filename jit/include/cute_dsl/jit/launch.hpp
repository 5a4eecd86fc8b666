// Launching a LoadedKernel through cuLaunchKernelEx: grid, block, cluster, dynamic shared memory
// (the kernel's limit raised above 48 KiB when asked), stream.
//
//   launch(kernel, config, args...)          one-off: packs the arguments' addresses once
//   prepare_launch(kernel, config, args...)  a PreparedLaunch for hot loops: the arguments, the
//                                            CUlaunchConfig and its attributes built once; each
//                                            launch() is one cuLaunchKernelEx call
//
// Arguments are passed by value, exactly as the kernel's parameters are laid out: pass the
// kernel's own parameter types (a device pointer as T* or CUdeviceptr, `float` not `double`).
// The driver copies the values at the call, so they may change right after it. Where the driver
// reports parameter sizes (cuFuncGetParamInfo, CUDA 12.4+), a wrong count or size is an error
// before anything is launched (a double for a float parameter would otherwise shift the rest).
#pragma once

#include "cute_dsl/jit/detail/driver_api.hpp"
#include "cute_dsl/jit/error.hpp"
#include "cute_dsl/jit/expected.hpp"
#include "cute_dsl/jit/loaded_kernel.hpp"

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace cute_dsl::jit {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  Dim3 cluster;                     // {1,1,1}: no cluster attribute (sm_90+ otherwise)
  unsigned dynamic_smem_bytes = 0;  // above 48 KiB, the kernel's limit is raised first
  void* stream = nullptr;           // a CUstream; null: the context's default stream
};

namespace detail {
// Validates `config` and the arguments' sizes (against cuFuncGetParamInfo, where the driver has
// it), raises the kernel's dynamic shared memory limit when needed and fills the driver's config
// (attrs pointing at `cluster`, when a cluster is asked for).
Expected<const DriverApi*, JitError> build_launch_config(LoadedKernel& kernel, const LaunchConfig& config,
                                                         const std::size_t* arg_sizes, std::size_t arg_count,
                                                         CuLaunchConfig& out, CuLaunchAttribute& cluster);

template <class T>
constexpr void check_argument() {
  static_assert(std::is_trivially_copyable_v<T>, "kernel arguments are copied bytewise: use trivially copyable types");
}
}  // namespace detail

template <class... Args>
Expected<Ok, JitError> launch(LoadedKernel& kernel, const LaunchConfig& config, const Args&... args) {
  (detail::check_argument<Args>(), ...);
  detail::CuLaunchConfig cu;
  detail::CuLaunchAttribute cluster;
  const std::size_t sizes[sizeof...(Args) + 1] = {sizeof(Args)...};
  auto api = detail::build_launch_config(kernel, config, sizes, sizeof...(Args), cu, cluster);
  if (!api) return unexpected(api.error());
  // The driver only reads through these pointers; its signature is not const-correct.
  void* params[sizeof...(Args) + 1] = {const_cast<void*>(static_cast<const void*>(&args))...};
  if (auto r = (*api)->launch_kernel_ex(&cu, kernel.function(), params, nullptr); r != 0)
    return unexpected(detail::driver_error("cuLaunchKernelEx", r));
  return Ok{};
}

template <class... Args>
class PreparedLaunch {
 public:
  PreparedLaunch(const PreparedLaunch& other)
      : args_(other.args_), config_(other.config_), cluster_(other.cluster_), function_(other.function_),
        launch_ex_(other.launch_ex_) {
    bind();
  }
  PreparedLaunch& operator=(const PreparedLaunch& other) {
    args_ = other.args_;
    config_ = other.config_;
    cluster_ = other.cluster_;
    function_ = other.function_;
    launch_ex_ = other.launch_ex_;
    bind();
    return *this;
  }

  // The stored arguments, to update in place between launches.
  std::tuple<Args...>& args() { return args_; }
  template <std::size_t I>
  auto& arg() { return std::get<I>(args_); }
  template <std::size_t I, class V>
  void set(V&& value) { std::get<I>(args_) = std::forward<V>(value); }

  // Grid and stream may change without touching the kernel's limits; block, cluster and shared
  // memory need a new prepare_launch (they are validated there).
  void set_grid(Dim3 grid) { config_.grid_x = grid.x; config_.grid_y = grid.y; config_.grid_z = grid.z; }
  void set_stream(void* stream) { config_.stream = stream; }

  // One cuLaunchKernelEx call; nothing else on the success path.
  Expected<Ok, JitError> launch() {
    if (const detail::CuResult r = launch_ex_(&config_, function_, params_, nullptr); r != 0) [[unlikely]]
      return unexpected(detail::driver_error("cuLaunchKernelEx", r));
    return Ok{};
  }

 private:
  template <class... A>
  friend Expected<PreparedLaunch<std::decay_t<A>...>, JitError> prepare_launch(LoadedKernel&, const LaunchConfig&,
                                                                              A&&...);
  PreparedLaunch(std::tuple<Args...> args, const detail::CuLaunchConfig& config,
                 const detail::CuLaunchAttribute& cluster, detail::CuFunction function,
                 decltype(detail::DriverApi::launch_kernel_ex) launch_ex)
      : args_(std::move(args)), config_(config), cluster_(cluster), function_(function), launch_ex_(launch_ex) {
    bind();
  }
  // params_ and config_.attrs point into this object: set again after every copy.
  void bind() {
    std::apply([this](auto&... a) {
      std::size_t i = 0;
      ((params_[i++] = static_cast<void*>(&a)), ...);
    }, args_);
    if (config_.num_attrs) config_.attrs = &cluster_;
  }

  std::tuple<Args...> args_;
  void* params_[sizeof...(Args) + 1] = {};
  detail::CuLaunchConfig config_;
  detail::CuLaunchAttribute cluster_;
  detail::CuFunction function_ = nullptr;
  decltype(detail::DriverApi::launch_kernel_ex) launch_ex_ = nullptr;
};

template <class... Args>
Expected<PreparedLaunch<std::decay_t<Args>...>, JitError> prepare_launch(LoadedKernel& kernel,
                                                                         const LaunchConfig& config, Args&&... args) {
  (detail::check_argument<std::decay_t<Args>>(), ...);
  detail::CuLaunchConfig cu;
  detail::CuLaunchAttribute cluster;
  const std::size_t sizes[sizeof...(Args) + 1] = {sizeof(std::decay_t<Args>)...};
  auto api = detail::build_launch_config(kernel, config, sizes, sizeof...(Args), cu, cluster);
  if (!api) return unexpected(api.error());
  return PreparedLaunch<std::decay_t<Args>...>(std::tuple<std::decay_t<Args>...>(std::forward<Args>(args)...), cu,
                                               cluster, kernel.function(), (*api)->launch_kernel_ex);
}

}  // namespace cute_dsl::jit
