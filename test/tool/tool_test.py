#!/usr/bin/env python3
"""Black-box checks of the `cute-dsl` program: exit codes, ERROR messages, batch mode, --table, --svg.

Usage: tool_test.py CUTE_DSL_BINARY CASE [WORK_DIR]. Each CASE is one CTest test; it exits 0 when
every check holds and prints what differed otherwise.
"""
import os
import subprocess
import sys
import tempfile

TOOL = sys.argv[1]
failures = []


def run(*args, stdin=None):
    p = subprocess.run([TOOL, *args], input=stdin, capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    if not cond:
        failures.append(what)


def case_help():
    rc, out, err = run("--help")
    check(rc == 0, f"--help exit {rc}")
    check("layout" in out and "usage: cute-dsl" in out, f"--help text: {out!r}")
    rc, out, _ = run("layout", "--help")
    check(rc == 0, f"layout --help exit {rc}")
    for word in ("--batch", "--table", "--svg", "composition(", "logical_divide(", "max_common_vector("):
        check(word in out, f"layout --help lacks {word!r}")
    rc, _, err = run()
    check(rc == 2 and "usage" in err, f"no arguments: exit {rc}, stderr {err!r}")
    rc, _, err = run("nonsense")
    check(rc == 2 and "ERROR: unknown command 'nonsense'" in err, f"unknown command: {rc} {err!r}")
    rc, _, err = run("layout", "--frob", "4:1")
    check(rc == 2 and "unknown option" in err, f"unknown option: {rc} {err!r}")
    rc, _, err = run("layout")
    check(rc == 2 and "no expression" in err, f"missing EXPR: {rc} {err!r}")


def case_single():
    rc, out, err = run("layout", "composition((4,2):(1,4),8:1)")
    check(rc == 0 and out == "8:1\n" and err == "", f"composition: {rc} {out!r} {err!r}")
    rc, out, _ = run("layout", "size(((2,2),3):((1,4),2))")
    check(rc == 0 and out == "12\n", f"size: {rc} {out!r}")
    rc, out, _ = run("layout", "[2:1,2]")
    check(rc == 0 and out == "[2:1,2:1]\n", f"tiler: {rc} {out!r}")
    rc, out, _ = run("layout", "(4):(1)")
    check(rc == 0 and out == "(4):(1)\n", f"rank-1 tuple: {rc} {out!r}")
    # Several words form one expression (unquoted shell use).
    rc, out, _ = run("layout", "size(", "(2,3):(1,2)", ")")
    check(rc == 0 and out == "6\n", f"split words: {rc} {out!r}")
    # A negative integer is an expression, not an option.
    rc, out, _ = run("layout", "-3")
    check(rc == 0 and out == "-3\n", f"negative integer: {rc} {out!r}")


def case_errors():
    for expr, fragment in [
        ("composition((4,2):(1,4)", "parse error at column 24: expected ',' or ')', got end of input"),
        ("frob(4:1)", "unknown operation 'frob'"),
        ("size(4:1,4:1)", "size at column 1: expects 1 argument, got 2"),
        ("composition(((3,2)):((1,6)),(2,2):(1,2))", "composition: "),
        ("complement(((2,2)):((12,5)),36)", "complement: "),
        # Results beyond 64 bits are errors, never wrapped-around layouts (found by fuzzing).
        ("blocked_product((3,3):(1,3),(4,1424294967294967296):(2,0))",
         "blocked_product: Integer overflow: a value computed from"),
        ("composition((3,2):(44444404444444444,8),[1:42429672])", "composition: Integer overflow: "),
        ("size(complement(flat_divide(((1,7)):((11,111111112)),4:111111111111)))",
         "flat_divide: Integer overflow: a value computed from 111111111111 and 111111112 does not fit in 64 bits"),
    ]:
        rc, out, err = run("layout", expr)
        check(rc == 1, f"{expr}: exit {rc}")
        check(out == "", f"{expr}: stdout must stay empty on error, got {out!r}")
        lines = err.strip().splitlines()
        check(len(lines) == 1 and lines[0].startswith("ERROR: ") and fragment in lines[0],
              f"{expr}: stderr {err!r} lacks {fragment!r}")


def case_batch():
    exprs = ["size(8:1)", "frob(1)", "", "coalesce((2,4):(2,4))", "(4,2):(1", "rank(((2,2),3):((1,4),2))",
             "composition(((3,2)):((1,6)),(2,2):(1,2))", "[4]", "depth(4:1)\r"]
    rc, out, err = run("layout", "--batch", stdin="\n".join(exprs) + "\n")
    lines = out.split("\n")
    check(lines[-1] == "", "batch output must end in a newline")
    lines = lines[:-1]
    check(len(lines) == len(exprs), f"batch: {len(lines)} lines for {len(exprs)} inputs: {out!r}")
    want = ["8", "ERROR: ", "ERROR: ", "8:2", "ERROR: parse error at column 9", "2", "ERROR: composition: ",
            "[4:1]", "0"]
    for k, (got, w) in enumerate(zip(lines, want)):
        ok = got.startswith(w) if w.startswith("ERROR") else got == w
        check(ok, f"batch line {k + 1} ({exprs[k]!r}): got {got!r}, want {w!r}")
    check(rc == 1, f"batch with failures: exit {rc}")
    rc, out, _ = run("layout", "--batch", stdin="size(8:1)\nsize(2:1)")  # no final newline
    check(rc == 0 and out == "8\n2\n", f"batch all ok: {rc} {out!r}")
    rc, _, err = run("layout", "--batch", "4:1")
    check(rc == 2 and "--batch" in err, f"--batch with EXPR: {rc} {err!r}")


def case_batch_is_interactive():
    # The answer to each line must arrive before the next line is sent (flush per line).
    p = subprocess.Popen([TOOL, "layout", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        for expr, want in [("size(6:1)", "6"), ("bad(", None), ("cosize(4:2)", "7")]:
            p.stdin.write(expr + "\n")
            p.stdin.flush()
            got = p.stdout.readline().rstrip("\n")
            check(got == want if want else got.startswith("ERROR: "), f"interactive {expr}: {got!r}")
    finally:
        p.stdin.close()
        p.wait(timeout=30)


def case_table():
    rc, out, _ = run("layout", "--table", "(2,3):(3,1)")
    want = ("(2,3):(3,1)\n"
            "      0   1   2 \n"
            "    +---+---+---+\n"
            " 0  | 0 | 1 | 2 |\n"
            "    +---+---+---+\n"
            " 1  | 3 | 4 | 5 |\n"
            "    +---+---+---+\n")
    check(rc == 0 and out == want, f"--table: {rc}\n{out}")
    rc, out, _ = run("layout", "--table", "logical_divide((4,4):(4,1),[2:1,2:1])")
    check(rc == 0 and "+" in out, f"--table of an expression: {rc} {out!r}")
    rc, out, err = run("layout", "--table", "8:1")
    check(rc == 1 and out == "" and "rank-2" in err, f"--table rank 1: {rc} {out!r} {err!r}")
    rc, out, err = run("layout", "--table", "size(8:1)")
    check(rc == 1 and out == "" and "needs a layout" in err, f"--table integer: {rc} {out!r} {err!r}")


def case_svg():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "pic.svg")
        rc, out, err = run("layout", "--svg", path, "(2,3):(3,1)")
        check(rc == 0 and out == "(2,3):(3,1)\n", f"--svg: {rc} {out!r} {err!r}")
        check(os.path.exists(path), "--svg wrote no file")
        if os.path.exists(path):
            text = open(path).read()
            check(text.startswith("<?xml") and "<svg" in text and text.rstrip().endswith("</svg>"),
                  "--svg file is not an SVG document")
            check(text.count('stroke="black"') == 6, "--svg: expected 6 cells")
        bad = os.path.join(d, "missing-dir", "pic.svg")
        rc, out, err = run("layout", "--svg", bad, "(2,3):(3,1)")
        check(rc == 1 and out == "" and "cannot write" in err, f"--svg unwritable: {rc} {out!r} {err!r}")
        other = os.path.join(d, "rank1.svg")
        rc, _, err = run("layout", f"--svg={other}", "8:1")
        check(rc == 1 and not os.path.exists(other), f"--svg rank 1: {rc} {err!r}")


CASES = {name[len("case_"):]: fn for name, fn in globals().items() if name.startswith("case_")}

if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[2] not in CASES:
        sys.exit(f"usage: tool_test.py BINARY {{{','.join(CASES)}}}")
    CASES[sys.argv[2]]()
    for f in failures:
        print("FAIL:", f)
    print(f"{sys.argv[2]}: {len(failures)} failure(s)")
    sys.exit(1 if failures else 0)
