#!/usr/bin/env bash
# Issue 11's benchmark on one GPU: build bench/epilogue/epilogue_bench, run it (the plain GEMM and
# the JIT's fused kernels), time cuBLASLt's epilogues through PyTorch on the same shapes in the
# same run, and print the table (scripts/device/epilogue_table.py).
#   OUT=/tmp/o bash scripts/device/epilogue.sh      FILTER: a --benchmark_filter regex
export PATH=$PATH:/usr/local/cuda/bin
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-/tmp/b}
OUT=${OUT:-/tmp/cute_dsl_device_out}
mkdir -p "$OUT"
nvidia-smi -L
cmake -S "$root" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a \
  -DCMAKE_CUDA_FLAGS="--split-compile=8" > "$OUT/build.log" 2>&1
cmake --build "$BUILD_DIR" -j"$(nproc)" --target epilogue_bench >> "$OUT/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$OUT/build.log" | head -30; exit 1; }
bench=$(find "$BUILD_DIR" -name epilogue_bench -type f)
export CUTE_DSL_CACHE_DIR=${CUTE_DSL_CACHE_DIR:-/tmp/cute_dsl_jit_cache}
shapes=$("$bench" --benchmark_list_tests | cut -d/ -f2 | sort -u | paste -sd,)
# cuBLASLt before and after ours (the table takes the faster of the two runs per figure).
python3 "$root/scripts/device/epilogue_cublaslt.py" --shapes "$shapes" --json "$OUT/cublaslt_before.json" > "$OUT/cublaslt.log" 2>&1 ||
  { tail -20 "$OUT/cublaslt.log"; exit 1; }
"$bench" --benchmark_filter="${FILTER:-.}" --benchmark_format=json --benchmark_out="$OUT/epilogue_bench.json" \
  --benchmark_out_format=json > "$OUT/epilogue_bench.log" 2>&1 || { tail -20 "$OUT/epilogue_bench.log"; exit 1; }
grep -E "error|SKIP" "$OUT/epilogue_bench.log" | head -5
python3 "$root/scripts/device/epilogue_cublaslt.py" --shapes "$shapes" --json "$OUT/cublaslt_after.json" >> "$OUT/cublaslt.log" 2>&1 ||
  { tail -20 "$OUT/cublaslt.log"; exit 1; }
python3 "$root/scripts/device/epilogue_table.py" "$OUT/epilogue_bench.json" "$OUT/cublaslt_before.json" "$OUT/cublaslt_after.json" |
  tee "$OUT/table.md"
