#!/usr/bin/env python3
"""Table of scripts/device/gemm_ab.sh's output: per shape, the median over rounds of each build's
time (us) and of cuBLAS's (timed in the same processes), and each build's ratio to cuBLAS.
  python3 scripts/device/gemm_ab_table.py ab.txt"""
import re
import statistics
import sys
from collections import defaultdict

times = defaultdict(list)  # (build, impl, shape) -> [us]
order = []
for line in open(sys.argv[1]):
    m = re.match(r"^([a-z]+)\d* (ours|cublas) (\d+x\d+x\d+) [\d.]+ TFLOP/s ([\d.]+) us$", line.strip())
    if not m:
        continue
    build, impl, shape, us = m.group(1), m.group(2), m.group(3), float(m.group(4))
    times[(build, impl, shape)].append(us)
    if shape not in order:
        order.append(shape)
builds = sorted({b for b, _, _ in times})
print("| shape | " + " | ".join(f"{b} us | cuBLAS ({b} runs) us | {b} / cuBLAS" for b in builds) + " |")
print("|---|" + "---:|" * (3 * len(builds)))
for shape in order:
    cells = []
    for b in builds:
        ours, cub = times.get((b, "ours", shape)), times.get((b, "cublas", shape))
        if not ours or not cub:
            cells += ["-", "-", "-"]
            continue
        o, c = statistics.median(ours), statistics.median(cub)
        cells += [f"{o:.1f}", f"{c:.1f}", f"{c / o:.3f}x"]
    print(f"| {shape} | " + " | ".join(cells) + " |")
