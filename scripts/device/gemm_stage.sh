#!/usr/bin/env bash
# Issue 10's operand staging on a one-GPU device machine: build the GEMM GPU tests and the sweep,
# run the tests (staging, copy mainloop and the rest), memcheck the staged cases, then the sweep's
# groups given in SWEEP_FILTER (default: the ragged and unaligned shapes plus two aligned ones).
#   OUT=/tmp/o bash scripts/device/gemm_stage.sh
export PATH=$PATH:/usr/local/cuda/bin
set -u
B=${BUILD_DIR:-/tmp/b}
OUT=${OUT:-/tmp/cute_dsl_device_out}
mkdir -p "$OUT"
nvidia-smi -L
cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_CUDA_FLAGS=--split-compile=8 > "$OUT/build.log" 2>&1 &&
  cmake --build "$B" -j16 --target gemm_sm90_gpu_tests gemm_sm90_majors_gpu_tests gemm_sweep >> "$OUT/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$OUT/build.log" | head -20; exit 1; }
t=$(find "$B" -name gemm_sm90_gpu_tests -type f); m=$(find "$B" -name gemm_sm90_majors_gpu_tests -type f)
timeout 240 "$t" > "$OUT/gemm_tests.log" 2>&1; echo "gemm_sm90_gpu_tests: exit $?"
grep -E "FAILED|PASSED|OK \] GemmSm90\.(Staged|Copy|Staging)" "$OUT/gemm_tests.log" | head -20
timeout 120 "$m" > "$OUT/majors.log" 2>&1; echo "majors: exit $?"; grep -E "FAILED|PASSED" "$OUT/majors.log" | head
timeout 180 compute-sanitizer --tool memcheck "$t" --gtest_filter='*Staged*:*CopyMainloop*' > "$OUT/memcheck.log" 2>&1; echo "memcheck: exit $?"; tail -2 "$OUT/memcheck.log"
s=$(find "$B" -name gemm_sweep -type f)
timeout "${SWEEP_TMO:-240}" "$s" --benchmark_filter="${SWEEP_FILTER:-^(ragged|unaligned)/|/8192x8192x8192/|/3000x3000x3000/}" \
  --benchmark_out="$OUT/gemm_sweep.json" --benchmark_out_format=json > "$OUT/sweep.log" 2>&1; echo "sweep: exit $?"
grep -E "/(ours|cublas)" "$OUT/sweep.log" | awk '{print $1, $(NF-1), $NF}' | head -40
