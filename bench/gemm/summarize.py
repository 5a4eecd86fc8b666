#!/usr/bin/env python3
"""Prints the GEMM benchmark's table: per shape, cuBLAS and ours (median TFLOP/s), the ratio,
and ours' relative error. Reads the JSON that gemm_bench writes with --benchmark_out.

    python3 bench/gemm/summarize.py gemm.json [--png gemm.png]

With --png (needs matplotlib) it also draws the table as bars: TFLOP/s per shape, ours beside
cuBLAS, the ratio written over each pair.
"""
import argparse
import json


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


def plot(rows, ctx, png, device):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"summarize.py: matplotlib is not installed; {png} not drawn")
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


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", nargs="?", default="gemm.json")
    parser.add_argument("--png", help="also draw the bars into this PNG (needs matplotlib)")
    parser.add_argument("--device", help="the GPU's name for the plot's title (the JSON does not hold it)")
    args = parser.parse_args()
    main(args.json, args.png, args.device)
