#!/usr/bin/env python3
"""Prints the GEMM benchmark's table: per shape, cuBLAS and ours (median TFLOP/s), the ratio,
and ours' relative error. Reads the JSON that gemm_bench writes with --benchmark_out.

    python3 bench/gemm/summarize.py gemm.json
"""
import json
import sys


def main(path):
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
    ctx = data.get("context", {})
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


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "gemm.json")
