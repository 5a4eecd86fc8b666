// The one home of CUTE_DSL_* macros: compiler detection, host/device annotations,
// the library version. Every other header includes this first.
#pragma once

// C++20 or nothing. Without this, C++17 (g++'s and nvcc's default) reports a hundred errors
// starting with `char8_t`, none naming the cause. MSVC keeps __cplusplus at 199711L unless
// /Zc:__cplusplus, so it is read from _MSVC_LANG; NVRTC and nvcc (both passes) set __cplusplus
// from their -std. GCC, Clang and EDG go on after an #error (and then report the hundred), but
// every compiler stops at a missing include: the message IS the name of a file that does not
// exist, so the user sees exactly one error, "... CuteDSL needs C++20: compile with ...".
#if defined(_MSVC_LANG)
#  define CUTE_DSL_CPLUSPLUS _MSVC_LANG
#else
#  define CUTE_DSL_CPLUSPLUS __cplusplus
#endif
#if CUTE_DSL_CPLUSPLUS < 202002L
#  include "CuteDSL needs C++20: compile with -std=c++20 (g++, clang++, nvcc, NVRTC) or /std:c++20 (MSVC)"
#endif

#define CUTE_DSL_VERSION_MAJOR 0
#define CUTE_DSL_VERSION_MINOR 1
#define CUTE_DSL_VERSION_PATCH 0

// NVRTC defines __CUDACC_RTC__; nvcc defines __CUDACC__; a plain host compiler neither.
#if defined(__CUDACC_RTC__)
#  define CUTE_DSL_NVRTC 1
#endif

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#  define CUTE_DSL_HOST_DEVICE __host__ __device__
#  define CUTE_DSL_DEVICE __device__
#else
#  define CUTE_DSL_HOST_DEVICE
#  define CUTE_DSL_DEVICE
#endif

// Before a __host__ __device__ template that calls what its caller passes in (an epilogue tree's
// visitor or sink): the host reference passes host-only ones, and nvcc would warn (#20014) that a
// __host__ __device__ function calls a __host__ function although no device code is instantiated
// with them. nvcc's pragma skips that check for the one template; other compilers need nothing.
#if defined(__CUDACC__) && !defined(__CUDACC_RTC__)
#  define CUTE_DSL_NO_EXEC_CHECK _Pragma("nv_exec_check_disable")
#else
#  define CUTE_DSL_NO_EXEC_CHECK
#endif

// Host-only facilities (exceptions, std::string, iostreams) are compiled only when this is 1.
// Only NVRTC excludes them: nvcc's device pass must see the same declarations as its host pass.
#if defined(__CUDACC_RTC__)
#  define CUTE_DSL_HOST_ONLY_CODE 0
#else
#  define CUTE_DSL_HOST_ONLY_CODE 1
#endif

// Capacity (in nodes) of the fixed-size tree that the algebra core computes on.
// A node is one leaf (shape, stride) or one tuple. Layouts larger than this are rejected
// with tree::Error::capacity, never truncated.
#ifndef CUTE_DSL_TREE_CAPACITY
#  define CUTE_DSL_TREE_CAPACITY 96
#endif

// Run-time checks of the algebra's rules on layouts with run-time leaves (layout/dynamic_support.hpp).
// CUTE_DSL_DEVICE_LAYOUT_CHECKS=0 drops the device-side checks, for kernels whose shapes were
// validated on the host. CUTE_DSL_HOST_TYPED_LAYOUT_CHECKS=1 makes the host use the device's typed
// checks instead of the tree algebra (the tests build a variant this way to prove both refuse alike).
#ifndef CUTE_DSL_DEVICE_LAYOUT_CHECKS
#  define CUTE_DSL_DEVICE_LAYOUT_CHECKS 1
#endif
#ifndef CUTE_DSL_HOST_TYPED_LAYOUT_CHECKS
#  define CUTE_DSL_HOST_TYPED_LAYOUT_CHECKS 0
#endif

// Unroll the next loop fully when its trip count is a compile-time constant. Device code needs it:
// a register array indexed by a loop variable stays in registers only once every index is a
// constant. Host compilers unroll on their own (and g++ -Wall warns on the unknown pragma).
#if defined(__CUDA_ARCH__) || defined(__CUDACC_RTC__)
#  define CUTE_DSL_UNROLL _Pragma("unroll")
#else
#  define CUTE_DSL_UNROLL
#endif
