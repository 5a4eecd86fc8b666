// A Copy_Atom of an operation that has no Copy_Traits (its traits header was not included, or
// it is not a copy instruction at all).
// EXPECT: Copy_Traits: no traits for this copy operation
#include "cute_dsl/atom/copy_atom.hpp"
using namespace cute_dsl;
struct NotACopy {};
#ifndef CUTE_DSL_COMPILE_FAIL_CONTROL
using A = Copy_Atom<NotACopy, float>;
#else
using A = Copy_Atom<UniversalCopy<unsigned>, float>;
#endif
static_assert(A::NumThr == 1);
