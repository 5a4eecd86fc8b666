# Run with cmake -P by test/headers/CMakeLists.txt: every public header (library and JIT), compiled
# alone as C++17, must fail with exactly one error, config.hpp's "CuteDSL needs C++20" (the name of
# the missing include that stops the compiler: docs/design/build.md). Arguments: COMPILER,
# INCLUDE_DIRS and HEADERS (paths relative to one of INCLUDE_DIRS), each separated by '|'.
cmake_minimum_required(VERSION 3.24)
string(REPLACE "|" ";" INCLUDE_DIRS "${INCLUDE_DIRS}")
string(REPLACE "|" ";" HEADERS "${HEADERS}")
set(include_flags "")
foreach(dir IN LISTS INCLUDE_DIRS)
  list(APPEND include_flags "-I${dir}")
endforeach()
set(failures "")
set(count 0)
foreach(header IN LISTS HEADERS)
  file(WRITE "${WORK_DIR}/cxx17_guard.cpp" "#include <${header}>\n")
  execute_process(COMMAND "${COMPILER}" -std=c++17 ${include_flags} -fsyntax-only "${WORK_DIR}/cxx17_guard.cpp"
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  # Diagnostics only (not the source lines the compiler quotes under them).
  string(REGEX MATCHALL "[^\n]*(error|warning):[^\n]*" diagnostics "${out}")
  list(LENGTH diagnostics n)
  list(GET diagnostics 0 first)
  if(status EQUAL 0 OR NOT n EQUAL 1 OR NOT first MATCHES "error: CuteDSL needs C\\+\\+20: compile with -std=c\\+\\+20")
    string(APPEND failures "\n${header} (status ${status}, ${n} diagnostics):\n${out}")
  endif()
  math(EXPR count "${count} + 1")
endforeach()
if(failures)
  message(FATAL_ERROR "headers compiled as C++17 without the one clear error:${failures}")
endif()
message(STATUS "${count} headers: one \"CuteDSL needs C++20\" error each under -std=c++17")
