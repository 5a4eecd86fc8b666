#!/usr/bin/env bash
# Same-card A/B of the Hopper GEMM: bench/gemm/gemm_ab.cu built against an older include tree and
# against this checkout's, run ROUNDS times each (default 2), alternating. On this (dev) machine, first:
#   mkdir -p .devcarry/old && git archive REV include | tar -x -C .devcarry/old   # .devcarry is git-ignored locally
# then on the device machine (carry .devcarry):  bash scripts/device/gemm_ab.sh
# Environment: OLD_INCLUDE (default .devcarry/old/include), ROUNDS, GEMM_AB_SHAPES ("MxNxK,...":
# gemm_ab.cu's shapes), WAIT_FOR (a PID to wait for between building and timing, e.g. a build
# of the tests started beside this one: timings with the CPUs busy would include late launches),
# REUSE_BUILD=1 (time the binaries an earlier call of this script built, in the same device call),
# AB_OLD / AB_NEW (binaries built on the dev machine and carried, which costs no device time: the
# toolkit there has cuBLAS --
#   nvcc -std=c++20 -O3 -gencode arch=compute_90a,code=sm_90a -lcublas -Iinclude bench/gemm/gemm_ab.cu -o .devcarry/bin/ab_new
# -- about a minute each on 2 cores; the carry limit is 64 MiB, ~7 MB a binary).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export PATH=$PATH:/usr/local/cuda/bin LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
old=${OLD_INCLUDE:-.devcarry/old/include}
flags="-std=c++20 -O3 -gencode arch=compute_90a,code=sm_90a -lcublas"
if [ -n "${AB_OLD:-}" ] && [ -n "${AB_NEW:-}" ]; then
  cp "$AB_OLD" /tmp/gemm_ab_old && cp "$AB_NEW" /tmp/gemm_ab_new && : >/tmp/gemm_ab_new.log
elif [ -z "${REUSE_BUILD:-}" ] || [ ! -x /tmp/gemm_ab_old ] || [ ! -x /tmp/gemm_ab_new ]; then
  nvcc $flags -I"$old" bench/gemm/gemm_ab.cu -o /tmp/gemm_ab_old >/tmp/gemm_ab_old.log 2>&1 &
  nvcc $flags -Iinclude bench/gemm/gemm_ab.cu -o /tmp/gemm_ab_new -Xptxas -v >/tmp/gemm_ab_new.log 2>&1 &
  wait
fi
[ -x /tmp/gemm_ab_old ] && [ -x /tmp/gemm_ab_new ] || { tail -20 /tmp/gemm_ab_old.log /tmp/gemm_ab_new.log; exit 1; }
grep -E "spill" /tmp/gemm_ab_new.log | sort | uniq -c
if [ -n "${WAIT_FOR:-}" ]; then while kill -0 "$WAIT_FOR" 2>/dev/null; do sleep 2; done; fi
for r in $(seq 1 "${ROUNDS:-2}"); do
  /tmp/gemm_ab_old "old$r" || exit 1
  /tmp/gemm_ab_new "new$r" || exit 1
done
