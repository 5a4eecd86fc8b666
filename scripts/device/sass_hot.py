#!/usr/bin/env python3
"""Summary of an ncu SASS page (ncu -i REP --page source --print-source sass --csv > F.csv):
total stall samples, the samples of the hottest instructions with their top stall reasons, and
the samples of every full/empty-barrier wait (SYNCS.PHASECHK) with the branch after it.
  python3 sass_hot.py F.csv [TOP]"""
import csv
import sys


def main():
    rows = list(csv.reader(open(sys.argv[1])))
    top_n = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    hdr, data = rows[1], rows[2:]
    src, allc, ex = hdr.index("Source"), hdr.index("Warp Stall Sampling (All Samples)"), hdr.index("Instructions Executed")
    stalls = [i for i, h in enumerate(hdr) if h.startswith("stall_") and "Not Issued" not in h]
    samples = [int(r[allc] or 0) for r in data]
    print(f"{sys.argv[1]}: {sum(samples)} samples, {len(data)} instructions")
    for i in sorted(sorted(range(len(data)), key=lambda i: -samples[i])[:top_n]):
        why = sorted(((int(data[i][s] or 0), hdr[s][6:]) for s in stalls), reverse=True)[:2]
        print(f"  {i:6d} {samples[i]:6d} x{data[i][ex]:>9} {data[i][src].strip()[:64]:64s} {why}")
    waits = sum(samples[i] + (samples[i + 1] if i + 1 < len(data) else 0) for i, r in enumerate(data) if "SYNCS.PHASECHK" in r[src])
    print(f"  barrier waits (SYNCS.PHASECHK + next): {waits}")


main()
