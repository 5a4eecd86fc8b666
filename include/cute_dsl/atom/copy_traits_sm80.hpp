// Copy_Traits of cp.async (arch/sm80/cp_async.hpp): one thread moves one S (4, 8 or 16 bytes)
// from global to shared memory, bits in order on both sides -- UniversalCopy's layouts.
#pragma once

#include "cute_dsl/atom/copy_traits.hpp"
#include "cute_dsl/arch/sm80/cp_async.hpp"

namespace cute_dsl {

template <class S, class D> struct Copy_Traits<SM80_CP_ASYNC_CACHEALWAYS<S, D>> : Copy_Traits<UniversalCopy<S, D>> {};
template <class S, class D> struct Copy_Traits<SM80_CP_ASYNC_CACHEGLOBAL<S, D>> : Copy_Traits<UniversalCopy<S, D>> {};
template <class S, class D> struct Copy_Traits<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<S, D>> : Copy_Traits<UniversalCopy<S, D>> {};
template <class S, class D> struct Copy_Traits<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<S, D>> : Copy_Traits<UniversalCopy<S, D>> {};

}  // namespace cute_dsl
