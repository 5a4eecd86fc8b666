# Run with cmake -P by test/install/CMakeLists.txt. STEP is one of:
#   readme      run the README's install commands ("Using it from your project") as written, with
#               only build/pkg and /opt/cute_dsl replaced by scratch folders; check what they
#               installed (headers, package files, LICENSE, the cute-dsl tool, no toolkit paths)
#   host        build the consumer as host C++ against the prefix (with COMPONENTS jit when the
#               JIT was built), run it, check its output
#   cuda        build the consumer as CUDA (nvcc) against the prefix
#   export      build export_consumer/: cute_dsl_add_jit_kernels() of the installed package exports
#               an elementwise and a GEMM kernel at build time; a C99 + C++ program links them
#               with the driver only (the toolkit's stub libcuda: compile and link, no run)
#   components  find_package(CuteDSL COMPONENTS bogus) fails and says why; so does COMPONENTS jit
#               against a package installed without the JIT (header-only: installs with no build)
#   subproject  a project that add_subdirectory()s the source tree, then enables CUDA: configure
#               with TEST_CMAKE (the failure needed CMake >= 3.25.2), compile its one .cu
#   pkgconfig   PKG_CONFIG --cflags/--libs against the prefix (nothing else on its search path):
#               the consumer's host program built with the flags alone, and the JIT one when built
#   cpack       `cpack -G TGZ` in the README's build folder; the archive holds one folder whose
#               files are exactly the prefix's
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

# Configures the consumer with find_package(CuteDSL ... COMPONENTS <components>), which must fail
# with a message that matches `expected`.
function(expect_consumer_failure build components expected)
  file(REMOVE_RECURSE "${build}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE_DIR}" -B "${build}" -G "${GENERATOR}"
                          "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_PREFIX_PATH=${ARGN}"
                          "-DCONSUMER_COMPONENTS=${components}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  message(STATUS "COMPONENTS ${components}:\n${output}")
  if(status EQUAL 0)
    message(FATAL_ERROR "find_package(CuteDSL COMPONENTS ${components}) succeeded")
  endif()
  string(REGEX REPLACE "[ \t\r\n]+" " " flat "${output}")  # CMake wraps long messages
  if(NOT flat MATCHES "${expected}")
    message(FATAL_ERROR "find_package(CuteDSL COMPONENTS ${components}) failed without saying: ${expected}")
  endif()
endfunction()

if(STEP STREQUAL "readme")
  set(build "${WORK_DIR}/readme-build")
  file(REMOVE_RECURSE "${build}" "${prefix}")
  file(READ "${CUTE_DSL_SOURCE_DIR}/README.md" readme)
  string(FIND "${readme}" "## Using it from your project" at)
  if(at LESS 0)
    message(FATAL_ERROR "README.md has no section 'Using it from your project'")
  endif()
  string(SUBSTRING "${readme}" ${at} -1 readme)
  if(NOT readme MATCHES "```sh\n([^`]*)```")
    message(FATAL_ERROR "README.md's section 'Using it from your project' has no sh block")
  endif()
  set(block "${CMAKE_MATCH_1}")
  foreach(path build/pkg /opt/cute_dsl)
    string(FIND "${block}" "${path}" found)
    if(found LESS 0)
      message(FATAL_ERROR "README's install commands no longer name ${path}; update this test:\n${block}")
    endif()
  endforeach()
  string(REPLACE "build/pkg" "${build}" block "${block}")
  string(REPLACE "/opt/cute_dsl" "${prefix}" block "${block}")
  string(REPLACE "\\\n" " " block "${block}")  # continued lines
  string(REPLACE "&&" "\n" block "${block}")
  string(REPLACE "\n" ";" lines "${block}")
  # The README names no generator or compiler: the environment does, as it would for a user.
  set(ENV{CMAKE_GENERATOR} "${GENERATOR}")
  set(ENV{CXX} "${CXX_COMPILER}")
  foreach(line IN LISTS lines)
    string(STRIP "${line}" line)
    if(line STREQUAL "")
      continue()
    endif()
    separate_arguments(command UNIX_COMMAND "${line}")
    list(POP_FRONT command program)
    if(NOT program STREQUAL "cmake")
      message(FATAL_ERROR "README's install commands run '${program}'; this test runs only cmake")
    endif()
    execute_process(COMMAND "${CMAKE_COMMAND}" ${command} WORKING_DIRECTORY "${CUTE_DSL_SOURCE_DIR}"
                    RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
    message(STATUS "$ ${line}\n${output}")
    if(NOT status EQUAL 0)
      message(FATAL_ERROR "the README's command failed (${status}): ${line}")
    endif()
  endforeach()

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
  if(NOT EXISTS "${prefix}/share/doc/CuteDSL/LICENSE")
    message(FATAL_ERROR "not installed: share/doc/CuteDSL/LICENSE")
  endif()
  # Relocatable: no file of the package names the build machine's CUDA toolkit.
  file(GLOB_RECURSE package_files "${prefix}/*/cmake/CuteDSL/*.cmake")
  foreach(f IN LISTS package_files)
    file(STRINGS "${f}" toolkit_paths REGEX "libnvrtc|libnvJitLink|${CUDA_TOOLKIT_LIBRARY_DIR}")
    if(toolkit_paths AND CUDA_TOOLKIT_LIBRARY_DIR)
      message(FATAL_ERROR "${f} names the build machine's toolkit:\n${toolkit_paths}")
    endif()
  endforeach()
  # The tool is installed and runs from the prefix.
  run("${prefix}/bin/cute-dsl" layout "(4,8):(8,1)")
  if(EXPECT_JIT AND NOT EXISTS "${prefix}/bin/cute-dsl-jit-worker")
    message(FATAL_ERROR "not installed: bin/cute-dsl-jit-worker")
  endif()
  list(LENGTH source_headers count)
  message(STATUS "installed ${count} headers, the package files, LICENSE and cute-dsl into ${prefix}")

elseif(STEP STREQUAL "host")
  set(build "${WORK_DIR}/consumer-host")
  file(REMOVE_RECURSE "${build}")
  set(components "")
  if(EXPECT_JIT)
    set(components jit)
  endif()
  run("${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE_DIR}" -B "${build}" -G "${GENERATOR}"
      "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_PREFIX_PATH=${prefix}" -DCONSUMER_LANGUAGE=CXX
      "-DCONSUMER_COMPONENTS=${components}")
  run("${CMAKE_COMMAND}" --build "${build}")
  run("${build}/consumer_host")
  set(expected "consumer: (4,8):(8,1) at (3,5) is 29")
  string(FIND "${run_output}" "${expected}" at)
  if(at LESS 0)
    message(FATAL_ERROR "consumer_host printed:\n${run_output}\nexpected a line: ${expected}")
  endif()
  # The JIT, when installed: compiles a kernel through NVRTC from the installed copy (no GPU).
  if(EXPECT_JIT AND NOT EXISTS "${build}/consumer_jit")
    message(FATAL_ERROR "the JIT was built, but the consumer did not get CuteDSL::jit")
  endif()
  if(EXISTS "${build}/consumer_jit")
    run("${build}/consumer_jit")
    if(NOT run_output MATCHES "consumer jit: compiled _Z")
      message(FATAL_ERROR "consumer_jit printed:\n${run_output}")
    endif()
    string(FIND "${run_output}" "consumer jit: worker ${prefix}/bin/cute-dsl-jit-worker\n" at)
    if(at LESS 0)
      message(FATAL_ERROR "consumer_jit did not find the installed worker ${prefix}/bin/cute-dsl-jit-worker:\n${run_output}")
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

elseif(STEP STREQUAL "export")
  set(build "${WORK_DIR}/export-consumer")
  file(REMOVE_RECURSE "${build}")
  run("${CMAKE_COMMAND}" -S "${EXPORT_CONSUMER_SOURCE_DIR}" -B "${build}" -G "${GENERATOR}"
      "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_PREFIX_PATH=${prefix}")
  run("${CMAKE_COMMAND}" --build "${build}")
  foreach(f axpby_f32.h axpby_f32.c axpby_f32.sm_80.cubin axpby_f32.sm_90a.cubin gemm_bf16.h gemm_bf16.c
            gemm_bf16.sm_90a.cubin)
    if(NOT EXISTS "${build}/cute_dsl_jit_kernels/${f}")
      message(FATAL_ERROR "cute_dsl_add_jit_kernels did not write cute_dsl_jit_kernels/${f}")
    endif()
  endforeach()
  if(NOT EXISTS "${build}/export_consumer")
    message(FATAL_ERROR "export_consumer was not built")
  endif()

elseif(STEP STREQUAL "components")
  expect_consumer_failure("${WORK_DIR}/consumer-bogus" bogus
                          "Unknown component 'bogus' \\(CuteDSL has: cute_dsl, jit, dist\\)" "${prefix}")
  # A package without the JIT: header-only, so it installs without building anything.
  set(nojit_build "${WORK_DIR}/nojit-build")
  set(nojit_prefix "${WORK_DIR}/nojit-prefix")
  file(REMOVE_RECURSE "${nojit_build}" "${nojit_prefix}")
  run("${CMAKE_COMMAND}" -S "${CUTE_DSL_SOURCE_DIR}" -B "${nojit_build}" -G "${GENERATOR}"
      "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" -DCUTE_DSL_BUILD_TESTS=OFF -DCUTE_DSL_BUILD_EXAMPLES=OFF
      -DCUTE_DSL_BUILD_BENCH=OFF -DCUTE_DSL_BUILD_TOOLS=OFF -DCUTE_DSL_BUILD_JIT=OFF)
  run("${CMAKE_COMMAND}" --install "${nojit_build}" --prefix "${nojit_prefix}")
  expect_consumer_failure("${WORK_DIR}/consumer-nojit" jit
                          "Component 'jit' \\(CuteDSL::jit\\) is not available: this CuteDSL was installed without the JIT"
                          "${nojit_prefix}")
  # ... and without CuteDSL::dist (a package build leaves it out unless asked: CUTE_DSL_BUILD_DIST).
  expect_consumer_failure("${WORK_DIR}/consumer-nodist" dist
                          "Component 'dist' \\(CuteDSL::dist\\) is not available: this CuteDSL was installed without it"
                          "${nojit_prefix}")

elseif(STEP STREQUAL "subproject")
  set(build "${WORK_DIR}/subproject-build")
  file(REMOVE_RECURSE "${build}")
  run("${TEST_CMAKE}" -S "${SUBPROJECT_SOURCE_DIR}" -B "${build}" -G "${GENERATOR}"
      "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}"
      "-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCH}" "-DCUTE_DSL_DIR=${CUTE_DSL_SOURCE_DIR}")
  run("${TEST_CMAKE}" --build "${build}" --target subproject_cuda)

elseif(STEP STREQUAL "pkgconfig")
  # Only the prefix's .pc files: a system cute_dsl.pc must not answer for ours.
  file(GLOB_RECURSE pc_files "${prefix}/*/cute_dsl.pc")
  if(NOT pc_files)
    message(FATAL_ERROR "not installed: cute_dsl.pc under ${prefix}")
  endif()
  get_filename_component(pc_dir "${pc_files}" DIRECTORY)
  set(ENV{PKG_CONFIG_PATH} "")
  set(ENV{PKG_CONFIG_LIBDIR} "${pc_dir}")
  run("${PKG_CONFIG}" --modversion cute_dsl)
  string(STRIP "${run_output}" version)
  if(NOT version STREQUAL VERSION)
    message(FATAL_ERROR "pkg-config --modversion cute_dsl: '${version}', expected '${VERSION}'")
  endif()
  run("${PKG_CONFIG}" --cflags cute_dsl)
  separate_arguments(cflags UNIX_COMMAND "${run_output}")
  # -I<prefix>/include, however the tool spells the path (pkgconf keeps ${pcfiledir}/../..).
  set(include_ok FALSE)
  foreach(flag IN LISTS cflags)
    if(flag MATCHES "^-I(.*)")
      file(REAL_PATH "${CMAKE_MATCH_1}" dir)
      file(REAL_PATH "${prefix}/include" want)
      if(dir STREQUAL want)
        set(include_ok TRUE)
      endif()
    endif()
  endforeach()
  if(NOT include_ok)
    message(FATAL_ERROR "pkg-config --cflags cute_dsl gives no -I${prefix}/include: ${cflags}")
  endif()
  set(build "${WORK_DIR}/consumer-pkgconfig")
  file(REMOVE_RECURSE "${build}")
  file(MAKE_DIRECTORY "${build}")
  run("${CXX_COMPILER}" -std=c++20 ${cflags} "${CONSUMER_SOURCE_DIR}/host_main.cpp" -o "${build}/consumer_host")
  run("${build}/consumer_host")
  if(NOT run_output MATCHES "consumer: \\(4,8\\):\\(8,1\\) at \\(3,5\\) is 29")
    message(FATAL_ERROR "the pkg-config consumer printed:\n${run_output}")
  endif()
  if(EXPECT_JIT)
    # The build machine's toolkit is the .pc's default; set here as a user of another one would.
    run("${PKG_CONFIG}" --cflags --libs "--define-variable=cuda_libdir=${CUDA_TOOLKIT_LIBRARY_DIR}" cute_dsl_jit)
    separate_arguments(flags UNIX_COMMAND "${run_output}")
    run("${CXX_COMPILER}" -std=c++20 "${CONSUMER_SOURCE_DIR}/jit_main.cpp" ${flags} -o "${build}/consumer_jit")
    run("${build}/consumer_jit")
    if(NOT run_output MATCHES "consumer jit: compiled _Z")
      message(FATAL_ERROR "the pkg-config JIT consumer printed:\n${run_output}")
    endif()
  elseif(EXISTS "${pc_dir}/cute_dsl_jit.pc")
    message(FATAL_ERROR "cute_dsl_jit.pc installed, but the JIT was not built")
  endif()

elseif(STEP STREQUAL "cpack")
  # The README's build folder, as install.readme left it.
  set(build "${WORK_DIR}/readme-build")
  set(out "${WORK_DIR}/cpack")
  file(REMOVE_RECURSE "${out}")
  file(MAKE_DIRECTORY "${out}/unpacked")
  run("${CPACK}" -G TGZ --config "${build}/CPackConfig.cmake" -B "${out}")
  file(GLOB archives "${out}/CuteDSL-${VERSION}-*.tar.gz")
  list(LENGTH archives count)
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "cpack -G TGZ made ${count} CuteDSL-${VERSION}-*.tar.gz in ${out}: ${archives}")
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" -E tar xzf "${archives}" WORKING_DIRECTORY "${out}/unpacked"
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "cannot unpack ${archives}")
  endif()
  get_filename_component(top "${archives}" NAME)
  string(REGEX REPLACE "\\.tar\\.gz$" "" top "${top}")
  file(GLOB_RECURSE packed RELATIVE "${out}/unpacked/${top}" "${out}/unpacked/${top}/*")
  file(GLOB_RECURSE installed RELATIVE "${prefix}" "${prefix}/*")
  list(SORT packed)
  list(SORT installed)
  if(NOT packed STREQUAL installed)
    set(only_packed ${packed})
    list(REMOVE_ITEM only_packed ${installed})
    set(only_installed ${installed})
    list(REMOVE_ITEM only_installed ${packed})
    message(FATAL_ERROR "the archive's ${top}/ is not the install:\nonly in the archive: ${only_packed}\n"
                        "only in the prefix: ${only_installed}")
  endif()
  list(LENGTH packed count)
  message(STATUS "${archives}: ${top}/ holds the ${count} files of the install")

else()
  message(FATAL_ERROR "unknown STEP '${STEP}'")
endif()
