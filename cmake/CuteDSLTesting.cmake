# Small helpers for test folders.
include_guard(GLOBAL)

# A placeholder test that reports itself SKIPPED (not passed) with a reason, so that a missing
# tool (nvcc, NVRTC, the shared folder) shows in ctest's summary instead of vanishing.
function(cute_dsl_add_skipped_test name reason)
  add_test(NAME ${name} COMMAND "${CMAKE_COMMAND}" -E echo "SKIPPED: ${reason}")
  set_tests_properties(${name} PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:")
endfunction()
