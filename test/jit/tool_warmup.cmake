# cute-dsl jit warmup --list: three kernels in two worker processes fill a fresh cache folder, then
# a list with a bad kernel exits 1 naming it, while the good one still compiles.
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(ENV{CUTE_DSL_CACHE_DIR} "${WORK_DIR}/cache")
unset(ENV{CUTE_DSL_DISABLE_FILE_CACHE})
file(WRITE "${WORK_DIR}/good.list"
  "# header | kernel | template arguments\n"
  "${HEADER} | cute_dsl_jit_test::scale | f32, (4,8):(8,1), 64\n"
  "${HEADER} | cute_dsl_jit_test::scale | f32, (4,8):(8,1), 96\n"
  "\n"
  "${HEADER} | cute_dsl_jit_test::scale | f16, (4,8):(8,1), 128\n")
execute_process(COMMAND "${TOOL}" jit warmup --list "${WORK_DIR}/good.list" --workers 2 --arch sm_90a
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "warmed up: +3 of 3" OR NOT err MATCHES "compiling 3/3: "
   OR NOT err MATCHES "in 2 worker processes")
  message(FATAL_ERROR "exit ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
file(GLOB entries "${WORK_DIR}/cache/*.cdk")
list(LENGTH entries n)
if(NOT n EQUAL 3)
  message(FATAL_ERROR "expected 3 cache entries, found ${n}: ${entries}")
endif()
file(WRITE "${WORK_DIR}/bad.list"
  "${HEADER} | cute_dsl_jit_test::scale | f32, (4,8):(8,1), 32\n"
  "${HEADER} | cute_dsl_jit_test::missing | f32\n")
execute_process(COMMAND "${TOOL}" jit warmup --list "${WORK_DIR}/bad.list" --workers 2 --arch sm_90a
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT out MATCHES "warmed up: +1 of 2" OR NOT err MATCHES "cute_dsl_jit_test::missing")
  message(FATAL_ERROR "exit ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
# A list that cannot be read is an error, not "0 of 0".
execute_process(COMMAND "${TOOL}" jit warmup --list "${WORK_DIR}/no_such.list" --arch sm_90a
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "ERROR: ")
  message(FATAL_ERROR "missing list: exit ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
