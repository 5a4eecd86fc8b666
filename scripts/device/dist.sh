#!/usr/bin/env bash
# The multi-GPU runs of the fused GEMM + reduce-scatter and all-gather + GEMM (docs/12_distributed.md),
# on a device machine with several GPUs: build the simulated-ranks GPU test and bench/dist/dist_gemm_rs
# and dist_gemm_ag, run the test on GPU 0, then each benchmark for each world size that fits. NVLink
# multicast stays off.
#
#   SHAPES="--shape 8192x8192x8192 --shape 16384x8192x28672" WORLDS="2 4" bash scripts/device/dist.sh
# Environment: BENCHES ("rs ag"; "ce" adds bench/dist/copy_engine_bandwidth, 16 and 64 MiB copies), SHAPES_rs / SHAPES_ag (that bench's --shape list; else SHAPES; else
#   the bench's defaults), WORLDS (default "2 4"; "none": the test only), ITERS (10), TMO (seconds per
#   world and bench, 150), TEST_TMO (the simulated-ranks test, 90), WORLDS_ANYWAY (bench even if the test failed),
#   BUILD_DIR (/tmp/b), OUT (results: dist_gemm_rs_w<W>_c<chunks>.json, build.log), CHUNK_MIBS (the reduce-scatter's
#   chunk sizes to time, MiB, each a run of the bench: "default 8 32"; default: the schedule's alone),
#   DIST_BENCH_TRACE=1 (rank 0's copy timeline per fused op).
export PATH=$PATH:/usr/local/cuda/bin NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-/tmp/b}
OUT=${OUT:-/tmp/cute_dsl_device_out}
mkdir -p "$OUT"
nvidia-smi -L; nvidia-smi topo -m | head -8
cmake -S "$root" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a \
  -DCMAKE_CUDA_FLAGS="--split-compile=8" > "$OUT/build.log" 2>&1
cmake --build "$BUILD_DIR" -j"$(nproc)" --target dist_gemm_rs dist_gemm_ag dist_gpu_tests copy_engine_bandwidth >> "$OUT/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$OUT/build.log" | head -30; exit 1; }
ldd "$(find "$BUILD_DIR" -name dist_gemm_rs -type f)" | grep -i nccl  # which libnccl the benchmarks load
for b in rs ag; do  # registers and spills of the fused kernels
  cuobjdump -res-usage "$(find "$BUILD_DIR" -name "dist_gemm_$b" -type f)" 2>&1 | grep -A1 "ReduceScatter\|AllGather" |
    grep -o "REG:[0-9]*\|STACK:[0-9]*\|LOCAL:[0-9]*" | paste - - - | sort | uniq -c
done
CUDA_VISIBLE_DEVICES=0 timeout "${TEST_TMO:-90}" "$(find "$BUILD_DIR" -name dist_gpu_tests -type f)" > "$OUT/dist_gpu_tests.log" 2>&1
status=$?
grep -E "OK|FAIL|PASSED|rror" "$OUT/dist_gpu_tests.log" | head -30
if [ $status -ne 0 ]; then echo "dist_gpu_tests: exit $status"; tail -30 "$OUT/dist_gpu_tests.log"; [ -n "${WORLDS_ANYWAY:-}" ] || exit 1; fi
[ "${WORLDS:-2 4}" = "none" ] && exit 0
gpus=$(nvidia-smi -L | wc -l)
for b in ${BENCHES:-rs ag}; do
  if [ "$b" = ce ]; then  # the copy engines between all GPUs, no NCCL
    ce=$(find "$BUILD_DIR" -name copy_engine_bandwidth -type f)
    for mib in 16 64; do timeout 120 "$ce" --mib "$mib" | tee -a "$OUT/copy_engine_bandwidth.txt"; done
    continue
  fi
  bench=$(find "$BUILD_DIR" -name "dist_gemm_$b" -type f)
  shapes_var="SHAPES_$b"
  shapes=${!shapes_var:-${SHAPES:-}}
  for w in ${WORLDS:-2 4}; do
    [ "$w" -le "$gpus" ] || continue
    for c in ${CHUNK_MIBS:-default}; do
      [ "$c" = default ] && unset DIST_BENCH_CHUNK_MIB || export DIST_BENCH_CHUNK_MIB=$c
      echo "== $b, world $w, chunks $c"
      # shellcheck disable=SC2086
      timeout "${TMO:-150}" "$bench" --world "$w" --iters "${ITERS:-10}" $shapes --json "$OUT/dist_gemm_${b}_w${w}_c$c.json" 2>&1 |
        grep -E "rank 0|^  (partials|result)|ERROR|rror"
    done
  done
done
