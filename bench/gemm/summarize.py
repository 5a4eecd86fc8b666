#!/usr/bin/env python3
"""Prints the GEMM benchmark's table: per shape, cuBLAS and ours (median TFLOP/s), the ratio,
and ours' relative error. Reads the JSON that gemm_bench writes with --benchmark_out.

    python3 bench/gemm/summarize.py gemm.json [--png gemm.png]

With --png (needs matplotlib) it also draws the table as bars: TFLOP/s per shape, ours beside
cuBLAS, the ratio written over each pair.

With --sweep it reads gemm_sweep's JSON ("<group>/<shape>/pair", or before 2026-11-28
"<group>/<shape>/<cublas|ours>") instead and prints the
judged summary (issue 10): the geomean of ours / cuBLAS over every shape both ran, the worst
shape, the geomean per group, then every shape (ratio, TFLOP/s, rel. error) and every shape ours
did not run or got wrong, with the reason. --png draws the ratio per shape, grouped.

    python3 bench/gemm/summarize.py --sweep sweep.json --png sweep.png --device "NVIDIA H100" > sweep.md
"""
import argparse
import json
import math


def load(path):
    with open(path) as f:
        data = json.load(f)
    rows = {}  # shape -> {impl: (tflops, rel_err)}
    for b in data.get("benchmarks", []):
        if b.get("error_occurred"):
            continue
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        impl, _, shape = b["run_name"].partition("/")
        shape = shape.split("/")[0]
        rows.setdefault(shape, {})[impl] = (b.get("TFLOPs", 0.0), b.get("rel_err"))  # counter in TFLOP/s
    return rows, data.get("context", {})


def pyplot(png):
    """matplotlib.pyplot drawing to files, or None (said) when matplotlib is not installed."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"summarize.py: matplotlib is not installed; {png} not drawn")
        return None
    return plt


def plot(rows, ctx, png, device):
    plt = pyplot(png)
    if plt is None:
        return
    shapes = [s for s, i in rows.items() if "cublas" in i and "cute_dsl_sm90" in i]
    cublas = [rows[s]["cublas"][0] for s in shapes]
    ours = [rows[s]["cute_dsl_sm90"][0] for s in shapes]
    fig, ax = plt.subplots(figsize=(max(8, 0.9 * len(shapes)), 4.5))
    x = range(len(shapes))
    ax.bar([i - 0.2 for i in x], cublas, width=0.4, label="cuBLAS")
    ax.bar([i + 0.2 for i in x], ours, width=0.4, label="CuteDSL gemm_sm90")
    for i, (c, o) in enumerate(zip(cublas, ours)):
        ax.text(i, max(c, o) + 8, f"{o / c:.2f}x" if c else "-", ha="center", fontsize=8)
    ax.set_xticks(list(x))
    ax.set_xticklabels(shapes, rotation=35, ha="right", fontsize=8)
    ax.set_ylabel("TFLOP/s (bf16 in, f32 accumulate)")
    ax.set_title(f"GEMM on {device or ctx.get('host_name', '')}, {ctx.get('date', '')[:10]}: ours vs cuBLAS, medians")
    ax.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    print(f"summarize.py: wrote {png}")


def main(path, png=None, device=None):
    rows, ctx = load(path)
    print(f"# GEMM bf16 (f32 accumulate), {ctx.get('date', '')}, host {ctx.get('host_name', '')}")
    print("| shape MxNxK | cuBLAS TFLOP/s | ours TFLOP/s | ours / cuBLAS | rel. error | variants (TFLOP/s) |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for shape, impls in rows.items():
        cublas = impls.get("cublas", (0, None))[0]
        ours, err = impls.get("cute_dsl_sm90", (0, None))
        variants = ", ".join(f"{k[len('cute_dsl_sm90'):]} {v[0]:.0f}" for k, v in impls.items() if k.startswith("cute_dsl_sm90["))
        ratio = f"{ours / cublas:.2f}x" if cublas else "-"
        err_text = f"{err:.1e}" if err is not None else "-"
        print(f"| {shape} | {cublas:.0f} | {ours:.0f} | {ratio} | {err_text} | {variants} |")


    if png:
        plot(rows, ctx, png, device)


# ---- gemm_sweep ------------------------------------------------------------------------------

def load_sweep(path):
    """{(group, shape): {impl: benchmark}} in the program's order, and the JSON's context."""
    with open(path) as f:
        data = json.load(f)
    rows = {}
    for b in data.get("benchmarks", []):
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        parts = b["run_name"].split("/")
        if len(parts) < 3:
            continue
        rows.setdefault((parts[0], parts[1]), {})[parts[2]] = b
    return rows, data.get("context", {})


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def sweep_summary(rows):
    """(ratios {(group, shape): (ratio, cublas TFLOP/s, ours TFLOP/s, rel_err)}, failures [(group, shape, impl, why)])."""
    ratios, failures = {}, []
    for key, impls in rows.items():
        if "pair" in impls:  # both libraries timed in turns by one benchmark
            b = impls["pair"]
            if b.get("error_occurred"):
                why = b.get("error_message", "")
                failures.append((*key, "cublas" if why.startswith("cublas") else "ours", why))
            elif b.get("cublas_TFLOPs", 0) > 0:
                c, o = b["cublas_TFLOPs"], b.get("TFLOPs", 0.0)
                ratios[key] = (o / c, c, o, b.get("rel_err"))
            continue
        ok = True
        for impl in ("cublas", "ours"):
            b = impls.get(impl)
            if b is None or b.get("error_occurred"):
                failures.append((*key, impl, b.get("error_message", "") if b else "not run"))
                ok = False
        if ok and impls["cublas"].get("TFLOPs", 0) > 0:
            c, o = impls["cublas"]["TFLOPs"], impls["ours"]["TFLOPs"]
            ratios[key] = (o / c, c, o, impls["ours"].get("rel_err"))
    return ratios, failures


def plot_sweep(ratios, ctx, png, device):
    plt = pyplot(png)
    if plt is None:
        return
    keys = list(ratios)
    groups = list(dict.fromkeys(g for g, _ in keys))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    fig, ax = plt.subplots(figsize=(max(10, 0.16 * len(keys)), 5))
    for gi, g in enumerate(groups):
        xs = [i for i, k in enumerate(keys) if k[0] == g]
        ax.bar(xs, [ratios[keys[i]][0] for i in xs], color=colors[gi % len(colors)],
               label=f"{g} (geomean {geomean([ratios[keys[i]][0] for i in xs]):.2f}x)")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.axhline(0.95, color="gray", linewidth=0.6, linestyle="--")
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels([s for _, s in keys], rotation=90, fontsize=5)
    ax.set_ylabel("ours / cuBLAS (TFLOP/s ratio, medians)")
    all_r = [r[0] for r in ratios.values()]
    ax.set_title(f"GEMM sweep on {device or ctx.get('host_name', '')}, {ctx.get('date', '')[:10]}: "
                 f"geomean {geomean(all_r):.3f}x, worst {min(all_r):.2f}x over {len(all_r)} shapes")
    ax.set_ylim(0, max(1.45, max(all_r) + 0.1))
    ax.legend(fontsize=7, ncol=5, loc="upper center")
    fig.tight_layout()
    fig.savefig(png, dpi=130)
    print(f"summarize.py: wrote {png}")


def main_sweep(path, png=None, device=None):
    rows, ctx = load_sweep(path)
    ratios, failures = sweep_summary(rows)
    print(f"# GEMM sweep: ours / cuBLAS, {device or ctx.get('host_name', '')}, {ctx.get('date', '')}")
    if ratios:
        worst = min(ratios, key=lambda k: ratios[k][0])
        print(f"\n**geomean {geomean([r[0] for r in ratios.values()]):.3f}x** over {len(ratios)} shapes; "
              f"worst {ratios[worst][0]:.3f}x at {worst[0]}/{worst[1]}; "
              f"{sum(r[0] < 0.95 for r in ratios.values())} shapes below 0.95x; "
              f"{len({(g, s) for g, s, _, _ in failures})} shapes not run by both (listed last)\n")
        print("| group | shapes | geomean | worst | worst shape |")
        print("| --- | ---: | ---: | ---: | --- |")
        for g in dict.fromkeys(k[0] for k in ratios):
            keys = [k for k in ratios if k[0] == g]
            w = min(keys, key=lambda k: ratios[k][0])
            print(f"| {g} | {len(keys)} | {geomean([ratios[k][0] for k in keys]):.3f}x | {ratios[w][0]:.3f}x | {w[1]} |")
        print("\n| group | shape | cuBLAS TFLOP/s | ours TFLOP/s | ours / cuBLAS | rel. error |")
        print("| --- | --- | ---: | ---: | ---: | ---: |")
        for (g, shape), (r, c, o, err) in ratios.items():
            err_text = f"{err:.1e}" if err is not None else "-"
            print(f"| {g} | {shape} | {c:.1f} | {o:.1f} | {r:.3f}x | {err_text} |")
    else:
        print("\nno shape ran on both (no GPU in that run?)")
    if failures:
        print("\n| group | shape | impl | not run because |")
        print("| --- | --- | --- | --- |")
        for g, shape, impl, why in failures:
            print(f"| {g} | {shape} | {impl} | {why} |")
    if png and ratios:
        plot_sweep(ratios, ctx, png, device)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", nargs="?", default="gemm.json")
    parser.add_argument("--sweep", action="store_true", help="the JSON is gemm_sweep's: print the judged summary")
    parser.add_argument("--png", help="also draw the bars into this PNG (needs matplotlib)")
    parser.add_argument("--device", help="the GPU's name for the plot's title (the JSON does not hold it)")
    args = parser.parse_args()
    (main_sweep if args.sweep else main)(args.json, args.png, args.device)
