# Run with cmake -P by test/install/CMakeLists.txt. STEP is one of:
#   install  configure CuteDSL alone (no tests, tools, examples, benchmarks: what a packager
#            does), build it, install it into WORK_DIR/prefix, check the installed files
#   host     build the consumer as host C++ against the prefix, run it, check its output
#   cuda     build the consumer as CUDA (nvcc) against the prefix
cmake_minimum_required(VERSION 3.24)

set(prefix "${WORK_DIR}/prefix")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  string(REPLACE ";" " " shown "${ARGN}")
  message(STATUS "$ ${shown}\n${output}")
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${shown}")
  endif()
  set(run_output "${output}" PARENT_SCOPE)
endfunction()

if(STEP STREQUAL "install")
  file(REMOVE_RECURSE "${WORK_DIR}/project-build" "${prefix}")
  run("${CMAKE_COMMAND}" -S "${CUTE_DSL_SOURCE_DIR}" -B "${WORK_DIR}/project-build" -G "${GENERATOR}"
      "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" -DCMAKE_BUILD_TYPE=Release
      -DCUTE_DSL_BUILD_TESTS=OFF -DCUTE_DSL_BUILD_EXAMPLES=OFF
      -DCUTE_DSL_BUILD_BENCH=OFF -DCUTE_DSL_BUILD_TOOLS=OFF)
  run("${CMAKE_COMMAND}" --build "${WORK_DIR}/project-build")
  run("${CMAKE_COMMAND}" --install "${WORK_DIR}/project-build" --prefix "${prefix}")
  # Every public header is installed, and the package files are where find_package looks.
  file(GLOB_RECURSE source_headers RELATIVE "${CUTE_DSL_SOURCE_DIR}/include" "${CUTE_DSL_SOURCE_DIR}/include/cute_dsl/*.hpp")
  foreach(header IN LISTS source_headers)
    if(NOT EXISTS "${prefix}/include/${header}")
      message(FATAL_ERROR "not installed: include/${header}")
    endif()
  endforeach()
  file(GLOB_RECURSE config "${prefix}/*/CuteDSLConfig.cmake")
  file(GLOB_RECURSE version "${prefix}/*/CuteDSLConfigVersion.cmake")
  file(GLOB_RECURSE targets "${prefix}/*/CuteDSLTargets.cmake")
  if(NOT config OR NOT version OR NOT targets)
    message(FATAL_ERROR "package files missing under ${prefix}: config '${config}' version '${version}' targets '${targets}'")
  endif()
  list(LENGTH source_headers count)
  message(STATUS "installed ${count} headers and the package files into ${prefix}")

elseif(STEP STREQUAL "host")
  set(build "${WORK_DIR}/consumer-host")
  file(REMOVE_RECURSE "${build}")
  run("${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE_DIR}" -B "${build}" -G "${GENERATOR}"
      "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_PREFIX_PATH=${prefix}" -DCONSUMER_LANGUAGE=CXX)
  run("${CMAKE_COMMAND}" --build "${build}")
  run("${build}/consumer_host")
  set(expected "consumer: (4,8):(8,1) at (3,5) is 29")
  string(FIND "${run_output}" "${expected}" at)
  if(at LESS 0)
    message(FATAL_ERROR "consumer_host printed:\n${run_output}\nexpected a line: ${expected}")
  endif()
  # The JIT, when installed: compiles a kernel through NVRTC from the installed copy (no GPU).
  if(EXISTS "${build}/consumer_jit")
    run("${build}/consumer_jit")
    if(NOT run_output MATCHES "consumer jit: compiled _Z")
      message(FATAL_ERROR "consumer_jit printed:\n${run_output}")
    endif()
  endif()

elseif(STEP STREQUAL "cuda")
  set(build "${WORK_DIR}/consumer-cuda")
  file(REMOVE_RECURSE "${build}")
  run("${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE_DIR}" -B "${build}" -G "${GENERATOR}"
      "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}"
      "-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCH}" "-DCMAKE_PREFIX_PATH=${prefix}" -DCONSUMER_LANGUAGE=CUDA)
  # Compile and link only: the machine that runs the tests need not have a GPU.
  run("${CMAKE_COMMAND}" --build "${build}")

else()
  message(FATAL_ERROR "unknown STEP '${STEP}'")
endif()
