#!/usr/bin/env python3
"""The issue-11 table from one device run: bench/epilogue/epilogue_bench's JSON (Google Benchmark)
and scripts/device/epilogue_cublaslt.py's, side by side per shape. Several cuBLASLt files (runs
before and after ours): each figure the fastest of them (run-to-run drift favours the vendor).
Fused / plain ratios divide by the plain GEMM timed in turns with that fused kernel (its row's
plain_us counter); the "plain" column is the bias + GELU row's; "plain alone" the plain GEMM's own
benchmark (timed apart: what moved between runs).

  python3 scripts/device/epilogue_table.py bench.json cublaslt.json [more cublaslt.json] > table.md
"""
import json
import sys


def main():
    bench = json.load(open(sys.argv[1]))
    lt = {}
    for path in sys.argv[2:]:
        for r in json.load(open(path)):
            key = (r["m"], r["n"], r["k"])
            if key not in lt:
                lt[key] = dict(r)
            else:
                for field in ("mm_us", "bias_gelu_us", "unfused_us"):
                    lt[key][field] = min(lt[key][field], r[field])
    ours = {}
    for b in bench["benchmarks"]:
        if b.get("error_occurred"):
            continue
        kind, shape = b["name"].split("/")[:2]
        ours.setdefault(shape, {})[kind] = b
    print("| M x N x K | variant | plain | plain alone | JIT acc | bias+GELU | + row abs-max | + abs-max | pp acc | pp bias+GELU | cuBLASLt mm "
          "| cuBLASLt GELU_BIAS | fused / plain | best fused / plain | best fused vs GELU_BIAS | row abs-max cost | abs-max cost | rel err "
          "| pp + row abs-max | pp row abs-max cost | pp rel err |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for shape, o in ours.items():
        m, n, k = (int(v) for v in shape.split("x"))
        us = lambda key: o[key]["median_us"] if key in o else float("nan")
        r = lt.get((m, n, k), {})
        paired = lambda key: o[key].get("plain_us", float("nan")) if key in o else float("nan")
        alone, acc, fused = us("plain"), us("jit_acc"), us("jit_bias_gelu")
        plain, pp_plain = paired("jit_bias_gelu"), paired("jit_pp_bias_gelu")
        row_amax, amax = us("jit_bias_gelu_row_absmax"), us("jit_bias_gelu_absmax")
        gelu_bias = r.get("bias_gelu_us", float("nan"))
        label = o.get("jit_bias_gelu", {}).get("label", "")
        err = o.get("jit_bias_gelu", {}).get("rel_err", float("nan"))
        pp_acc, pp_fused, pp_row_amax = us("jit_pp_acc"), us("jit_pp_bias_gelu"), us("jit_pp_bias_gelu_row_absmax")
        pp_err = o.get("jit_pp_bias_gelu", {}).get("rel_err", float("nan"))
        best = min(fused, pp_fused)
        best_ratio = max(plain / fused, pp_plain / pp_fused)
        print(f"| {shape} | {label} | {plain:.1f} | {alone:.1f} | {acc:.1f} | {fused:.1f} | {row_amax:.1f} | {amax:.1f} | {pp_acc:.1f} | {pp_fused:.1f} "
              f"| {r.get('mm_us', float('nan')):.1f} | {gelu_bias:.1f} | {plain / fused:.3f} | {best_ratio:.3f} | {gelu_bias / best:.3f} "
              f"| {row_amax / fused - 1:+.1%} | {amax / fused - 1:+.1%} | {err:.1e} "
              f"| {pp_row_amax:.1f} | {pp_row_amax / pp_fused - 1:+.1%} | {pp_err:.1e} |")
    print("\n(us, median of 20 flushed launches; ratios > 1: the fused kernel is faster)\n")
    print("| M x N x K | JIT acc | acc * 2 | acc + bias | gelu_tanh(acc) | gelu_tanh(acc + bias) |")
    print("|---|---|---|---|---|---|")
    for shape, o in ours.items():
        us = lambda key: o[key]["median_us"] if key in o else float("nan")
        print(f"| {shape} | {us('jit_acc'):.1f} | {us('jit_scale'):.1f} | {us('jit_bias'):.1f} | {us('jit_gelu'):.1f} | {us('jit_bias_gelu'):.1f} |")


if __name__ == "__main__":
    main()
