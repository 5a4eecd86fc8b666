#!/usr/bin/env bash
# Builds and runs named GPU test targets on GPU 0 of a device machine (after scripts/device/dist.sh
# configured $BUILD_DIR, or on its own), each under a timeout, logs in $OUT.
#   TARGETS="epilogue_gpu_tests gemm_jit_gpu_tests" OUT=/tmp/o bash scripts/device/gpu_suites.sh
export PATH=$PATH:/usr/local/cuda/bin
set -u
BUILD_DIR=${BUILD_DIR:-/tmp/b}
OUT=${OUT:-/tmp/cute_dsl_device_out}
mkdir -p "$OUT"
[ -f "$BUILD_DIR/build.ninja" ] || cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a \
  -DCMAKE_CUDA_FLAGS="--split-compile=8" > "$OUT/suites_build.log" 2>&1
for t in ${TARGETS:?}; do
  cmake --build "$BUILD_DIR" -j"$(nproc)" --target "$t" >> "$OUT/suites_build.log" 2>&1 ||
    { echo "$t: build failed"; grep -E "error" "$OUT/suites_build.log" | head -10; continue; }
  CUDA_VISIBLE_DEVICES=0 timeout "${SUITE_TMO:-120}" "$(find "$BUILD_DIR" -name "$t" -type f | head -1)" > "$OUT/$t.log" 2>&1
  echo "$t: exit $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]" "$OUT/$t.log" | head -20
done
