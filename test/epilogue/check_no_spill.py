#!/usr/bin/env python3
"""Runs a compiler command with `-Xptxas -v` and fails when any fused kernel (gemm_sm90_fused_kernel)
spills or uses a stack frame; prints ptxas's lines for those kernels either way."""
import re
import subprocess
import sys

proc = subprocess.run(sys.argv[1:], capture_output=True, text=True)
sys.stdout.write(proc.stdout)
if proc.returncode != 0:
    sys.stderr.write(proc.stderr)
    sys.exit(proc.returncode)
current, failed, seen = None, False, 0
for line in proc.stderr.splitlines():
    m = re.search(r"Function properties for (\S+)", line) or re.search(r"Compiling entry function '(\S+)'", line)
    if m:
        current = m.group(1)
        continue
    if current and "gemm_sm90_fused_kernel" in current and "spill" in line:
        seen += 1
        print(current[:120], line.strip())
        nums = [int(x) for x in re.findall(r"(\d+) bytes", line)]
        if any(nums):
            failed = True
if seen == 0:
    print("no fused kernel found in ptxas output")
    sys.exit(1)
sys.exit(1 if failed else 0)
