# nvcc must compile CuteDSL's headers as C++20, like the host compiler.
#
# CMake learned nvcc's C++20 flag (the `cuda_std_20` compile feature) only in 3.25.2; older
# versions reject that feature outright once CUDA is enabled. So the requirement is written in
# whatever the running CMake understands. The answer depends on the CMake of whoever CONSUMES
# the target, not on the one that built and installed it: the build tree applies it for itself
# only (BUILD_INTERFACE), and the installed CuteDSLConfig.cmake applies it again on the
# consumer's side. This file is installed next to the config for that reason.
include_guard(GLOBAL)

# cute_dsl_require_cuda_cxx20(<target> [BUILD_INTERFACE_ONLY])
# Appends the requirement to the usage requirements of <target>. Harmless for consumers that
# never enable CUDA: a CUDA feature or a CUDA-only option then applies to nothing.
function(cute_dsl_require_cuda_cxx20 target)
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.25.2)
    set(property INTERFACE_COMPILE_FEATURES)
    set(value cuda_std_20)
  else()
    set(property INTERFACE_COMPILE_OPTIONS)
    set(value "$<$<COMPILE_LANGUAGE:CUDA>:-std=c++20>")
  endif()
  if("${ARGN}" STREQUAL "BUILD_INTERFACE_ONLY")
    # Our own host-only targets (the JIT, the tool; CUTE_DSL_HOST_ONLY) skip the requirement: when
    # a parent project enables CUDA only after add_subdirectory(cute_dsl), their directories know
    # no CUDA features, and CMake >= 3.25.2 would stop at generate time on the cuda_std_20 feature
    # ("No known features for CUDA compiler"). The parent's own targets still get it.
    set(value "$<BUILD_INTERFACE:$<$<NOT:$<BOOL:$<TARGET_PROPERTY:CUTE_DSL_HOST_ONLY>>>:${value}>>")
  elseif(NOT "${ARGN}" STREQUAL "")
    message(FATAL_ERROR "cute_dsl_require_cuda_cxx20: unexpected arguments: ${ARGN}")
  endif()
  set_property(TARGET ${target} APPEND PROPERTY ${property} "${value}")
endfunction()
