#!/usr/bin/env python3
"""cuBLASLt's GEMM epilogues through PyTorch, timed like bench/epilogue/epilogue_bench (L2 flushed
before each of 20 launches, CUDA events, median): plain mm, bias + GELU (tanh, cuBLASLt's
GELU_BIAS through torch._addmm_activation), and the unfused mm, + bias, gelu. bf16, y = x W^T + b
with x M x K and W N x K (K-major, as the benchmark's A and B).

  python3 scripts/device/epilogue_cublaslt.py --shapes 8192x8192x8192,... --json out.json
"""
import argparse
import json

import torch


def median_us(fn, flush, runs=20, warmup=3):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        flush.fill_(1)  # a different value is not needed: the write itself evicts L2
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) * 1e3)
    times.sort()
    mid = len(times) // 2
    return times[mid] if len(times) % 2 else 0.5 * (times[mid - 1] + times[mid])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--shapes", required=True)
    parser.add_argument("--json", required=True)
    args = parser.parse_args()
    props = torch.cuda.get_device_properties(0)
    flush = torch.empty(2 * props.L2_cache_size // 4 + 1, dtype=torch.float32, device="cuda")
    rows = []
    for text in args.shapes.split(","):
        m, n, k = (int(v) for v in text.split("x"))
        x = torch.rand(m, k, device="cuda", dtype=torch.bfloat16) * 2 - 1
        w = torch.rand(n, k, device="cuda", dtype=torch.bfloat16) * 2 - 1
        b = torch.rand(n, device="cuda", dtype=torch.bfloat16) * 2 - 1
        wt = w.t()
        row = {"m": m, "n": n, "k": k, "device": props.name,
               "mm_us": median_us(lambda: torch.mm(x, wt), flush),
               "bias_gelu_us": median_us(lambda: torch._addmm_activation(b, x, wt, use_gelu=True), flush),
               "unfused_us": median_us(lambda: torch.nn.functional.gelu(torch.mm(x, wt) + b, approximate="tanh"), flush)}
        rows.append(row)
        print(json.dumps(row), flush=True)
        del x, w, b, wt
    with open(args.json, "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
