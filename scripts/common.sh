# Sourced by scripts/test.sh and scripts/demo.sh: the repository root, the number of build jobs,
# and nvcc for CMake when the toolkit is installed but not on PATH.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=${CUTE_DSL_JOBS:-$(nproc 2>/dev/null || echo 2)}
if [[ -z ${CUDACXX:-} ]] && ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export CUDACXX=/usr/local/cuda/bin/nvcc
fi
