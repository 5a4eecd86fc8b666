#!/usr/bin/env bash
# One-GPU A/B of the fused reduce-scatter's kernel alone (bench/dist/rs_kernel_alone: rank 0 of
# WORLD, every chunk "arrived", against the plain GEMM of the same variant): this checkout's build
# ("new") and the same benchmark compiled against other include trees (.devcarry/V/include, made
# on the dev machine with `git archive REV include | tar -x -C .devcarry/V`, or edited copies for
# timing-only experiments), linked with new's GEMM instances. Run in rotation, ROUNDS times.
#   VARIANTS="old" WORLDS="2 4" SHAPES="8192x8192x8192" ROUNDS=2 OUT=/tmp/o bash scripts/device/rs_alone_ab.sh
# NCU=1: also ncu (sections + per-SASS stall samples, $OUT/sass_*.csv) of new's fused kernel and
# the plain one, world NCU_WORLD (2), shape NCU_SHAPE (8192x8192x8192).
export PATH=$PATH:/usr/local/cuda/bin
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${OUT:-/tmp/cute_dsl_device_out}
BUILD_DIR=${BUILD_DIR:-/tmp/b}
mkdir -p "$OUT"
nvidia-smi -L
cmake -S "$root" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a \
  -DCMAKE_CUDA_FLAGS="--split-compile=8" > "$OUT/build_new.log" 2>&1
cmake --build "$BUILD_DIR" -j"$(nproc)" --target rs_kernel_alone >> "$OUT/build_new.log" 2>&1 || { tail -20 "$OUT/build_new.log"; exit 1; }
new_bin=$(find "$BUILD_DIR" -name rs_kernel_alone -type f | head -1)
# The variants: new's compile and link commands with the include tree (and the outputs) replaced.
compile=$(cd "$BUILD_DIR" && ninja -t commands "${new_bin#"$BUILD_DIR"/}" | grep -- "-c .*rs_kernel_alone.cu")
link=$(cd "$BUILD_DIR" && ninja -t commands "${new_bin#"$BUILD_DIR"/}" | tail -1)
obj=$(echo "$compile" | grep -o -- " -o [^ ]*" | cut -c5-)
exe=${new_bin#"$BUILD_DIR"/}
for v in ${VARIANTS:-}; do
  c=${compile//-I$root\/include /-I$root/.devcarry/$v/include }
  ( cd "$BUILD_DIR" && eval "${c// -o $obj/ -o /tmp/rs_alone_$v.o}" > "$OUT/build_$v.log" 2>&1 ) &
done
wait
for v in ${VARIANTS:-}; do  # link: new's command with the object and the output replaced
  l=${link//$obj//tmp/rs_alone_$v.o}
  ( cd "$BUILD_DIR" && eval "${l// -o $exe / -o /tmp/rs_alone_$v }" ) >> "$OUT/build_$v.log" 2>&1 || { echo "build $v FAILED"; tail -5 "$OUT/build_$v.log"; }
done
cp "$new_bin" /tmp/rs_alone_new
for v in ${VARIANTS:-} new; do
  echo "$v:"; cuobjdump -res-usage /tmp/rs_alone_$v 2>&1 | grep -A1 "gemm_sm90_fused" | grep -o "REG:[0-9]*\|STACK:[0-9]*\|LOCAL:[0-9]*" | paste - - -
done
for shape in ${SHAPES:-8192x8192x8192}; do
  for w in ${WORLDS:-2 4}; do
    for round in $(seq 1 "${ROUNDS:-2}"); do
      for v in ${VARIANTS:-} new; do
        echo "== $v: $(timeout 120 /tmp/rs_alone_$v --world "$w" --shape "$shape" --iters "${ITERS:-20}" 2>&1 | tail -1)" | tee -a "$OUT/rs_alone_ab.txt"
      done
    done
  done
done
if [ "${NCU:-0}" = 1 ]; then  # new's plain kernel, and the fused one of new and of each NCU_VARIANTS
  for v in plain ${NCU_VARIANTS:-} new; do
    k=gemm_sm90_fused bin=/tmp/rs_alone_$v
    [ $v = plain ] && k=gemm_sm90_kernel bin=/tmp/rs_alone_new
    timeout 200 ncu --kernel-name-base mangled -k "regex:${k}.*Li256ELi4ELi2ELb0" -c 1 --set full --import-source no -o "$OUT/rep_$v" \
      $bin --world "${NCU_WORLD:-2}" --shape "${NCU_SHAPE:-8192x8192x8192}" --once > "$OUT/ncu_$v.log" 2>&1
    echo "== ncu $v"
    ncu -i "$OUT/rep_$v.ncu-rep" --page details --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats 2>&1 |
      grep -E "Duration|Compute \(SM\)|DRAM Throughput|L2 Hit Rate|Mem Busy|Max Bandwidth|Warp Cycles Per Issued" | head -10
    ncu -i "$OUT/rep_$v.ncu-rep" --page source --print-source sass --csv > "/tmp/sass_$v.csv" 2>&1
    python3 "$root/scripts/device/sass_hot.py" "/tmp/sass_$v.csv" 14
    rm -f "$OUT/rep_$v.ncu-rep"
  done
fi
