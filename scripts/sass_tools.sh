#!/usr/bin/env bash
# cuobjdump and nvdisasm on a machine without them (the build machine's CUDA has neither): NVIDIA's
# PyPI wheels nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm, downloaded once into a cache folder.
# Prints the folder that holds the two tools. Not used by the build or CI (no network there).
#   X=$(bash scripts/sass_tools.sh) && "$X/cuobjdump" -sass -fun 'NAME' a.out | grep -E 'STL|LDL'
# With that folder on PATH the JIT's dumps (CUTE_DSL_DUMP_DIR) include the kernels' SASS.
# Environment: CUTE_DSL_SASS_TOOLS (the cache folder; default ~/.cache/cute_dsl_sass_tools).
set -euo pipefail
dir=${CUTE_DSL_SASS_TOOLS:-$HOME/.cache/cute_dsl_sass_tools}
bin=$dir/nvidia/cu13/bin
if [ ! -x "$bin/cuobjdump" ] || [ ! -x "$bin/nvdisasm" ]; then
  mkdir -p "$dir/wheels"
  python3 -m pip download --quiet --no-deps nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm -d "$dir/wheels" >&2 ||
    { echo "ERROR: could not download nvidia-cuda-cuobjdump / nvidia-cuda-nvdisasm from PyPI" >&2; exit 1; }
  for w in "$dir"/wheels/*.whl; do python3 -m zipfile -e "$w" "$dir"; done
  chmod +x "$bin"/* 2>/dev/null || true
  [ -x "$bin/cuobjdump" ] && [ -x "$bin/nvdisasm" ] || { echo "ERROR: the wheels did not hold $bin/cuobjdump and nvdisasm" >&2; exit 1; }
fi
echo "$bin"
