# cmake -DNVCC=... -DARCH=90 -DINCLUDE=... -DSOURCE=... -DOUT=... -P expect_compile_fail.cmake
# Passes when nvcc REJECTS the source for sm_${ARCH} with the wgmma architecture message.
execute_process(COMMAND "${NVCC}" -std=c++20 -gencode arch=compute_${ARCH},code=sm_${ARCH} "-I${INCLUDE}" -c "${SOURCE}" -o "${OUT}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(expected "wgmma.mma_async (SM90_64xNx16_F32_SS) needs sm_90a: compile with -arch=sm_90a")
if(rc EQUAL 0)
  message(FATAL_ERROR "expected a compile error for sm_${ARCH}, but nvcc succeeded")
endif()
string(FIND "${out}${err}" "${expected}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the error does not contain \"${expected}\":\n${out}${err}")
endif()
string(FIND "${out}${err}" "wgmma.fence needs sm_90a" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the error does not name wgmma.fence:\n${out}${err}")
endif()
message(STATUS "ok: sm_${ARCH} rejected with the wgmma message")
