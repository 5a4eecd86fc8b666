#!/usr/bin/env bash
# Same-machine A/B of the fused reduce-scatter / all-reduce: bench/dist/dist_gemm_rs built against
# other include trees and against this checkout's ("new"), then run in rotation (each variant,
# then each again) for each world size. On this (dev) machine, first, per variant V:
#   mkdir -p .devcarry/V && git archive REV include | tar -x -C .devcarry/V   # .devcarry: ignored locally
# then on a several-GPU device machine (carry .devcarry):
#   VARIANTS="old" SHAPES="--shape 8192x8192x8192" WORLDS="2 4" bash scripts/device/dist_ab.sh
# Environment: VARIANTS ("old": .devcarry/old/include; "none": this checkout only), WORLDS ("2 4"), SHAPES (the bench's
# defaults), ITERS (10), TESTS (1: also build and run this checkout's simulated-ranks
# dist_gpu_tests first), OUT (dist_ab.txt: every run's rank-0 lines, each after a "== world W, V"
# line; build logs).
export PATH=$PATH:/usr/local/cuda/bin NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${OUT:-/tmp/cute_dsl_device_out}
variants=${VARIANTS:-old}
mkdir -p "$OUT"
nvidia-smi -L
all="$variants new"
[ "$variants" = none ] && all=new  # VARIANTS=none: this checkout alone (e.g. to time its options)
jobs=$(( $(nproc) / $(echo $all | wc -w) ))
for v in $all; do
  src=$root
  if [ "$v" != new ]; then  # this checkout with `include` replaced (the bench and its CMake stay the same)
    src=/tmp/src_$v
    rm -rf "$src" && mkdir -p "$src" && (cd "$root" && tar --exclude=./.devcarry --exclude=./build -cf - .) | tar -xf - -C "$src"
    rm -rf "$src/include" && cp -r "$root/.devcarry/$v/include" "$src/include"
  fi
  ( cmake -S "$src" -B /tmp/b_$v -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a \
      -DCMAKE_CUDA_FLAGS="--split-compile=8" > "$OUT/build_$v.log" 2>&1 &&
    cmake --build /tmp/b_$v -j$jobs --target dist_gemm_rs $([ $v = new ] && [ "${TESTS:-0}" = 1 ] && echo dist_gpu_tests) \
      >> "$OUT/build_$v.log" 2>&1 || echo "build $v FAILED" ) &
done
wait
grep -E "error|FAILED" "$OUT"/build_*.log | head -20
for v in $all; do  # registers and spills of the fused kernels
  echo "$v:"; cuobjdump -res-usage /tmp/b_$v/bench/dist/dist_gemm_rs 2>&1 | grep -A1 "ReduceScatter" |
    grep -o "REG:[0-9]*\|STACK:[0-9]*\|LOCAL:[0-9]*" | paste - - - | sort | uniq -c
done
if [ "${TESTS:-0}" = 1 ]; then
  CUDA_VISIBLE_DEVICES=0 timeout 120 "$(find /tmp/b_new -name dist_gpu_tests -type f)" > "$OUT/dist_gpu_tests.log" 2>&1
  echo "dist_gpu_tests: exit $?"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]" "$OUT/dist_gpu_tests.log" | head -20
fi
gpus=$(nvidia-smi -L | wc -l)
for w in ${WORLDS:-2 4}; do
  [ "$w" -le "$gpus" ] || continue
  for round in $(seq 1 ${ROUNDS:-2}); do
    for v in $all; do
      echo "== world $w, $v" | tee -a "$OUT/dist_ab.txt"
      # shellcheck disable=SC2086
      timeout "${TMO:-150}" /tmp/b_$v/bench/dist/dist_gemm_rs --world "$w" --iters "${ITERS:-10}" ${SHAPES:-} \
        2>&1 | grep -E "rank 0:|ERROR: rank 0" | tee -a "$OUT/dist_ab.txt"
    done
  done
done
