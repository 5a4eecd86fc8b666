#!/usr/bin/env bash
# The Hopper GEMM (issue 10) on a one-GPU device machine: the GEMM GPU tests, memcheck of some of
# them, the variants of a few shapes (gemm_bench) and the public sweep, SWEEPS times, summarized.
#   OUT=/tmp/o bash scripts/device/gemm.sh
# Environment: MEMCHECK_FILTER (gtest filter), BENCH_FILTER (gemm_bench's; "none": skip),
#   SWEEPS (2), SWEEP_FILTER (the sweep's benchmark filter; default: every shape), BUILD_DIR.
export PATH=$PATH:/usr/local/cuda/bin
set -u
B=${BUILD_DIR:-/tmp/b}
OUT=${OUT:-/tmp/cute_dsl_device_out}
mkdir -p "$OUT"
nvidia-smi -L
cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_CUDA_FLAGS=--split-compile=8 > "$OUT/build.log" 2>&1 &&
  cmake --build "$B" -j16 --target gemm_sm90_gpu_tests gemm_sm90_majors_gpu_tests gemm_sweep gemm_bench >> "$OUT/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$OUT/build.log" | head -20; exit 1; }
t=$(find "$B" -name gemm_sm90_gpu_tests -type f); m=$(find "$B" -name gemm_sm90_majors_gpu_tests -type f)
timeout 300 "$t" > "$OUT/gemm_tests.log" 2>&1; echo "gemm_sm90_gpu_tests: exit $?"
grep -E "FAILED|PASSED|Failure" "$OUT/gemm_tests.log" | head -20
timeout 120 "$m" > "$OUT/majors.log" 2>&1; echo "majors: exit $?"; grep -E "FAILED|PASSED" "$OUT/majors.log" | head
timeout 200 compute-sanitizer --tool memcheck "$t" --gtest_filter="${MEMCHECK_FILTER:-*TailSplit*:*SkinnyM*:*TinyAndMany*:*Staged*:*CopyMainloop*}" > "$OUT/memcheck.log" 2>&1; echo "memcheck: exit $?"; tail -2 "$OUT/memcheck.log"
g=$(find "$B" -name gemm_bench -type f)
[ "${BENCH_FILTER:-}" = none ] || timeout 200 "$g" --benchmark_filter="${BENCH_FILTER:-/(3000x3000x3000|5120x5120x5120|1024x1024x32768|2048x1536x4096|4096x1536x4096|8192x12288x4096)/}" 2>&1 |
  grep -E "^(cublas|cute)" | awk '{printf "%-64s %s %s\n", $1, $(NF-1), $NF}' > "$OUT/bench.txt"; cat "$OUT/bench.txt"
s=$(find "$B" -name gemm_sweep -type f)
for i in $(seq 1 "${SWEEPS:-2}"); do
  timeout 200 "$s" --benchmark_filter="${SWEEP_FILTER:-.}" --benchmark_out="$OUT/sweep_$i.json" --benchmark_out_format=json > "$OUT/sweep_$i.log" 2>&1
  python3 bench/gemm/summarize.py --sweep "$OUT/sweep_$i.json" --png "$OUT/sweep_$i.png" > "$OUT/sweep_$i.md" 2>&1
  grep -E "geomean|^\| [a-z_0-9]+ \| [0-9]+ \|" "$OUT/sweep_$i.md"
done
