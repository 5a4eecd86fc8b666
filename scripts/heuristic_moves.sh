#!/usr/bin/env bash
# The shapes whose Hopper GEMM choice differs between git revision REV's headers and the working
# tree's (bench/gemm/heuristic_choices.cpp, built twice with the host compiler; no GPU):
#   bash scripts/heuristic_moves.sh REV [heuristic_choices arguments, default: grid]
# prints "shape old-choice -> new-choice" per moved shape, then the count, e.g.
#   bash scripts/heuristic_moves.sh HEAD~1 random 4000 20261128
# and GEMM_AB_SHAPES for scripts/device/gemm_ab.sh: ... | awk '/->/{print $1}' | paste -sd,
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rev=${1:?usage: heuristic_moves.sh REV [grid | random N SEED | MxNxK...]}
shift
[ $# -gt 0 ] || set -- grid
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git archive "$rev" include | tar -x -C "$tmp"
cxx=${CXX:-g++}
cuda_inc=${CUDA_HOME:-/usr/local/cuda}/include
$cxx -std=c++20 -O1 -I"$tmp/include" -I"$cuda_inc" bench/gemm/heuristic_choices.cpp -o "$tmp/old"
$cxx -std=c++20 -O1 -Iinclude -I"$cuda_inc" bench/gemm/heuristic_choices.cpp -o "$tmp/new"
"$tmp/old" "$@" > "$tmp/old.txt"
"$tmp/new" "$@" > "$tmp/new.txt"
paste -d' ' "$tmp/old.txt" "$tmp/new.txt" | awk '$2 != $5 || $3 != $6 { print $1, $2, "sp" $3, "->", $5, "sp" $6; n++ } END { print n + 0, "of", NR, "shapes move" }'
