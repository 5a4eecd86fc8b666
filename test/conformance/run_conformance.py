#!/usr/bin/env python3
"""Runs the shared conformance checker on one TSV file against `cute-dsl layout --batch`.

Usage: run_conformance.py CONFORMANCE_DIR CUTE_DSL TSV_NAME [--require-rule WORD]

Exits 77 (CTest SKIP_RETURN_CODE) when the shared folder or the file is missing, so a checkout
without it shows the test as skipped rather than passed. With --require-rule, every case must
fail with an `ERROR:` line whose message contains WORD (the name of the violated rule).
"""
import os
import shlex
import subprocess
import sys

SKIP = 77


def main():
    args = sys.argv[1:]
    rule = None
    if "--require-rule" in args:
        k = args.index("--require-rule")
        rule = args[k + 1]
        del args[k:k + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    directory, tool, name = args
    checker = os.path.join(directory, "check_layouts.py")
    tsv = os.path.join(directory, name)
    for path in (checker, tsv):
        if not os.path.exists(path):
            print(f"SKIPPED: {path} not found (set CUTE_DSL_CONFORMANCE_DIR)")
            return SKIP

    cmd = shlex.join([tool, "layout", "--batch"])
    p = subprocess.run([sys.executable, checker, tsv, "--batch", "--cmd", cmd, "--show", "40"])
    status = p.returncode

    if rule is not None:
        # The checker only needs "ERROR"; we also want the message to name the broken rule.
        exprs = []
        with open(tsv) as f:
            for line in f:
                line = line.rstrip("\r\n")
                if not line.strip() or line.startswith("#"):
                    continue
                fields = line.split("\t")
                exprs.append(f"{fields[0]}({','.join(fields[1:-1])})")
        out = subprocess.run([tool, "layout", "--batch"], input="".join(e + "\n" for e in exprs),
                             capture_output=True, text=True, timeout=600).stdout.splitlines()
        unnamed = [(e, o) for e, o in zip(exprs, out) if not (o.startswith("ERROR: ") and rule in o)]
        unnamed += [(e, "<no output>") for e in exprs[len(out):]]
        for e, o in unnamed[:20]:
            print(f"NO RULE NAMED: {e}\n     got {o}")
        print(f"{len(exprs) - len(unnamed)} of {len(exprs)} errors name a rule ({rule!r})")
        if unnamed:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
