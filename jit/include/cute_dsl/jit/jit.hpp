// CuteDSL's JIT: run-time instantiation of kernel templates through NVRTC, with a content-keyed
// memory and disk cache. See docs/design/jit.md.
#pragma once

#include "cute_dsl/jit/cache.hpp"
#include "cute_dsl/jit/compile.hpp"
#include "cute_dsl/jit/compiled_kernel.hpp"
#include "cute_dsl/jit/device_library.hpp"
#include "cute_dsl/jit/driver.hpp"
#include "cute_dsl/jit/dump.hpp"
#include "cute_dsl/jit/error.hpp"
#include "cute_dsl/jit/expected.hpp"
#include "cute_dsl/jit/hash.hpp"
#include "cute_dsl/jit/hooks.hpp"
#include "cute_dsl/jit/kernel_spec.hpp"
#include "cute_dsl/jit/launch.hpp"
#include "cute_dsl/jit/loaded_kernel.hpp"
#include "cute_dsl/jit/log.hpp"
#include "cute_dsl/jit/options.hpp"
#include "cute_dsl/jit/stages.hpp"
#include "cute_dsl/jit/warmup.hpp"
