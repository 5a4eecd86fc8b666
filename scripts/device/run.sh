#!/usr/bin/env bash
# The GPU run, on the device machine (an H200): build, every `gpu`-labelled test, compute-sanitizer
# over each GPU test program, the benchmarks listed in scripts/device/benchmarks.txt; a short table.
#
#   bash scripts/device/run.sh                        all stages: build tests sanitize bench
#   STAGES="build tests" bash scripts/device/run.sh   some of them (one device command has 10 min:
#                                                     split long runs over calls; the build folder
#                                                     stays on the warm machine between calls)
# Environment:
#   STAGES             stages to run, in this order: build tests sanitize bench (default: all)
#   BUILD_DIR          build folder (default /tmp/b)
#   BUILD_TARGETS      targets to build (default: all), e.g. "pipeline_gpu_tests warp_gpu_tests"
#   JOBS               build jobs (default 16)
#   CTEST_ARGS         extra ctest arguments for the tests stage, e.g. "-R gpu.pipeline"
#   SANITIZE_FILTER    regex on GPU test program names to sanitize (default: all)
#   SANITIZE_TOOLS     compute-sanitizer tools (default "memcheck racecheck")
#   SANITIZE_GTEST_FILTER  --gtest_filter for the sanitizer runs (default '*')
#   SANITIZE_TIMEOUT   seconds per sanitizer run (default 240)
#   OUT                where results go (the device tool sets it; default /tmp/cute_dsl_device_out)
# Results in $OUT (the device tool returns at most 8 files, 2 folders deep):
#   summary.txt  gpu_tests.log  build.log  sanitizer_logs.tar.gz  bench_json.tar.gz
# Exit status: 0 when every stage run passed.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
STAGES=${STAGES:-"build tests sanitize bench"}
BUILD_DIR=${BUILD_DIR:-/tmp/b}
JOBS=${JOBS:-16}
OUT=${OUT:-/tmp/cute_dsl_device_out}
SANITIZE_TOOLS=${SANITIZE_TOOLS:-"memcheck racecheck"}
SANITIZE_TIMEOUT=${SANITIZE_TIMEOUT:-240}
SANITIZE_GTEST_FILTER=${SANITIZE_GTEST_FILTER:-'*'}
mkdir -p "$OUT"
work=$(mktemp -d /tmp/cute_dsl_device.XXXXXX)
status=0
summary="$OUT/summary.txt"
: >"$summary"

if [[ -z ${CUDACXX:-} ]] && ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export CUDACXX=/usr/local/cuda/bin/nvcc
  export PATH=$PATH:/usr/local/cuda/bin
fi
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)

say() { echo "$*" | tee -a "$summary"; }
has_stage() { [[ " $STAGES " == *" $1 "* ]]; }

# ---- build ----------------------------------------------------------------------------------
if has_stage build; then
  say "== build ($BUILD_DIR, targets: ${BUILD_TARGETS:-all})"
  {
    # Ninja, and -k 0: one helper's broken target must not keep everyone else's tests from building.
    generator=() keep_going=()
    command -v ninja >/dev/null 2>&1 && generator=(-G Ninja) && keep_going=(-- -k 0)
    cmake -S "$root" -B "$BUILD_DIR" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a &&
      if [[ -n ${BUILD_TARGETS:-} ]]; then
        # shellcheck disable=SC2086
        cmake --build "$BUILD_DIR" -j "$JOBS" --target $BUILD_TARGETS "${keep_going[@]}"
      else
        cmake --build "$BUILD_DIR" -j "$JOBS" "${keep_going[@]}"
      fi
  } >"$OUT/build.log" 2>&1
  rc=$?
  if [[ $rc -ne 0 ]]; then
    say "build FAILED (rc $rc); last lines:"
    grep -E "error|FAILED" "$OUT/build.log" | head -20 | tee -a "$summary"
    status=1
  else
    say "build ok"
  fi
fi

# The GPU test programs and which test belongs to which: `ctest -N -V` prints, per test number,
# "N: Test command: <program> ..." and "Test #N: <name>".
list_gpu_tests() {
  (cd "$BUILD_DIR" && ctest -L gpu -N -V 2>/dev/null) | awk '
    /^[0-9]+: Test command: / { n = $1; sub(":", "", n); exe[n] = $4; gsub(/"/, "", exe[n]) }
    /^ *Test +#[0-9]+: / { n = $2; sub("#", "", n); sub(":", "", n); print $3 "\t" exe[n] }'
}

# ---- tests ----------------------------------------------------------------------------------
if has_stage tests; then
  say "== tests (ctest -L gpu ${CTEST_ARGS:-})"
  # shellcheck disable=SC2086
  (cd "$BUILD_DIR" && ctest -L gpu --output-on-failure ${CTEST_ARGS:-}) >"$OUT/gpu_tests.log" 2>&1
  rc=$?
  [[ $rc -ne 0 ]] && status=1
  list_gpu_tests >"$work/tests.tsv"
  # Per program: passed / failed / skipped, from ctest's result lines.
  awk -F'\t' '
    FNR == NR { prog[$1] = $2; next }
    /Test +#[0-9]+: / {
      name = $0; sub(/.*Test +#[0-9]+: /, "", name); sub(/ .*/, "", name)
      p = prog[name]; if (p == "") p = "(not built)"; sub(".*/", "", p); seen[p] = 1
      if ($0 ~ /\*\*\*Skipped/) skip[p]++; else if ($0 ~ / Passed /) pass[p]++; else fail[p]++
    }
    END {
      printf "%-28s %7s %7s %8s\n", "gpu test program", "passed", "failed", "skipped"
      for (p in seen) printf "%-28s %7d %7d %8d\n", p, pass[p], fail[p], skip[p]
    }' "$work/tests.tsv" "$OUT/gpu_tests.log" | tee -a "$summary"
  grep -E "tests passed|tests failed" "$OUT/gpu_tests.log" | tail -1 | tee -a "$summary"
  grep -E "\*\*\*(Failed|Exception|Timeout|Not Run)" "$OUT/gpu_tests.log" | head -20 | tee -a "$summary"
fi

# ---- sanitize -------------------------------------------------------------------------------
if has_stage sanitize; then
  say "== compute-sanitizer ($SANITIZE_TOOLS), gtest filter '$SANITIZE_GTEST_FILTER'"
  mkdir -p "$work/sanitizer"
  list_gpu_tests | cut -f2 | sort -u >"$work/programs.txt"
  printf "%-28s %-10s %8s %s\n" "gpu test program" "tool" "errors" "note" | tee -a "$summary"
  while read -r exe; do
    [[ -z $exe ]] && continue
    name=$(basename "$exe")
    if [[ -n ${SANITIZE_FILTER:-} ]] && ! [[ $name =~ $SANITIZE_FILTER ]]; then continue; fi
    for tool in $SANITIZE_TOOLS; do
      log="$work/sanitizer/${name}.${tool}.log"
      # CUTE_DSL_SANITIZER_RUN: the streaming tests shrink their problems (sanitizers are slow).
      CUTE_DSL_SANITIZER_RUN=1 timeout "$SANITIZE_TIMEOUT" "$sanitizer" --tool "$tool" --error-exitcode 99 \
        "$exe" --gtest_filter="$SANITIZE_GTEST_FILTER" >"$log" 2>&1
      rc=$?
      errors=$(grep -oE "(RACECHECK|ERROR) SUMMARY: [0-9]+ (hazard|error)" "$log" | grep -oE "[0-9]+" | head -1)
      if grep -q "RACECHECK SUMMARY" "$log"; then
        errors=$(grep -oE "RACECHECK SUMMARY: .*\(([0-9]+) error" "$log" | grep -oE "\(([0-9]+)" | tr -d '(' | head -1)
      fi
      note=""
      [[ $rc -eq 124 ]] && note="TIMEOUT after ${SANITIZE_TIMEOUT}s"
      [[ $rc -ne 0 && $rc -ne 124 && $rc -ne 99 ]] && note="rc $rc (gtest failure?)"
      grep -qE "\[  FAILED  \]" "$log" && note="$note gtest FAILED"
      [[ -z $errors ]] && errors="?"
      if [[ $errors != 0 || -n $note ]]; then status=1; fi
      printf "%-28s %-10s %8s %s\n" "$name" "$tool" "$errors" "$note" | tee -a "$summary"
    done
  done <"$work/programs.txt"
  tar -czf "$OUT/sanitizer_logs.tar.gz" -C "$work" sanitizer
fi

# ---- bench ----------------------------------------------------------------------------------
# scripts/device/benchmarks.txt: one benchmark per line, `<program> [args...]`, the program
# relative to the build folder (or absolute). Arguments may name $OUT (results that come back as
# they are: mind the 8-file limit) or `{json}` (a path whose file is packed into bench_json.tar.gz);
# with neither, the program's standard output is packed as its JSON. '#' starts a comment.
if has_stage bench; then
  list="$root/scripts/device/benchmarks.txt"
  if [[ -f $list ]]; then
    say "== benchmarks ($list)"
    mkdir -p "$work/bench"
    while read -r line; do
      line=${line%%#*}
      [[ -z ${line// /} ]] && continue
      read -r prog args <<<"$line"
      [[ $prog != /* ]] && prog="$BUILD_DIR/${prog#./}"
      json="$work/bench/$(basename "$prog").json"
      # $OUT and other variables in the arguments are expanded (the list is ours, not user input).
      args=$(OUT="$OUT" eval "echo ${args//\{json\}/$json}")
      # shellcheck disable=SC2016  # a literal $OUT in the list line
      if [[ $line == *"{json}"* || $line == *'$OUT'* ]]; then
        # shellcheck disable=SC2086
        (cd "$BUILD_DIR" && "$prog" $args) >"$json.log" 2>&1
      else
        # shellcheck disable=SC2086
        (cd "$BUILD_DIR" && "$prog" $args) >"$json" 2>"$json.log"
      fi
      rc=$?
      [[ $rc -ne 0 ]] && status=1
      say "$(basename "$prog"): rc $rc"
    done <"$list"
    tar -czf "$OUT/bench_json.tar.gz" -C "$work" bench
    # The short tables last: GEMM ours vs cuBLAS, and the elementwise kernels' best ratios to a copy.
    if [[ -f $OUT/gemm.json ]]; then
      python3 "$root/bench/gemm/summarize.py" "$OUT/gemm.json" | cut -d'|' -f1-5 | tee -a "$summary"
    fi
    if [[ -f $OUT/gemm_sweep.json ]]; then  # the headline and the per-group table
      python3 "$root/bench/gemm/summarize.py" --sweep "$OUT/gemm_sweep.json" | sed -n '1,16p' | tee -a "$summary"
    fi
    if [[ -f $work/bench/elementwise_bench.json.log ]]; then
      sed -n '/== best of ours/,$p' "$work/bench/elementwise_bench.json.log" | tee -a "$summary"
    fi
  else
    say "== benchmarks: no scripts/device/benchmarks.txt, nothing to run"
  fi
fi

say "== overall: $([[ $status -eq 0 ]] && echo PASS || echo FAIL)"
rm -rf "$work"
exit $status
