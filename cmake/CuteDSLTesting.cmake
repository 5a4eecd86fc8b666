# Small helpers for test folders.
include_guard(GLOBAL)

# A placeholder test that reports itself SKIPPED (not passed) with a reason, so that a missing
# tool (nvcc, NVRTC, the shared folder) shows in ctest's summary instead of vanishing.
function(cute_dsl_add_skipped_test name reason)
  add_test(NAME ${name} COMMAND "${CMAKE_COMMAND}" -E echo "SKIPPED: ${reason}")
  set_tests_properties(${name} PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:")
endfunction()

# A GPU test program: GoogleTest sources compiled by nvcc for `ARCHS` (default: 90a), linked with
# cudart (never libcuda: CI has no driver), tests discovered with `PREFIX` and labelled `gpu` so
# that the device script can run exactly them (ctest -L gpu). Without a GPU each test skips
# itself through CUTE_DSL_REQUIRE_GPU (test/support/gpu_test.cuh). Without nvcc: one skipped test.
#   cute_dsl_add_gpu_test(<target> PREFIX <p> SOURCES <a.cu ...> [ARCHS 80 90a])
function(cute_dsl_add_gpu_test target)
  cmake_parse_arguments(ARG "" "PREFIX" "SOURCES;ARCHS" ${ARGN})
  if(NOT CUTE_DSL_HAVE_NVCC)
    cute_dsl_add_skipped_test(${ARG_PREFIX}nvcc "nvcc not found (or CUTE_DSL_ENABLE_CUDA=OFF)")
    return()
  endif()
  if(NOT ARG_ARCHS)
    set(ARG_ARCHS 90a)
  endif()
  find_package(CUDAToolkit REQUIRED)
  add_executable(${target} ${ARG_SOURCES})
  set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES "${ARG_ARCHS}")
  target_include_directories(${target} PRIVATE "${PROJECT_SOURCE_DIR}/test/support")
  target_link_libraries(${target} PRIVATE CuteDSL::cute_dsl CUDA::cudart GTest::gtest_main)
  gtest_discover_tests(${target} TEST_PREFIX "${ARG_PREFIX}" DISCOVERY_TIMEOUT 60
                       PROPERTIES LABELS gpu)
endfunction()
