#!/usr/bin/env bash
# The demo, from a fresh clone: setup, build the `cute-dsl` tool and the first example, run them.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

"$root/scripts/setup.sh"
cd "$root"
cmake --preset default >/dev/null
cmake --build --preset default --parallel "$jobs" --target cute-dsl 00_layout_basics
build="$root/build/default"

# Echo a command as one would type it (arguments with shell characters in single quotes), run it.
show() {
  printf '\n$'
  for a in "$@"; do
    if [[ $a =~ ^[A-Za-z0-9_./=-]+$ ]]; then printf ' %s' "$a"; else printf " '%s'" "$a"; fi
  done
  printf '\n'
  "$@"
}
cd "$build"
show ./cute-dsl layout '(8,4):(1,8)'
show ./cute-dsl layout --table '(8,4):(1,8)'
show ./cute-dsl layout 'logical_divide((8,4):(1,8),[2:1,2])'
show ./cute-dsl layout --table 'logical_divide((8,4):(1,8),[4:2,2:1])'   # even rows, then odd rows
show ./cute-dsl layout 'complement((2,2):(1,6),24)'
show ./cute-dsl layout 'composition((4,2):(1,4),2:2)'
show ./cute-dsl layout --table 'blocked_product((2,2):(1,2),(2,3):(3,1))'
show ./examples/00_layout_basics
# The kernels through the JIT: with a GPU, run, checked and timed; without one, compiled for sm_90a
# and their resources shown (the tool lacks `demo` when the CUDA toolkit was not found).
if ./cute-dsl --help | grep -q '^  demo '; then show ./cute-dsl demo; fi
