#!/usr/bin/env python3
"""Plots Google Benchmark JSON from bench/ as rate per size, one line per benchmark family.

    python3 bench/plot.py elementwise.json [more.json ...] -o elementwise.png [--metric GBps] [--filter REGEX]

Family = the benchmark name before its first '/' (BM_Add<float, 256, 4>); size = the counter
`buffer_bytes` when present, else the first numeric argument of the name. The rate is the counter
named by --metric (default: GBps if present, else TFLOPs). For runs with repetitions only the
median aggregate is used. Always prints the table (families x sizes); draws the PNG with
matplotlib when it is installed, and says so when it is not (the table is still printed).
"""
import argparse
import collections
import json
import re
import sys


def load_rows(paths, metric, name_filter):
    rows = []  # (family, size, value)
    context = {}
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        context = data.get("context", context)
        benches = data.get("benchmarks", [])
        has_aggregates = any(b.get("run_type") == "aggregate" for b in benches)
        for b in benches:
            if has_aggregates and b.get("aggregate_name") != "median":
                continue
            if b.get("error_occurred"):
                continue
            name = b.get("run_name", b["name"])
            if name_filter and not re.search(name_filter, name):
                continue
            m = metric or ("GBps" if "GBps" in b else "TFLOPs")
            if m not in b:
                continue
            parts = name.split("/")
            size = b.get("buffer_bytes")
            if size is None:
                nums = [p for p in parts[1:] if p.isdigit()]
                size = int(nums[0]) if nums else 0
            rows.append((parts[0], int(size), float(b[m]), m))
    return rows, context


def human_bytes(n):
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale and n % scale == 0:
            return f"{n // scale} {unit}"
    return str(n)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+")
    ap.add_argument("-o", "--output", default="bench.png")
    ap.add_argument("--metric", default=None, help="counter to plot (GBps, TFLOPs, ...)")
    ap.add_argument("--filter", default=None, help="regex on benchmark names")
    ap.add_argument("--title", default=None)
    args = ap.parse_args()

    rows, context = load_rows(args.json, args.metric, args.filter)
    if not rows:
        print("plot.py: no successful benchmark rows (no GPU in that run?)", file=sys.stderr)
        return 1
    metric = rows[0][3]
    series = collections.OrderedDict()
    for fam, size, value, _ in rows:
        series.setdefault(fam, {})[size] = value
    sizes = sorted({s for _, s, _, _ in rows})

    width = max(len(f) for f in series) + 2
    print(f"{'benchmark':<{width}}" + "".join(f"{human_bytes(s):>10}" for s in sizes) + f"   ({metric})")
    for fam, points in series.items():
        print(f"{fam:<{width}}" + "".join(f"{points[s]:>10.0f}" if s in points else f"{'-':>10}" for s in sizes))

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot.py: matplotlib is not installed: table only, no PNG "
              "(pip install matplotlib, or apt-get install python3-matplotlib)")
        return 0
    fig, ax = plt.subplots(figsize=(10, 6))
    for fam, points in series.items():
        xs = sorted(points)
        # References (cudaMemcpy, cuBLAS) dashed, ours solid.
        style = "--" if re.search(r"Memcpy|Cublas|cuBLAS", fam) else "-"
        ax.plot(xs, [points[x] for x in xs], style, marker="o", label=fam)
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes)
    ax.set_xticklabels([human_bytes(s) for s in sizes], rotation=30)
    ax.set_xlabel("size per buffer")
    ax.set_ylabel(metric)
    ax.grid(True, alpha=0.3)
    subtitle = ", ".join(str(context.get(k)) for k in ("gpu", "cuda_driver", "date") if context.get(k))
    ax.set_title((args.title or "CuteDSL kernels vs references") + (f"\n{subtitle}" if subtitle else ""))
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"plot.py: wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
