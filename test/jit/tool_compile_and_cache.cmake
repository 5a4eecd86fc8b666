# cute-dsl jit compile twice in two processes on one fresh cache folder: the first compiles
# (a miss) and prints the resources, the second hits the disk. Then cache stats/list/clear.
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(ENV{CUTE_DSL_CACHE_DIR} "${WORK_DIR}/cache")
unset(ENV{CUTE_DSL_DISABLE_FILE_CACHE})

function(run expect_regex)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "${expect_regex}")
    message(FATAL_ERROR "command: ${ARGN}\nexit ${rc}\nstdout:\n${out}\nstderr:\n${err}\nexpected: ${expect_regex}")
  endif()
  message(STATUS "${out}")
endfunction()

set(compile "${TOOL}" jit compile --header "${HEADER}" --kernel cute_dsl_jit_test::scale
            --targs "f32, (4,8):(8,1), 128" --arch sm_90a)
run("cache: +miss.*registers: +[1-9][0-9]*\n.*max threads: 128" ${compile} --dump "${WORK_DIR}/dump")
run("cache: +disk hit" ${compile})
file(GLOB dumped "${WORK_DIR}/dump/*")
list(LENGTH dumped n)
if(n LESS 4)  # .cu .ptx .cubin .json, and .sass where cuobjdump or nvdisasm is found
  message(FATAL_ERROR "expected .cu, .ptx, .cubin and .json in the dump folder, found: ${dumped}")
endif()
run("entries: +1 \\(1 valid, 0 damaged\\)" "${TOOL}" cache stats)
run("sm_90a +cubin +cute_dsl_jit_test::scale<float" "${TOOL}" cache list)
run("removed 1 files" "${TOOL}" cache clear)
run("entries: +0" "${TOOL}" cache stats)

# CUTE_DSL_ARCH overrides "auto" (no --arch): a cross-compile for sm_100a on a machine with no GPU
# (or another one), with its resource report.
set(ENV{CUTE_DSL_ARCH} sm_100a)
set(ENV{CUTE_DSL_DISABLE_FILE_CACHE} 1)
run("arch: +sm_100a\n.*registers: +[1-9][0-9]*\n.*max threads: 128" "${TOOL}" jit compile --header "${HEADER}"
    --kernel cute_dsl_jit_test::scale --targs "f32, (4,8):(8,1), 128")

# Hooks from the command line (docs/07_jit_hooks.md): a budget the kernel keeps, one it breaks
# (status 1, the hook named), the same as a warning, and a malformed spelling (status 2).
set(hooked "${TOOL}" jit compile --header "${HEADER}" --kernel cute_dsl_jit_test::scale
           --targs "f32, (4,8):(8,1), 128" --arch sm_90a)
run("registers: +[1-9]" ${hooked} --hook forbid-local-memory --hook max-registers=128)
execute_process(COMMAND ${hooked} --hook max-registers=2 RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT err MATCHES "rejected by a hook: hook 'resource-budget\\(registers=2\\)' rejected")
  message(FATAL_ERROR "--hook max-registers=2: exit ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
execute_process(COMMAND ${hooked} --hook max-registers=2,warn RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT err MATCHES "over the budget of 2")
  message(FATAL_ERROR "--hook max-registers=2,warn: exit ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
execute_process(COMMAND ${hooked} --hook max-registers=x RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "ERROR: invalid option: hook 'max-registers=x'")
  message(FATAL_ERROR "--hook max-registers=x: exit ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
