# cmake -DSOURCE_DIR=<cmake_project> -DBUILD_DIR=<dir> -DCUTE_DSL_SOURCE_DIR=<repo> -DARCHS=<80,90a>
#       -DGENERATOR=<gen> -DCUDA_COMPILER=<nvcc> -DCXX_COMPILER=<c++> -P build_project.cmake
# Configures the user project in cmake_project/ afresh with CMAKE_CUDA_ARCHITECTURES=ARCHS (commas
# become the list's semicolons) and builds it, as `cmake -B build -DCMAKE_CUDA_ARCHITECTURES="80;90a"
# && cmake --build build` would.
cmake_minimum_required(VERSION 3.24)
string(REPLACE "," ";" archs "${ARCHS}")

function(check step status output)
  message(STATUS "${step}:\n${output}")
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${step} failed (${status}) for CMAKE_CUDA_ARCHITECTURES=${archs}")
  endif()
endfunction()

file(REMOVE_RECURSE "${BUILD_DIR}")
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${BUILD_DIR}" -G "${GENERATOR}"
                        "-DCMAKE_CUDA_ARCHITECTURES=${archs}" "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}"
                        "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCUTE_DSL_SOURCE_DIR=${CUTE_DSL_SOURCE_DIR}"
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
check(configure "${status}" "${output}")
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --verbose
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
check(build "${status}" "${output}")
# Each requested architecture reached nvcc as a real (sm_) target.
foreach(arch IN LISTS archs)
  string(FIND "${output}" "code=[compute_${arch},sm_${arch}]" at)
  if(at LESS 0)
    message(FATAL_ERROR "the build did not compile for sm_${arch}")
  endif()
endforeach()
