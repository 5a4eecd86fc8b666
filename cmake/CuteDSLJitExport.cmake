# cute_dsl_add_jit_kernels(): JIT kernels exported at build time (`cute-dsl jit export`,
# docs/09_jit_export.md) and compiled into a target that needs only the CUDA driver.
#
#   cute_dsl_add_jit_kernels(<target> NAME <prefix> KIND elementwise|gemm|custom ARCHS <arch>...
#                            [ARGS <more export arguments>...] [OUTPUT_DIR <dir>])
#
# runs `cute-dsl jit export <KIND> <ARGS> --arch <arch>... --out <dir> --name <prefix>` when the
# tool or the arguments change, adds <dir>/<prefix>.c to <target> (as C++ when the project has no
# C enabled: the file is both), puts <dir> on its include path (#include "<prefix>.h") and links
# CUDA::cuda_driver. <dir> defaults to ${CMAKE_CURRENT_BINARY_DIR}/cute_dsl_jit_kernels.
# The tool: the build's own cute-dsl target, else CuteDSL::cute-dsl from an installed package.
include_guard(GLOBAL)

function(cute_dsl_add_jit_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "NAME;KIND;OUTPUT_DIR" "ARCHS;ARGS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "cute_dsl_add_jit_kernels: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "cute_dsl_add_jit_kernels: '${target}' is not a target")
  endif()
  if(NOT ARG_NAME MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "cute_dsl_add_jit_kernels: NAME must be a C identifier, not '${ARG_NAME}'")
  endif()
  if(NOT ARG_KIND MATCHES "^(elementwise|gemm|custom)$")
    message(FATAL_ERROR "cute_dsl_add_jit_kernels: KIND is elementwise, gemm or custom, not '${ARG_KIND}'")
  endif()
  if(NOT ARG_ARCHS)
    message(FATAL_ERROR "cute_dsl_add_jit_kernels: give ARCHS (e.g. sm_80 sm_90a)")
  endif()
  if(TARGET cute-dsl)
    set(tool cute-dsl)
  elseif(TARGET CuteDSL::cute-dsl)
    set(tool CuteDSL::cute-dsl)
  else()
    message(FATAL_ERROR "cute_dsl_add_jit_kernels: no cute-dsl tool (build CuteDSL with the JIT and its tools)")
  endif()
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/cute_dsl_jit_kernels")
  endif()
  set(arch_args "")
  set(cubins "")
  foreach(arch IN LISTS ARG_ARCHS)
    list(APPEND arch_args --arch ${arch})
  endforeach()
  set(base "${ARG_OUTPUT_DIR}/${ARG_NAME}")
  add_custom_command(
    OUTPUT "${base}.h" "${base}.c"
    COMMAND ${tool} jit export ${ARG_KIND} ${ARG_ARGS} ${arch_args} --out "${ARG_OUTPUT_DIR}" --name ${ARG_NAME}
    DEPENDS ${tool}
    COMMENT "Exporting JIT kernel ${ARG_NAME} (${ARG_KIND}, ${ARG_ARCHS})"
    VERBATIM)
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "C" IN_LIST languages)
    set_source_files_properties("${base}.c" PROPERTIES LANGUAGE CXX)
  endif()
  target_sources(${target} PRIVATE "${base}.c" "${base}.h")
  target_include_directories(${target} PRIVATE "${ARG_OUTPUT_DIR}")
  if(NOT TARGET CUDA::cuda_driver)
    find_package(CUDAToolkit REQUIRED)
  endif()
  target_link_libraries(${target} PRIVATE CUDA::cuda_driver)
endfunction()
