#!/usr/bin/env bash
# Same-machine A/B of issue 11's benchmark: scripts/device/epilogue.sh built against another
# include tree ("old") and against this checkout's ("new"), one after the other (each run times
# our plain GEMM, the fused kernels and cuBLASLt: compare ratios within a run). First, here:
#   rm -rf .devcarry/old && mkdir -p .devcarry/old && git archive REV include | tar -x -C .devcarry/old
# then on a device machine (carry .devcarry/old):  OUT=/tmp/o bash scripts/device/epilogue_ab.sh
# Environment: FILTER (epilogue.sh's), OUT (old/ and new/ each get epilogue.sh's files).
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${OUT:-/tmp/cute_dsl_device_out}
rm -rf /tmp/src_old && mkdir -p /tmp/src_old
(cd "$root" && tar --exclude=./.devcarry --exclude=./build -cf - .) | tar -xf - -C /tmp/src_old
rm -rf /tmp/src_old/include && cp -r "$root/.devcarry/old/include" /tmp/src_old/include
for v in old new; do
  src=$root
  [ "$v" = old ] && src=/tmp/src_old
  BUILD_DIR=/tmp/b_$v OUT=$OUT/$v CUTE_DSL_CACHE_DIR=/tmp/jit_cache_$v bash "$src/scripts/device/epilogue.sh" > "$OUT/$v.txt" 2>&1
  echo "== $v: exit $?"
  tail -40 "$OUT/$v.txt"
done
