#!/usr/bin/env bash
# Which kernels cuBLAS launches (name, grid, block, cluster, registers, shared memory, duration) for
# the shapes of GEMM_AB_SHAPES, read by ncu from bench/gemm/gemm_ab.cu's cuBLAS calls (TN bf16 ->
# bf16, cublasGemmEx with CUBLAS_GEMM_DEFAULT: what the sweep compares with). Our kernels and the
# fill kernel are filtered out. A binary built by gemm_ab.sh may be passed as GEMM_AB_BIN.
#   GEMM_AB_SHAPES=3000x3000x3000,8192x8192x8192 OUT=/tmp/o bash scripts/device/cublas_kernels.sh
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export PATH=$PATH:/usr/local/cuda/bin
OUT=${OUT:-/tmp/cute_dsl_device_out}
mkdir -p "$OUT"
bin=${GEMM_AB_BIN:-/tmp/gemm_ab_probe}
if [ ! -x "$bin" ]; then
  nvcc -std=c++20 -O3 -gencode arch=compute_90a,code=sm_90a -lcublas -Iinclude bench/gemm/gemm_ab.cu -o "$bin" > "$OUT/cublas_kernels_build.log" 2>&1 ||
    { tail -20 "$OUT/cublas_kernels_build.log"; exit 1; }
fi
# Every cuBLAS launch is profiled (23 per shape: 3 warm-up, 20 timed; more where a split-K reduce
# kernel follows each call), then grouped by kernel and launch configuration below.
timeout 400 ncu --clock-control none --kernel-name-base function -k 'regex:^(?!fill|gemm_sm90).*' \
  --section LaunchStats --metrics gpu__time_duration.sum --csv --page raw --log-file "$OUT/cublas_kernels.csv" "$bin" probe > "$OUT/cublas_kernels.out" 2>&1
echo "ncu: exit $?"
python3 - "$OUT/cublas_kernels.csv" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r]
head = next(i for i, r in enumerate(rows) if "Kernel Name" in r)
cols = rows[head]
want = ["Kernel Name", "launch__grid_size", "launch__block_size", "launch__cluster_dim_x", "launch__cluster_dim_y",
        "launch__registers_per_thread", "launch__shared_mem_per_block_dynamic", "gpu__time_duration.sum"]
idx = [cols.index(w) if w in cols else -1 for w in want]
seen, first, n = {}, {}, -1
for r in rows[head + 1:]:
    if len(r) != len(cols) or not r[idx[-1]].replace('.', '', 1).replace(',', '').isdigit(): continue  # units row
    n += 1
    key = tuple(r[i] if i >= 0 else "?" for i in idx[:-1])
    first.setdefault(key, n)
    seen.setdefault(key, []).append(r[idx[-1]].replace(',', ''))
# launch n belongs to the (n // 23)-th shape of GEMM_AB_SHAPES when cuBLAS launches one kernel a call
print("first\t" + "\t".join(w.replace("launch__", "") for w in want[:-1]) + "\tlaunches\tmedian_ns")
for key, t in seen.items():
    print(f"{first[key]}\t", end="")
    ts = sorted(float(x) for x in t)
    print("\t".join(key) + f"\t{len(t)}\t{ts[len(ts)//2] if ts else '?'}")
PY
