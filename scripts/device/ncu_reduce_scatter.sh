#!/usr/bin/env bash
# ncu of the fused reduce-scatter kernel against the plain GEMM in the same variant: summary
# sections, registers, and per-SASS-instruction stall samples ($OUT/sass_<kernel>_<pid>.csv) to find
# where the fused kernel loses time. WORLD ranks (1: no peer, nothing waits; 2: every rank profiled,
# one report per process), SHAPE (8192x8192x2048), SKIP (launches of each kernel skipped: with
# WORLD 2 and SKIP 2 the fused one is the "kernel alone" launch of the bench's first round).
#   OUT=/tmp/o WORLD=2 SKIP=2 bash scripts/device/ncu_reduce_scatter.sh
export PATH=$PATH:/usr/local/cuda/bin NCCL_NVLS_ENABLE=0
BUILD_DIR=${BUILD_DIR:-/tmp/b}
OUT=${OUT:-/tmp/cute_dsl_device_out}
mkdir -p "$OUT"
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_CUDA_FLAGS="--split-compile=8" > "$OUT/build.log" 2>&1
cmake --build "$BUILD_DIR" -j16 --target dist_gemm_rs >> "$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; exit 1; }
bench=$(find "$BUILD_DIR" -name dist_gemm_rs -type f)
cuobjdump -res-usage "$bench" 2>&1 | grep -A1 "gemm_sm90_kernel.*256ELi4ELi2ELb0\|ReduceScatter" | grep -o "Function [^ ]*\|REG:[0-9]*\|STACK:[0-9]*\|LOCAL:[0-9]*" | paste - - - - | cut -c1-200
cuobjdump -sass "$bench" > "$OUT/all.sass" 2>/dev/null
# Both in the fused op's variant (128 x 256, 4 stages, clusters of 2; the heuristic's plain GEMM
# may be another): matched on the mangled name.
for k in gemm_sm90_fused gemm_sm90_kernel; do
  timeout 250 ncu --target-processes all --kernel-name-base mangled -k "regex:${k}.*Li256ELi4ELi2ELb0" -s "${SKIP:-3}" -c 1 --set full \
    --import-source no -o "$OUT/rep_${k}_%p" \
    "$bench" --world "${WORLD:-1}" --iters 1 --shape ${SHAPE:-8192x8192x2048} > "$OUT/ncu_$k.log" 2>&1
  for rep in "$OUT"/rep_"${k}"_*.ncu-rep; do
    ncu -i "$rep" --page details --section SpeedOfLight --section WarpStateStats --section InstructionStats 2>&1 |
      grep -E "Duration|Compute \(SM\)|Stall|Warp Cycles|Executed Instructions  " | head -12
    ncu -i "$rep" --page source --print-source sass --csv > "$OUT/sass_$(basename "$rep" .ncu-rep | cut -c5-).csv" 2>&1
    rm -f "$rep"
  done
  wc -l "$OUT"/sass_"${k}"*.csv
done
