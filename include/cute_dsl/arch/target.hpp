// The architecture the current compilation pass targets, for wrappers of arch-specific PTX.
//
// Every wrapper under arch/smXX/ states its minimum SM and, when a kernel that USES it is
// compiled for a lower SM, fails at compile time with a static_assert naming the instruction
// and the SM it needs (never an empty body or a run-time trap). The check must be dependent
// (a template parameter of the wrapper) so that merely including the header for an older SM,
// or compiling the host pass, costs nothing:
//
//   template <class Dep = void>
//   CUTE_DSL_DEVICE static void copy(...) {
//     static_assert(arch::target_at_least<800, Dep>, "cp.async (SM80_CP_ASYNC_*) needs sm_80 or newer");
//     asm volatile(...);
//   }
#pragma once

#include "cute_dsl/arch/arch_requirement.hpp"
#include "cute_dsl/config.hpp"
#include "cute_dsl/util/type_traits.hpp"

namespace cute_dsl::arch {

// True unless this is a device pass for an SM below `MinSm` (MinSm in __CUDA_ARCH__ units: 800).
// `Dep` only makes the expression depend on the caller's template parameters. Built on
// arch_requirement.hpp's CUTE_DSL_TARGET_SM (one definition of "the target" for every wrapper).
template <int MinSm, class... Dep>
inline constexpr bool target_at_least =
    (CUTE_DSL_TARGET_SM == 0 || CUTE_DSL_TARGET_SM * 10 >= MinSm) || dependent_false<Dep...>;

}  // namespace cute_dsl::arch
