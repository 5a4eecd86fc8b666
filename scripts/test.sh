#!/usr/bin/env bash
# Everything CI checks, from a fresh clone: setup, configure, build, run every test.
#   scripts/test.sh                 preset `default` (Release)
#   scripts/test.sh debug           another preset: debug, asan, host-only (see CMakePresets.json)
#   scripts/test.sh default -R ptx  extra arguments go to ctest (here: only the PTX tests)
# CUTE_DSL_JOBS overrides the number of parallel build and test jobs (default: nproc).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
preset=${1:-default}
shift $(( $# > 0 ? 1 : 0 ))

"$root/scripts/setup.sh"
cd "$root"
cmake --preset "$preset"
cmake --build --preset "$preset" --parallel "$jobs"
ctest --preset "$preset" --parallel "$jobs" "$@"
