#!/usr/bin/env bash
# Same-card A/B of the Hopper GEMM: bench/gemm/gemm_ab.cu built against an older include tree and
# against this checkout's, both run twice, alternating. On this (dev) machine, first:
#   mkdir -p .devcarry/old && git archive REV include | tar -x -C .devcarry/old   # .devcarry is git-ignored locally
# then on the device machine (carry .devcarry):  bash scripts/device/gemm_ab.sh
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export PATH=$PATH:/usr/local/cuda/bin
old=${OLD_INCLUDE:-.devcarry/old/include}
flags="-std=c++20 -O3 -gencode arch=compute_90a,code=sm_90a -lcublas"
nvcc $flags -I"$old" bench/gemm/gemm_ab.cu -o /tmp/gemm_ab_old >/tmp/gemm_ab_old.log 2>&1 &
nvcc $flags -Iinclude bench/gemm/gemm_ab.cu -o /tmp/gemm_ab_new -Xptxas -v >/tmp/gemm_ab_new.log 2>&1 &
wait
grep -E "spill" /tmp/gemm_ab_new.log | sort | uniq -c
/tmp/gemm_ab_old old && /tmp/gemm_ab_new new && /tmp/gemm_ab_old old2 && /tmp/gemm_ab_new new2
