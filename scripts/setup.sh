#!/usr/bin/env bash
# Prepares a Debian/Ubuntu machine to build and test CuteDSL. Idempotent: installs only the
# packages of scripts/debian-packages.txt that are missing (one `apt-get update` at most), as
# root or through sudo, then reports whether nvcc and NVRTC are there (they are optional: the
# CUDA-side tests are reported SKIPPED without them). Installs nothing when all is present.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
list="$root/scripts/debian-packages.txt"

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: ERROR: %s\n' "$*" >&2; exit 1; }

# ---- Debian packages ------------------------------------------------------------------------
mapfile -t packages < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$list" | grep -v '^$')

if command -v dpkg-query >/dev/null 2>&1; then
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if ((${#missing[@]} == 0)); then
    say "all ${#packages[@]} packages of scripts/debian-packages.txt are installed"
  else
    say "installing: ${missing[*]}"
    if [[ $(id -u) -eq 0 ]]; then
      as_root=()
    elif command -v sudo >/dev/null 2>&1; then
      as_root=(sudo)
    else
      die "not root and no sudo; install these packages first: ${missing[*]}"
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${as_root[@]}" apt-get update -qq
    "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
else
  say "no dpkg-query (not Debian/Ubuntu): install the equivalents of ${packages[*]} yourself"
fi

# ---- tools the build cannot do without ------------------------------------------------------
for tool in cmake c++ ninja; do
  command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found after setup"
done
cmake_version=$(cmake --version | head -n1 | awk '{print $3}')
if ! printf '3.24\n%s\n' "$cmake_version" | sort -V -C; then
  die "CMake $cmake_version is too old; CuteDSL needs 3.24 or newer"
fi

# ---- CUDA: optional ---------------------------------------------------------------------------
nvcc_path=$(command -v nvcc 2>/dev/null || true)
if [[ -z $nvcc_path && -x /usr/local/cuda/bin/nvcc ]]; then
  nvcc_path=/usr/local/cuda/bin/nvcc
  say "nvcc is at $nvcc_path but not on PATH; CMake will still find it through CUDACXX:"
  say "  export CUDACXX=$nvcc_path   (scripts/test.sh and scripts/demo.sh do this for you)"
fi
if [[ -n $nvcc_path ]]; then
  cuda_version=$("$nvcc_path" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')
  say "CUDA $cuda_version: nvcc $nvcc_path; the nvcc-side checks will run (no GPU needed)"
  cuda_root=$(cd "$(dirname "$nvcc_path")/.." && pwd)
  if compgen -G "$cuda_root/lib64/libnvrtc.so*" >/dev/null || compgen -G "$cuda_root/targets/*/lib/libnvrtc.so*" >/dev/null; then
    say "NVRTC found under $cuda_root; the NVRTC checks and the compile benchmark will run"
  else
    say "NVRTC not found under $cuda_root; NVRTC-side tests will be reported SKIPPED"
  fi
else
  say "nvcc not found: the CUDA-side tests (headers under nvcc/NVRTC, PTX, CUDA consumer) will be"
  say "reported SKIPPED. Install the CUDA toolkit 12.0+ and put its bin/ on PATH to run them."
fi
