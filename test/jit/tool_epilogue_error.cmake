# `cute-dsl jit epilogue` on a bad expression: exit status 1, `ERROR:` naming the column, and the
# caret under it.
execute_process(COMMAND "${TOOL}" jit epilogue "gelu(alpha * acc + bias[col]"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 1)
  message(FATAL_ERROR "expected exit status 1, got ${status}\n${out}${err}")
endif()
if(NOT err MATCHES "ERROR: epilogue, column 29: expected '\\)' after the arguments of gelu, found the end")
  message(FATAL_ERROR "unexpected message:\n${err}")
endif()
if(NOT err MATCHES "\ngelu\\(alpha \\* acc \\+ bias\\[col\\]\n                            \\^")
  message(FATAL_ERROR "no caret under column 29:\n${err}")
endif()
